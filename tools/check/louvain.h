// irgl-check's reference for community detection: the modularity of a
// partition, and the sequential Louvain method it is measured against.
#pragma once

#include <cstdint>
#include <vector>

#include "irgl/graph/csr_graph.h"

namespace irgl::check {

// Modularity of the partition `labels` (any values; equal labels, one
// community) of a graph read as undirected: every edge u -> v joins u and
// v with its weight (1 when unweighted), so a pair given in both
// directions weighs their sum, and a self-loop counts twice in its
// vertex's weight (networkx's degree). With W the total weight over both
// directions,
//   Q = sum over communities c of in_c / W - resolution * (total_c / W)^2,
// in_c the weight of the edges with both ends in c (each direction), and
// total_c the weight of the edges at c's vertices. 0 when W is 0.
double modularity(const CsrGraph& graph, const std::vector<int64_t>& labels, double resolution);

// The Louvain method as networkx's louvain_communities runs it, but
// visiting vertices in id order instead of a random one: moves that gain
// modularity until none does, then communities merged into vertices, until
// a level gains at most `threshold` or `max_levels` levels ran (0: no
// limit). Returns a community per vertex.
std::vector<int64_t> reference_louvain(const CsrGraph& graph, double resolution,
                                       double threshold, uint64_t max_levels = 0);

}  // namespace irgl::check
