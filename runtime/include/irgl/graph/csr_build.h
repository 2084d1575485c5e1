// Parallel building blocks for CSR construction, shared by build_csr(), the
// transpose, the generators and the binary reader.
#pragma once

#include <cstdint>
#include <vector>

#include "irgl/graph/csr_graph.h"

namespace irgl {

// counts[v] = number of times v occurs in ids (v < n). Parallel; advances the
// current progress phase of a load by the ids counted.
std::vector<uint64_t> count_occurrences(const std::vector<VertexId>& ids, uint64_t n);

// Exclusive prefix sum with a trailing total: n counts -> n+1 offsets. Parallel.
std::vector<uint64_t> count_to_offsets(const std::vector<uint64_t>& counts);

// Sorts every list offsets[v]..offsets[v+1] of `neighbors` by neighbor id,
// ties by weight (numeric order of `type`), carrying `weights` along when not
// null. Deterministic. Parallel over vertices, balanced by edge count.
void sort_adjacency_lists(const std::vector<uint64_t>& offsets,
                          std::vector<VertexId>& neighbors,
                          std::vector<uint32_t>* weights, WeightType type);

// Removes repeated neighbors from sorted lists, keeping the first (smallest
// weight); rewrites offsets. Returns the number of edges removed.
uint64_t remove_duplicate_neighbors(std::vector<uint64_t>& offsets,
                                    std::vector<VertexId>& neighbors,
                                    std::vector<uint32_t>* weights);

// Key that orders 32-bit weight words numerically for `type` when compared as
// unsigned integers.
uint32_t weight_order_key(uint32_t word, WeightType type);

}  // namespace irgl
