// DIMACS shortest-path files (.gr text, 9th DIMACS Implementation Challenge):
//
//   c comment
//   p sp N M           (exactly one, before the arcs)
//   a u v w            (1-based ids, integer weight >= 0; M of them)
#include "formats.h"
#include "text_chunks.h"
#include "text_scanner.h"

namespace irgl {

namespace {

using text::LineFields;
using text::ParseError;

constexpr const char* kProblemForm = "'p sp <nodes> <arcs>'";

struct Problem {
  uint64_t nodes = 0;
  uint64_t arcs = 0;
  const char* line = nullptr;
};

// DIMACS comment lines start with 'c', whatever follows.
bool is_comment(char c) { return c == 'c'; }

[[noreturn]] void fail_line_type(std::string_view type) {
  throw ParseError{type.data(),
                   "unknown line type " + text::quoted(type) + " (expected 'c', 'p' or 'a')"};
}

Problem parse_problem_line(const char* first, const LineFields& line) {
  if (line.count < 2)
    throw ParseError{first, std::string("incomplete 'p' line (expected ") + kProblemForm + ")"};
  if (line.field[1] != "sp")
    throw ParseError{line.field[1].data(), "unsupported DIMACS problem " +
                                               text::quoted(line.field[1]) + " (expected " +
                                               kProblemForm + ")"};
  if (line.count != 4)
    throw ParseError{first, std::string("expected ") + kProblemForm + ", found " +
                                text::plural(line.count, "field")};
  Problem problem;
  problem.nodes = text::parse_count(line.field[2], "node count");
  problem.arcs = text::parse_count(line.field[3], "arc count");
  problem.line = first;
  if (problem.nodes > kMaxVertices)
    throw ParseError{line.field[2].data(), text::excerpt(line.field[2]) + " nodes, more than the " +
                                               std::to_string(kMaxVertices) +
                                               " vertices a graph may have"};
  return problem;
}

// Finds the 'p' line, which must come before any arc. Leaves `p` at the line
// after it.
Problem find_problem_line(const char*& p, const char* end) {
  LineFields line;
  while (p < end) {
    const char* first = text::skip_blanks(p, end);
    if (first == end || *first == '\n' || is_comment(*first)) {
      p = text::next_line(first, end);
      continue;
    }
    text::split_line(first, end, false, line);
    const std::string_view type = line.field[0];
    if (type == "p") {
      const Problem problem = parse_problem_line(first, line);
      p = line.next;
      return problem;
    }
    if (type == "a")
      throw ParseError{first, std::string("arc before the ") + kProblemForm + " line"};
    fail_line_type(type);
  }
  throw ParseError{end, std::string("missing ") + kProblemForm + " line"};
}

// What each worker collects.
struct ArcChunk {
  text::EdgeBuffer edges;
  uint64_t arcs = 0;

  void reserve(uint64_t lines) { edges.reserve(lines, true); }
};

class ArcParser {
 public:
  ArcParser(const TextInput& input, const Problem& problem) : input_(input), problem_(problem) {}

  void parse(const char* p, const char* end, ArcChunk& chunk) const {
    text::for_each_data_line(
        p, end, is_comment,
        [&](const char* line) { return parse_plain_arc(line, end, chunk); },
        [&](const char* line) { return parse_line(line, end, chunk); });
  }

 private:
  // The fast path: "a u v w" with plain numbers. Returns the next line, or
  // nullptr to leave the line to parse_line().
  const char* parse_plain_arc(const char* p, const char* end, ArcChunk& chunk) const {
    if (end - p < 2 || p[0] != 'a' || !text::is_blank(p[1])) return nullptr;
    p = text::skip_blanks(p + 1, end);
    uint64_t source, target, weight;
    if (!text::scan_unsigned(p, end, false, source) ||
        !text::scan_unsigned(p, end, false, target) ||
        !text::scan_unsigned(p, end, false, weight) || !text::at_line_end(p, end) ||
        source - 1 >= problem_.nodes || target - 1 >= problem_.nodes || weight > INT32_MAX)
      return nullptr;
    add(chunk, static_cast<VertexId>(source - 1), static_cast<VertexId>(target - 1),
        static_cast<int32_t>(weight));
    return text::after_line_end(p, end);
  }

  // The careful path: any line, valid or not. Returns the next line.
  const char* parse_line(const char* first, const char* end, ArcChunk& chunk) const {
    LineFields line;
    text::split_line(first, end, false, line);
    if (line.field[0] != "a") fail_not_arc(line.field[0]);
    if (line.count != 4)
      throw ParseError{
          first, "expected 'a <from> <to> <weight>', found " + text::plural(line.count, "field")};
    const VertexId source = vertex(line.field[1]);
    const VertexId target = vertex(line.field[2]);
    add(chunk, source, target, weight(line.field[3]));
    return line.next;
  }

  static void add(ArcChunk& chunk, VertexId source, VertexId target, int32_t weight) {
    chunk.edges.add(source, target, text::weight_word(weight));
    ++chunk.arcs;
  }

  VertexId vertex(std::string_view field) const {
    const uint64_t id = text::parse_count(field, "vertex id");
    if (id - 1 >= problem_.nodes)  // also catches 0
      throw ParseError{field.data(), "vertex id " + text::excerpt(field) + " out of range 1.." +
                                         std::to_string(problem_.nodes) +
                                         " (DIMACS ids are 1-based)"};
    return static_cast<VertexId>(id - 1);
  }

  static int32_t weight(std::string_view field) {
    const int32_t value = text::parse_int32_field(field, "arc weight");
    if (value < 0) throw ParseError{field.data(), "negative arc weight " + text::excerpt(field)};
    return value;
  }

  [[noreturn]] void fail_not_arc(std::string_view type) const {
    if (type != "p") fail_line_type(type);
    const uint64_t first_line =
        text::line_number_at(input_.data, problem_.line - input_.data.data());
    throw ParseError{type.data(),
                     "second 'p' line (the first is line " + std::to_string(first_line) + ")"};
  }

  const TextInput& input_;
  Problem problem_;
};

}  // namespace

EdgeList parse_dimacs(const TextInput& input) {
  text::reject_empty(input);
  text::reject_binary(input, "DIMACS text");
  const char* const begin = input.data.data();
  const char* const end = begin + input.data.size();
  try {
    const char* p = begin;
    const Problem problem = find_problem_line(p, end);
    const ArcParser parser(input, problem);
    std::vector<ArcChunk> chunks = text::parse_in_chunks(
        input, p - begin, ArcChunk{}, [&](const char* first, const char* last, ArcChunk& chunk) {
          parser.parse(first, last, chunk);
        });

    uint64_t arcs = 0;
    for (const ArcChunk& chunk : chunks) arcs += chunk.arcs;
    if (arcs != problem.arcs)
      throw ParseError{problem.line, "the 'p' line declares " + std::to_string(problem.arcs) +
                                         " arcs, but the file has " + std::to_string(arcs)};

    EdgeList edges;
    edges.name = input.name;
    edges.num_vertices = problem.nodes;
    edges.weight_type = WeightType::int32;
    text::gather_edges(chunks, edges);
    return edges;
  } catch (const ParseError& error) {
    throw text::located(input, error);
  }
}

}  // namespace irgl
