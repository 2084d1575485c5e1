// Graph statistics, as in the input tables of graph-analytics papers (e.g. the
// ALB paper's Table 2): sizes, out- and in-degree distributions, weakly
// connected components and a lower bound on the diameter.
//
//   GraphStats stats = compute_stats(graph);
//   print_stats_text(std::cout, stats);
//
// Everything runs in parallel and leaves the graph untouched; in-degrees are
// counted from the targets, so no transpose is needed.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "irgl/graph/csr_graph.h"

namespace irgl {

struct DegreeStats {
  uint64_t min = 0;
  uint64_t max = 0;
  VertexId max_vertex = kNoVertex;  // the smallest id of degree `max`
  double average = 0;
  uint64_t zero = 0;  // vertices of degree 0
  // The share of the edges on the 1% of vertices of largest degree
  // (kHubVertexFraction): how much of the graph its hubs hold.
  double hub_share = 0;
  // log2_histogram[0] counts vertices of degree 0, log2_histogram[k] those of
  // degree in [2^(k-1), 2^k). Ends at the last non-empty bucket.
  std::vector<uint64_t> log2_histogram;
};

// The fraction of the vertices, those of largest degree, whose share of the
// edges DegreeStats::hub_share is.
inline constexpr double kHubVertexFraction = 0.01;

// The degrees of a graph's vertices, added one at a time, for the share
// of the edges its vertices of largest degree hold, exactly: degrees below
// a cap counted per degree, the few above it (at most edges / cap) kept.
class TopDegrees {
 public:
  void add(uint64_t degree) {
    if (degree < kCap) ++count_of_[degree];
    else above_cap_.push_back(degree);
  }
  // Adds the degrees `other` holds (a parallel pass's partial counts).
  void merge(const TopDegrees& other);
  // The share of `edges` on the `fraction` of the `vertices` (at least one)
  // of largest degree; 0 without edges. The web graphs' 1% hold 0.05-0.35
  // of their edges, RMAT 16-22's 0.37-0.58 (docs/schedules.md).
  double share(uint64_t vertices, uint64_t edges, double fraction);

 private:
  static constexpr uint64_t kCap = 4096;
  std::vector<uint64_t> count_of_ = std::vector<uint64_t>(kCap, 0);
  std::vector<uint64_t> above_cap_;
};

// The histogram bucket of a degree: 0 for 0, else floor(log2(degree)) + 1.
unsigned log2_bucket(uint64_t degree);

// Weakly connected components (edge directions ignored); an isolated vertex
// is a component of its own.
struct Components {
  uint64_t count = 0;
  uint64_t largest_size = 0;     // vertices in the largest component
  VertexId largest = kNoVertex;  // its smallest vertex id (ties: smallest)
  std::vector<VertexId> label;   // per vertex: the smallest id in its component
};

Components weakly_connected_components(const CsrGraph& graph);

// A lower bound on the hop diameter of the component of `start` (a vertex of
// the graph), ignoring edge directions: BFS from `start`, then BFS again from the farthest vertex
// found (smallest id among the farthest), repeated while the distance grows,
// at most `max_sweeps` BFS runs in all.
struct DiameterBound {
  uint64_t lower_bound = 0;
  unsigned sweeps = 0;        // BFS runs made
  VertexId from = kNoVertex;  // endpoints of a shortest path that long
  VertexId to = kNoVertex;
};

DiameterBound approximate_diameter(const CsrGraph& graph, VertexId start, unsigned max_sweeps = 8);

struct StatsOptions {
  bool diameter = true;  // run the BFS sweeps (the most expensive part)
  unsigned max_sweeps = 8;
};

struct GraphStats {
  std::string name;
  uint64_t vertices = 0;
  uint64_t edges = 0;
  uint64_t self_loops = 0;
  WeightType weight_type = WeightType::none;
  bool symmetric = false;
  bool sorted = false;
  bool has_transpose = false;
  uint64_t memory_bytes = 0;  // of the CSR arrays (offsets, ids, weights)
  DegreeStats out_degree;
  DegreeStats in_degree;
  uint64_t components = 0;
  uint64_t largest_component = 0;
  // Set when options.diameter was on and the graph has vertices: a lower
  // bound on the hop diameter of the largest weakly connected component,
  // starting the sweeps from its vertex of highest total degree.
  bool has_diameter = false;
  DiameterBound diameter;
};

GraphStats compute_stats(const CsrGraph& graph, const StatsOptions& options = {});

// A human-readable report, one "key: value" per line, then the histograms.
void print_stats_text(std::ostream& out, const GraphStats& stats);
// One JSON object on one line (no trailing newline); "diameter" is null
// without one. Bytes of the name that are not UTF-8 become U+FFFD.
void print_stats_json(std::ostream& out, const GraphStats& stats);
// A JSON array of the objects above, one per line, and a newline.
void print_stats_json(std::ostream& out, const std::vector<GraphStats>& all);

}  // namespace irgl
