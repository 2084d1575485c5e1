// MatrixMarket coordinate files:
//
//   %%MatrixMarket matrix coordinate {pattern|integer|real} {general|symmetric}
//   % comments
//   rows cols entries
//   i j [value]        (1-based, one entry per line)
//
// Entry (i, j) is the edge i -> j. Symmetric files store one triangle; the
// other is mirrored here.
#include <algorithm>
#include <cctype>

#include "formats.h"
#include "text_chunks.h"
#include "text_scanner.h"

namespace irgl {

namespace {

using text::LineFields;
using text::ParseError;

enum class Field : uint8_t { pattern, integer, real };

struct Banner {
  Field field = Field::pattern;
  bool symmetric = false;
};

struct Shape {
  uint64_t vertices = 0;
  uint64_t entries = 0;
  const char* line = nullptr;  // the size line, for errors about counts
};

std::string lowercase(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

constexpr const char* kBannerForm = "'%%MatrixMarket matrix coordinate <field> <symmetry>'";

// The banner, from the first line; the words after %%MatrixMarket are
// case-insensitive.
Banner parse_banner(const char* line, const char* end) {
  LineFields words;
  text::split_line(line, end, false, words);
  auto word = [&](size_t i) { return lowercase(words.field[i]); };
  auto fail = [&](size_t i, const std::string& problem) -> ParseError {
    return ParseError{words.field[i].data(), problem};
  };
  if (words.count == 0 || word(0) != "%%matrixmarket")
    throw ParseError{line,
                     std::string("missing MatrixMarket banner (expected ") + kBannerForm + ")"};
  if (words.count < 5)
    throw ParseError{line,
                     std::string("incomplete MatrixMarket banner (expected ") + kBannerForm + ")"};
  if (words.count > 5)
    throw fail(5, "unexpected " + text::quoted(words.field[5]) + " after the MatrixMarket banner");
  if (word(1) != "matrix")
    throw fail(1, "unsupported MatrixMarket object " + text::quoted(words.field[1]) +
                      " (expected 'matrix')");
  if (word(2) == "array")
    throw fail(2,
               "MatrixMarket 'array' (dense) format is not supported (graphs need 'coordinate')");
  if (word(2) != "coordinate")
    throw fail(2, "unknown MatrixMarket format " + text::quoted(words.field[2]) +
                      " (expected 'coordinate')");

  Banner banner;
  const std::string field = word(3);
  if (field == "pattern") {
    banner.field = Field::pattern;
  } else if (field == "integer") {
    banner.field = Field::integer;
  } else if (field == "real" || field == "double") {
    banner.field = Field::real;
  } else {
    const std::string kind = field == "complex" ? "unsupported" : "unknown";
    throw fail(3, kind + " MatrixMarket field " + text::quoted(words.field[3]) +
                      " (expected pattern, integer or real)");
  }
  const std::string symmetry = word(4);
  if (symmetry == "general" || symmetry == "symmetric") {
    banner.symmetric = symmetry == "symmetric";
  } else {
    const bool known = symmetry == "hermitian" || symmetry == "skew-symmetric";
    throw fail(4, std::string(known ? "unsupported" : "unknown") + " MatrixMarket symmetry " +
                      text::quoted(words.field[4]) + " (expected general or symmetric)");
  }
  return banner;
}

// The size line "rows cols entries", the first line after the banner that is
// neither blank nor a comment. Leaves `p` at the line after it.
Shape parse_size_line(const char*& p, const char* end) {
  for (;;) {
    const char* first = text::skip_blanks(p, end);
    if (first == end) throw ParseError{end, "missing size line 'rows columns entries'"};
    if (*first == '\n' || *first == '%') {
      p = text::next_line(first, end);
      continue;
    }
    LineFields size;
    text::split_line(first, end, false, size);
    if (size.count != 3)
      throw ParseError{first, "expected the size line 'rows columns entries', found " +
                                  text::plural(size.count, "field")};
    const uint64_t rows = text::parse_count(size.field[0], "row count");
    const uint64_t columns = text::parse_count(size.field[1], "column count");
    const uint64_t entries = text::parse_count(size.field[2], "entry count");
    if (rows != columns)
      throw ParseError{first, "matrix is " + text::excerpt(size.field[0]) + " x " +
                                  text::excerpt(size.field[1]) +
                                  ", not square: graphs need rows == cols"};
    if (rows > kMaxVertices)
      throw ParseError{first, "matrix has " + text::excerpt(size.field[0]) +
                                  " rows, more than the " + std::to_string(kMaxVertices) +
                                  " vertices a graph may have"};
    p = size.next;
    return Shape{rows, entries, first};
  }
}

// What each worker collects.
struct EntryChunk {
  text::EdgeBuffer edges;
  uint64_t entries = 0;
  bool weighted = false;
  bool symmetric = false;

  void reserve(uint64_t lines) { edges.reserve(symmetric ? 2 * lines : lines, weighted); }
};

class EntryParser {
 public:
  EntryParser(const Banner& banner, const Shape& shape)
      : banner_(banner),
        vertices_(shape.vertices),
        fields_(banner.field == Field::pattern ? 2 : 3) {}

  void parse(const char* p, const char* end, EntryChunk& chunk) const {
    text::for_each_data_line(
        p, end, [](char c) { return c == '%'; },
        [&](const char* line) { return parse_plain_line(line, end, chunk); },
        [&](const char* line) { return parse_line(line, end, chunk); });
  }

 private:
  // The fast path: a line of plain numbers. Returns the next line, or
  // nullptr to leave the line to parse_line().
  const char* parse_plain_line(const char* p, const char* end, EntryChunk& chunk) const {
    uint64_t row, column;
    if (!text::scan_unsigned(p, end, false, row) || !text::scan_unsigned(p, end, false, column) ||
        row - 1 >= vertices_ || column - 1 >= vertices_)
      return nullptr;
    uint32_t weight = 0;
    if (banner_.field == Field::integer) {
      int32_t value;
      if (!text::scan_int32(p, end, false, value)) return nullptr;
      weight = text::weight_word(value);
    } else if (banner_.field == Field::real) {
      std::string_view token;
      float value;
      if (!text::scan_token(p, end, false, token) ||
          text::parse_float32(token, value) != text::NumberStatus::ok)
        return nullptr;
      weight = text::weight_word(value);
    }
    if (!text::at_line_end(p, end)) return nullptr;
    add(chunk, static_cast<VertexId>(row - 1), static_cast<VertexId>(column - 1), weight);
    return text::after_line_end(p, end);
  }

  // The careful path: any line, valid or not. Returns the next line.
  const char* parse_line(const char* first, const char* end, EntryChunk& chunk) const {
    LineFields line;
    text::split_line(first, end, false, line);
    if (line.count != fields_) fail_field_count(first, line.count);
    const VertexId row = vertex(line.field[0]);
    const VertexId column = vertex(line.field[1]);
    add(chunk, row, column, banner_.field == Field::pattern ? 0 : value(line.field[2]));
    return line.next;
  }

  void add(EntryChunk& chunk, VertexId row, VertexId column, uint32_t weight) const {
    const bool mirror = banner_.symmetric && row != column;
    if (banner_.field == Field::pattern) {
      chunk.edges.add(row, column);
      if (mirror) chunk.edges.add(column, row);
    } else {
      chunk.edges.add(row, column, weight);
      if (mirror) chunk.edges.add(column, row, weight);
    }
    ++chunk.entries;
  }

  VertexId vertex(std::string_view field) const {
    const uint64_t id = text::parse_count(field, "vertex id");
    if (id - 1 >= vertices_)  // also catches 0
      throw ParseError{field.data(), "vertex id " + text::excerpt(field) + " out of range 1.." +
                                         std::to_string(vertices_) +
                                         " (MatrixMarket ids are 1-based)"};
    return static_cast<VertexId>(id - 1);
  }

  uint32_t value(std::string_view field) const {
    if (banner_.field == Field::integer)
      return text::weight_word(text::parse_int32_field(field, "value"));
    return text::weight_word(text::parse_float32_field(field, "real value"));
  }

  [[noreturn]] void fail_field_count(const char* line, size_t count) const {
    static constexpr const char* kForms[] = {"2 ('row column') for a pattern",
                                             "3 ('row column value') for an integer",
                                             "3 ('row column value') for a real"};
    throw ParseError{line, "entry has " + text::plural(count, "field") + ", expected " +
                               kForms[static_cast<int>(banner_.field)] + " matrix"};
  }

  Banner banner_;
  uint64_t vertices_;
  size_t fields_;
};

WeightType weight_type_of(Field field) {
  switch (field) {
    case Field::pattern:
      return WeightType::none;
    case Field::integer:
      return WeightType::int32;
    case Field::real:
      return WeightType::float32;
  }
  return WeightType::none;
}

}  // namespace

EdgeList parse_matrix_market(const TextInput& input) {
  text::reject_empty(input);
  text::reject_binary(input, "MatrixMarket text");
  const char* const begin = input.data.data();
  const char* const end = begin + input.data.size();
  try {
    const Banner banner = parse_banner(begin, end);
    const char* p = text::next_line(begin, end);
    const Shape shape = parse_size_line(p, end);

    EntryChunk prototype;
    prototype.weighted = banner.field != Field::pattern;
    prototype.symmetric = banner.symmetric;
    const EntryParser parser(banner, shape);
    std::vector<EntryChunk> chunks = text::parse_in_chunks(
        input, p - begin, prototype, [&](const char* first, const char* last, EntryChunk& chunk) {
          parser.parse(first, last, chunk);
        });

    uint64_t entries = 0;
    for (const EntryChunk& chunk : chunks) entries += chunk.entries;
    if (entries != shape.entries)
      throw ParseError{shape.line, "the size line declares " + std::to_string(shape.entries) +
                                       " entries, but the file has " + std::to_string(entries)};

    EdgeList edges;
    edges.name = input.name;
    edges.num_vertices = shape.vertices;
    edges.weight_type = weight_type_of(banner.field);
    edges.symmetric = banner.symmetric;
    text::gather_edges(chunks, edges);
    return edges;
  } catch (const ParseError& error) {
    throw text::located(input, error);
  }
}

}  // namespace irgl
