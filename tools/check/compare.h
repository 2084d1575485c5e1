// Comparing a program's result with the reference answer (docs/results.md
// states each rule). Every comparison returns a Verdict: pass or fail, the
// number of offending vertices, the first few of them as one line each
// ("vertex 17: expected 3, got 4"), and a one-line summary.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "irgl/graph/csr_graph.h"
#include "reference.h"

namespace irgl::check {

struct Verdict {
  bool passed = true;
  uint64_t mismatches = 0;         // offending vertices (or 1 for a scalar)
  std::vector<std::string> shown;  // the first max_shown of them, in vertex order
  std::string summary;             // "34 values match", "2 of 34 values differ", ...
};

// bfs, sssp, tc_per_vertex: the values must be equal (kUnreachable = inf
// on both sides). The source's line says "(the source)"; pass kNoVertex
// when there is none.
Verdict compare_distances(const std::vector<uint64_t>& expected,
                          const std::vector<uint64_t>& got, VertexId source,
                          uint64_t max_shown);

// cc: `got` labels must induce the same partition as the reference
// components: two vertices share a label iff they are connected. A vertex is
// reported when its label differs from that of the first vertex of its
// component (a split component) or when its label is also used in another
// component (merged components).
Verdict compare_partitions(const Components& expected, const std::vector<int64_t>& got,
                           uint64_t max_shown);

// kcore: got[v] (0 or 1) must be 1 exactly when core_number[v] >= k.
Verdict compare_membership(const std::vector<uint32_t>& core_number, uint64_t k,
                           const std::vector<uint64_t>& got, uint64_t max_shown);

// mis: got[v] is 1 for the members of a maximal independent set of the
// undirected view and 0 for the others: no two members are neighbours, and
// every other vertex has a member neighbour. (Any such set passes: there
// is no single right answer.)
Verdict check_independent_set(const UndirectedGraph& graph, const std::vector<uint64_t>& got,
                              uint64_t max_shown);

// coloring: got[v] is a colour (a non-negative integer) such that no two
// neighbours of the undirected view share one. (Any proper colouring
// passes; the summary counts the colours.)
Verdict check_coloring(const UndirectedGraph& graph, const std::vector<int64_t>& got,
                       uint64_t max_shown);

// tc and other scalar results: equal.
Verdict compare_count(uint64_t expected, uint64_t got);

// pr: passes when sum_v |got_v - expected_v| <= tolerance (which also bounds
// every single |got_v - expected_v|). Vertices off by more than the tolerance
// are reported; NaN never passes.
Verdict compare_pagerank(const std::vector<double>& expected, const std::vector<double>& got,
                         double tolerance, uint64_t max_shown);

// spmv: every |got_i - y_i| <= relative_tolerance * magnitude_i + kSpmvAbsoluteTolerance,
// where magnitude_i = sum_j |A_ij x_j|.
inline constexpr double kSpmvAbsoluteTolerance = 1e-6;
Verdict compare_spmv(const SpmvResult& expected, const std::vector<double>& got,
                     double relative_tolerance, uint64_t max_shown);

// bc, jaccard: every |got_v - expected_v| <= tolerance * max(1, |expected_v|)
// (relative, absolute below 1), and no got_v negative; NaN never passes.
Verdict compare_relative(const std::vector<double>& expected, const std::vector<double>& got,
                         double tolerance, uint64_t max_shown);

// louvain: passes when the result's modularity is at least the
// reference's less `tolerance` times its magnitude (a partition better
// than the reference's passes too).
Verdict compare_modularity(double expected, double got, double tolerance);

// A double in the shortest form that reads back exactly ("0.1", "1e-07",
// "inf"), for values.
std::string format_real(double value);

// A double to 4 significant digits ("0.0001", "2.125", "1.89e-12"), for
// errors and tolerances.
std::string format_error(double value);

}  // namespace irgl::check
