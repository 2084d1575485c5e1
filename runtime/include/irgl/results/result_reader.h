// Reading and validating result files (format: result_format.h,
// docs/results.md).
//
//   ResultFile result = read_result_file("out.txt", "bfs");
//   result.check_vertex_count(graph.num_vertices());
//   const std::vector<uint64_t>& level = result.unsigned_values;
//
// Every problem is an InputError naming the file and line, e.g.
//   out.txt:2: error: result is for algorithm 'sssp', expected 'bfs'
//   out.txt:17: error: bfs value '3.5' is not an unsigned integer or 'inf'
//   out.txt:40: error: file ends after 35 of 38 values
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "irgl/results/result_format.h"

namespace irgl {

// A header field as read, with its line for messages.
struct ResultHeaderField {
  std::string key;
  std::string value;
  uint64_t line = 0;
};

struct ResultFile {
  std::string path;
  const ResultFormat* format = nullptr;
  uint64_t num_vertices = 0;
  // Fields other than "algorithm" and "vertices", in file order.
  std::vector<ResultHeaderField> fields;

  // The values, in the vector that suits format->syntax (the others stay
  // empty): distance (inf = kInfiniteDistance), count and membership values in
  // unsigned_values, labels in signed_values, reals in real_values.
  std::vector<uint64_t> unsigned_values;
  std::vector<int64_t> signed_values;
  std::vector<double> real_values;

  // The header field `key`, or nullptr.
  const ResultHeaderField* field(std::string_view key) const;
  // The field `key` as an unsigned integer, or nothing when absent; throws
  // InputError at the field's line when it is not one.
  std::optional<uint64_t> unsigned_field(std::string_view key) const;

  // Throws InputError at the "# vertices" line unless the file is for a graph
  // with `graph_vertices` vertices.
  void check_vertex_count(uint64_t graph_vertices) const;

  // The file line holding value `index` (for messages about values).
  uint64_t line_of_value(uint64_t index) const { return first_value_line + index; }

  uint64_t first_value_line = 0;
  uint64_t vertices_line = 0;
};

// Reads and validates the result file at `path`, which must be a result of
// `algorithm` (one of known_result_formats(); anything else is a bug in the
// caller: std::invalid_argument). Checks the header, the number of value lines
// (|V| or one), the syntax of every value, and that nothing follows the last
// value. Reads large files in constant extra memory besides the values.
ResultFile read_result_file(const std::string& path, std::string_view algorithm);

}  // namespace irgl
