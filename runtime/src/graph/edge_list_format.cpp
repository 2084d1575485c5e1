// Edge lists in the SNAP style and its variants (.txt .el .tsv .csv .wel):
//
//   # comment (or % comment); "# Nodes: N ..." gives the vertex count (more
//   when ids reach beyond it)
//   u v        or   u v w      (0-based ids; blanks and/or one comma between)
//
// Every edge line has the same number of columns. A third column is a weight:
// int32 when every weight is an integer, otherwise float32 for the whole file.
//
// A header line (column names, "source,target,weight") may come before the
// first edge in files named .csv, or in any edge list with --header; it is
// told apart by its fields, which all start with a letter, '_' or '"'.
// Elsewhere such a line is an error that says so.
//
// Ids are used as they are: the graph has max id + 1 vertices. When that is
// more than kSparseMinVertices and more than kSparseFactor times the number
// of ids that occur, a warning suggests --renumber (build_csr's renumber).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <iostream>

#include "formats.h"
#include "text_chunks.h"
#include "text_scanner.h"

namespace irgl {

namespace {

using text::LineFields;
using text::ParseError;

bool is_comment(char c) { return c == '#' || c == '%'; }

constexpr uint64_t kSparseMinVertices = 1000000;
constexpr uint64_t kSparseFactor = 4;

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// A .csv file, perhaps compressed.
bool named_csv(std::string_view name) {
  for (std::string_view suffix : {".gz", ".xz"})
    if (ends_with(name, suffix)) name.remove_suffix(suffix.size());
  return ends_with(name, ".csv");
}

// Column names, not numbers: every field starts with a letter, '_' or '"'.
bool looks_like_header(const LineFields& line) {
  if (line.count == 0) return false;
  for (size_t i = 0; i < std::min(line.count, LineFields::kMaxFields); ++i) {
    const std::string_view field = line.field[i];
    if (field.empty()) return false;
    const auto first = static_cast<unsigned char>(field[0]);
    if (!std::isalpha(first) && first != '_' && first != '"') return false;
  }
  return true;
}

// What the lines before the first edge say.
struct Header {
  uint64_t declared_vertices = 0;    // from "# Nodes: N"
  const char* nodes_line = nullptr;  // that comment, if any
  const char* first_edge = nullptr;  // the first edge line, if any
  const char* header_line = nullptr;  // the column names, if any
  size_t columns = 2;
};

// The N of a SNAP "# Nodes: N" comment, if `comment` holds one.
bool declared_nodes(std::string_view comment, std::string_view& count) {
  static constexpr std::string_view kKey = "Nodes:";
  const size_t key = comment.find(kKey);
  if (key == std::string_view::npos) return false;
  LineFields words;
  const char* after = comment.data() + key + kKey.size();
  text::split_line(after, comment.data() + comment.size(), false, words);
  uint64_t ignored;
  if (words.count == 0 || !text::parse_unsigned(words.field[0], ignored)) return false;
  count = words.field[0];
  return true;
}

[[noreturn]] void fail_columns(const char* line, size_t count) {
  throw ParseError{line,
                   "expected 2 or 3 columns ('u v' or 'u v w'), found " + std::to_string(count)};
}

// Commas make empty columns possible ("1,,2", "1,2,"); they are never valid.
void reject_empty_columns(const LineFields& line) {
  for (size_t i = 0; i < std::min(line.count, LineFields::kMaxFields); ++i)
    if (line.field[i].empty())
      throw ParseError{line.field[i].data(),
                       "empty column (nothing between two commas, or after the last)"};
}

Header parse_header(const TextInput& input, const EdgeListOptions& options) {
  const char* p = input.data.data();
  const char* const end = p + input.data.size();
  Header header;
  while (p < end) {
    const char* first = text::skip_blanks(p, end);
    if (first < end && *first != '\n' && !is_comment(*first)) {
      LineFields line;
      text::split_line(first, end, true, line);
      const std::string shown = text::quoted(text::line_at(first, end));
      if (!header.header_line && looks_like_header(line)) {
        if (!options.header && !named_csv(input.name))
          throw ParseError{first, shown +
                                      " looks like a header line (column names); edge lists "
                                      "have one only when named .csv or read with --header (or "
                                      "make it a comment: '# ...')"};
        header.header_line = first;
        p = line.next;
        continue;
      }
      if (options.header && !header.header_line)
        throw ParseError{first, "--header: expected a line of column names before the first "
                                "edge, found " + shown};
      reject_empty_columns(line);
      if (line.count != 2 && line.count != 3) fail_columns(first, line.count);
      header.first_edge = first;
      header.columns = line.count;
      return header;
    }
    std::string_view count;
    if (first < end && is_comment(*first) && declared_nodes(text::line_at(first, end), count)) {
      header.declared_vertices = text::parse_count(count, "node count");
      header.nodes_line = first;
      if (header.declared_vertices > kMaxVertices)
        throw ParseError{count.data(), "'Nodes: " + text::excerpt(count) + "' is more than the " +
                                           std::to_string(kMaxVertices) +
                                           " vertices a graph may have"};
    }
    p = text::next_line(first, end);
  }
  return header;
}

// What each worker collects.
struct EdgeChunk {
  text::EdgeBuffer edges;
  bool weighted = false;
  bool float_weights = false;  // some weight was not an integer
  bool has_edges = false;
  VertexId max_id = 0;

  void reserve(uint64_t lines) { edges.reserve(lines, weighted); }

  // From now on weights are floats; the integers so far become floats.
  void switch_to_float() {
    for (uint32_t& word : edges.weights) {
      int32_t value;
      std::memcpy(&value, &word, sizeof value);
      word = text::weight_word(static_cast<float>(value));
    }
    float_weights = true;
  }
};

class EdgeLineParser {
 public:
  EdgeLineParser(const TextInput& input, const Header& header)
      : input_(input),
        header_(header),
        limit_(kMaxVertices) {}

  void parse(const char* p, const char* end, EdgeChunk& chunk) const {
    text::for_each_data_line(
        p, end, is_comment,
        [&](const char* line) { return parse_plain_line(line, end, chunk); },
        [&](const char* line) { return parse_line(line, end, chunk); });
  }

 private:
  // The fast path: a line of plain numbers. Returns the next line, or
  // nullptr to leave the line to parse_line().
  const char* parse_plain_line(const char* p, const char* end, EdgeChunk& chunk) const {
    uint64_t source, target;
    if (!text::scan_unsigned(p, end, true, source) || !text::scan_unsigned(p, end, true, target) ||
        source >= limit_ || target >= limit_)
      return nullptr;
    uint32_t weight = 0;
    bool real = false;
    if (header_.columns == 3 && !scan_weight(p, end, weight, real)) return nullptr;
    if (!text::at_line_end(p, end)) return nullptr;
    add(chunk, static_cast<VertexId>(source), static_cast<VertexId>(target), weight, real);
    return text::after_line_end(p, end);
  }

  // A weight for the fast path: a short integer, or a real that is not an
  // integer. `real` says which `word` holds.
  static bool scan_weight(const char*& p, const char* end, uint32_t& word, bool& real) {
    int32_t integer;
    if (text::scan_int32(p, end, true, integer)) {
      word = text::weight_word(integer);
      real = false;
      return true;
    }
    const char* q = p;
    std::string_view token;
    float value;
    if (!text::scan_token(q, end, true, token) ||
        text::parse_int32(token, integer) != text::NumberStatus::malformed ||
        text::parse_float32(token, value) != text::NumberStatus::ok)
      return false;
    word = text::weight_word(value);
    real = true;
    p = q;
    return true;
  }

  // The careful path: any line, valid or not. Returns the next line.
  const char* parse_line(const char* first, const char* end, EdgeChunk& chunk) const {
    LineFields line;
    text::split_line(first, end, true, line);
    reject_empty_columns(line);
    if (line.count != header_.columns) fail_column_count(first, line.count);
    const VertexId source = vertex(line.field[0]);
    const VertexId target = vertex(line.field[1]);
    uint32_t weight = 0;
    bool real = false;
    if (header_.columns == 3) weight = parse_weight(line.field[2], real);
    add(chunk, source, target, weight, real);
    return line.next;
  }

  void add(EdgeChunk& chunk, VertexId source, VertexId target, uint32_t weight, bool real) const {
    chunk.max_id = std::max({chunk.max_id, source, target});
    chunk.has_edges = true;
    if (header_.columns == 2) {
      chunk.edges.add(source, target);
      return;
    }
    if (real && !chunk.float_weights) chunk.switch_to_float();
    if (!real && chunk.float_weights) {
      int32_t integer;
      std::memcpy(&integer, &weight, sizeof integer);
      weight = text::weight_word(static_cast<float>(integer));
    }
    chunk.edges.add(source, target, weight);
  }

  VertexId vertex(std::string_view field) const {
    const uint64_t id = text::parse_count(field, "vertex id");
    if (id >= limit_) fail_vertex(field);
    return static_cast<VertexId>(id);
  }

  [[noreturn]] void fail_vertex(std::string_view field) const {
    std::string problem = "vertex id " + text::excerpt(field) + " out of range";
    if (limit_ > 0) problem += " 0.." + std::to_string(limit_ - 1);
    throw ParseError{field.data(), problem};
  }

  // The weight word of `field`: an int32, or (`real`) a float32 when the
  // field is not an integer.
  static uint32_t parse_weight(std::string_view field, bool& real) {
    int32_t integer;
    const text::NumberStatus status = text::parse_int32(field, integer);
    real = status == text::NumberStatus::malformed;
    if (status == text::NumberStatus::ok) return text::weight_word(integer);
    // An integer too large for int32 is an error even in a file of floats,
    // so that the outcome does not depend on how the file was split.
    if (!real) throw text::int32_error(field, "weight", status);
    return text::weight_word(text::parse_float32_field(field, "weight"));
  }

  [[noreturn]] void fail_column_count(const char* line, size_t count) const {
    if (count != 2 && count != 3) fail_columns(line, count);
    throw ParseError{line, "line has " + std::to_string(count) +
                               " columns, but the first edge line (line " +
                               std::to_string(line_of(header_.first_edge)) + ") has " +
                               std::to_string(header_.columns)};
  }

  uint64_t line_of(const char* at) const {
    return text::line_number_at(input_.data, at - input_.data.data());
  }

  const TextInput& input_;
  Header header_;
  uint64_t limit_;  // ids must be below this
};

// Warns when the ids leave most of the id space unused (see the top).
void warn_about_sparse_ids(const EdgeList& edges, uint64_t id_space, const Header& header) {
  if (id_space <= header.declared_vertices || id_space <= kSparseMinVertices) return;
  const uint64_t used = count_used_vertices(edges);
  if (id_space <= kSparseFactor * used) return;
  std::cerr << "irgl: warning: " << edges.name << ": vertex ids reach " << id_space - 1
            << ", but only " << used << " distinct ids occur: the graph gets " << id_space
            << " vertices, " << id_space - used
            << " of them without edges (--renumber numbers the used ids 0.." << used - 1
            << " and keeps the original ids)\n";
}

}  // namespace

EdgeList parse_edge_list(const TextInput& input, const EdgeListOptions& options) {
  text::reject_empty(input);
  text::reject_binary(input, "an edge list");
  const char* const begin = input.data.data();
  try {
    const Header header = parse_header(input, options);
    EdgeList edges;
    edges.name = input.name;
    edges.num_vertices = header.declared_vertices;
    if (!header.first_edge) return edges;

    EdgeChunk prototype;
    prototype.weighted = header.columns == 3;
    const EdgeLineParser parser(input, header);
    std::vector<EdgeChunk> chunks =
        text::parse_in_chunks(input, header.first_edge - begin, prototype,
                              [&](const char* first, const char* last, EdgeChunk& chunk) {
                                parser.parse(first, last, chunk);
                              });

    const bool float_weights = std::any_of(chunks.begin(), chunks.end(),
                                           [](const EdgeChunk& c) { return c.float_weights; });
    uint64_t id_space = 0;  // max id + 1
    for (EdgeChunk& chunk : chunks) {
      if (float_weights && !chunk.float_weights) chunk.switch_to_float();
      if (chunk.has_edges) id_space = std::max<uint64_t>(id_space, uint64_t(chunk.max_id) + 1);
    }
    // A SNAP "Nodes: N" comment is a lower bound: some published files
    // (roadNet-CA, web-Google) have ids at or above N.
    edges.num_vertices = std::max(edges.num_vertices, id_space);
    edges.weight_type = header.columns == 2 ? WeightType::none
                        : float_weights     ? WeightType::float32
                                            : WeightType::int32;
    text::gather_edges(chunks, edges);
    if (!options.renumbering) warn_about_sparse_ids(edges, id_space, header);
    return edges;
  } catch (const ParseError& error) {
    throw text::located(input, error);
  }
}

}  // namespace irgl
