// Hand-made host graphs for the GPU tests, built with irgl::build_csr from
// explicit edge lists (no file loaders or generators involved).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "irgl/graph/csr_graph.h"
#include "irgl/graph/edge_list.h"

namespace irgl::testing {

// Random directed edges among vertices [0, n - isolated) (the last
// `isolated` vertices have no edges), plus a self-loop on vertex 0 and a
// repeated edge 1 -> 2. Weights of `weight_type`: int32 in [-100, 100] or
// float32 multiples of 0.25 in [-25, 25]. Deterministic for a seed.
inline EdgeList random_edges(const std::string& name, uint64_t n, uint64_t m,
                             WeightType weight_type, uint64_t seed, uint64_t isolated = 0) {
  EdgeList edges;
  edges.name = name;
  edges.num_vertices = n;
  edges.weight_type = weight_type;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<VertexId> vertex(0, static_cast<VertexId>(n - isolated - 1));
  std::uniform_int_distribution<int32_t> weight(-100, 100);
  auto add = [&](VertexId u, VertexId v) {
    edges.sources.push_back(u);
    edges.targets.push_back(v);
    if (weight_type == WeightType::none) return;
    const int32_t w = weight(random);
    uint32_t word;
    if (weight_type == WeightType::float32) {
      const float value = static_cast<float>(w) / 4;
      std::memcpy(&word, &value, sizeof word);
    } else {
      std::memcpy(&word, &w, sizeof word);
    }
    edges.weights.push_back(word);
  };
  add(0, 0);
  add(1, 2);
  add(1, 2);
  for (uint64_t e = 3; e < m; ++e) add(vertex(random), vertex(random));
  return edges;
}

inline CsrGraph random_graph(const std::string& name, uint64_t n, uint64_t m,
                             WeightType weight_type, bool transpose, uint64_t seed,
                             uint64_t isolated = 0) {
  BuildOptions options;
  options.transpose = transpose;
  return build_csr(random_edges(name, n, m, weight_type, seed, isolated), options);
}

}  // namespace irgl::testing
