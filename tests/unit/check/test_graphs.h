// Small hand-made graphs for the checker's tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "irgl/graph/edge_list.h"

namespace irgl::testing {

struct TestEdge {
  VertexId from;
  VertexId to;
};

// A graph with `n` vertices and exactly these directed edges (adjacency lists
// sorted, nothing dropped); `weights` (one per edge, or empty) are int32 or
// float words as `type` says.
template <class Weight = int32_t>
CsrGraph make_graph(uint64_t n, const std::vector<TestEdge>& edges,
                    const std::vector<Weight>& weights = {}, bool transpose = false) {
  EdgeList list;
  list.name = "test-graph";
  list.num_vertices = n;
  for (const TestEdge& edge : edges) {
    list.sources.push_back(edge.from);
    list.targets.push_back(edge.to);
  }
  if (!weights.empty()) {
    list.weight_type = std::is_same_v<Weight, float> ? WeightType::float32 : WeightType::int32;
    for (Weight weight : weights) {
      uint32_t word;
      std::memcpy(&word, &weight, sizeof word);
      list.weights.push_back(word);
    }
  }
  BuildOptions options;
  options.transpose = transpose;
  return build_csr(std::move(list), options);
}

}  // namespace irgl::testing
