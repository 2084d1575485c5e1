// The result file format: what a graph program computed, one file per run,
// read back by the result checker (irgl-check). Full description with
// examples: docs/results.md.
//
//   # irgl-result 1          first line, always
//   # algorithm bfs          which algorithm produced the values
//   # vertices 34            |V| of the graph the program ran on
//   # source 0               any further "# KEY VALUE" fields (source, k, ...)
//   0                        vertex 0's value: the first line without '#'
//   1                        vertex 1's value
//   inf                      ...
//
// Per-vertex results have exactly |V| value lines, vertex i on data line i;
// scalar results (triangle count) have exactly one. The syntax of a value
// depends on the algorithm (see ValueSyntax and known_result_formats()).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace irgl {

// The first line of every result file.
inline constexpr std::string_view kResultMagic = "# irgl-result 1";
// The word written (and read) for an unreachable vertex / infinite value.
inline constexpr std::string_view kInfinityWord = "inf";
// How an infinite distance is held in memory after reading.
inline constexpr uint64_t kInfiniteDistance = UINT64_MAX;

enum class ResultShape : uint8_t {
  per_vertex,  // one value per vertex
  scalar,      // one value for the whole graph
};

enum class ValueSyntax : uint8_t {
  distance,    // unsigned 64-bit decimal integer, or "inf" (unreachable)
  count,       // unsigned 64-bit decimal integer
  label,       // signed 64-bit decimal integer
  membership,  // "0" or "1"
  real,        // decimal floating point ("0.25", "1e-07", "inf", "nan")
};

// The format of one algorithm's result file.
struct ResultFormat {
  std::string_view algorithm;  // "bfs", ...
  ResultShape shape;
  ValueSyntax syntax;
  std::string_view meaning;  // what a value is, for messages and --help
  // Labels: what the vertices sharing a label form, for summaries.
  std::string_view label_group = "component";
};

// The algorithms whose result files are defined: bfs, sssp, cc, pr, kcore,
// tc, scc, mis, coloring, spmv, bc, jaccard, louvain, and "vector" (a plain
// per-vertex vector of reals, e.g. an spmv input x).
const std::vector<ResultFormat>& known_result_formats();

// The format for `algorithm`, or nullptr when it is not a known algorithm.
const ResultFormat* find_result_format(std::string_view algorithm);

// "bfs, sssp, cc, ..." for messages.
std::string known_algorithm_names();

// A "# KEY VALUE" header line. Keys are [a-z][a-z0-9_-]*; values are
// non-empty and contain no line break.
struct ResultField {
  std::string key;
  std::string value;
};

// True when `key` may be used as a header field name.
bool is_valid_field_key(std::string_view key);

}  // namespace irgl
