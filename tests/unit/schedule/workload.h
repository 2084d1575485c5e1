// Frontiers with chosen degree mixes for the schedule simulations: the
// degrees of a graph's vertices, which of them pass pre(), and the frontier
// (the vertices a loop iterates over, in order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "irgl/graph/csr_graph.h"

namespace irgl::gpu::schedule::sim {

struct Workload {
  std::string name;
  std::vector<uint64_t> degree;      // per vertex
  std::vector<uint64_t> edge_begin;  // per vertex: CSR offset of its first edge
  std::vector<uint8_t> active;       // per vertex: what pre() returns
  std::vector<VertexId> frontier;    // the tiles: frontier[i] is item i's vertex

  uint64_t vertices() const { return degree.size(); }
  uint64_t items() const { return frontier.size(); }
  uint64_t edge_end(VertexId v) const { return edge_begin[v] + degree[v]; }
  // Total edges of the graph (the edge-id space, inactive vertices included).
  uint64_t graph_edges() const;
  // Edges the schedule must process: those of active frontier vertices.
  uint64_t active_edges() const;
  // The largest degree of any vertex (Body::max_degree()).
  uint64_t max_degree() const;
};

// A workload over `degrees` whose frontier is every vertex in order (a
// topology-driven loop). With `inactive_every` = k > 0, every k-th vertex
// fails pre() (a guard), so its edges must not be processed.
Workload make_workload(std::string name, std::vector<uint64_t> degrees,
                       uint64_t inactive_every = 0);

// The same graph with a data-driven frontier: `count` distinct vertices in a
// shuffled order (fixed seed), so item i and vertex frontier[i] differ.
Workload with_shuffled_frontier(Workload work, uint64_t count, uint64_t seed);

// The degree mixes the tests run every schedule on (names say which).
namespace mixes {
Workload empty_frontier();
Workload all_tiles_empty(uint64_t tiles);
Workload one_huge(uint64_t tiles, uint64_t huge_degree);
Workload power_law(uint64_t tiles, uint64_t max_degree, uint64_t seed);
Workload uniform(uint64_t tiles, uint64_t degree);
// Degrees on each side of the TWC bins (31, 32, B - 1, B) and of ALB's
// threshold (threshold, threshold + 1), interleaved with 0s and 1s.
Workload bin_boundaries(uint32_t block_threads, uint64_t threshold);
// Degrees whose total is prime, hence not a multiple of any thread count.
Workload prime_total(uint64_t tiles);
}  // namespace mixes

// Every mix above with the given sizes, each also with guards
// (inactive_every = 3), for parameterised sweeps.
std::vector<Workload> standard_mixes(uint32_t block_threads, uint64_t threshold);

}  // namespace irgl::gpu::schedule::sim
