// Second, deliberately plain implementations of bfs, sssp, cc and k-core,
// sharing no code with the checker's reference library (no BGL, no
// UndirectedGraph), to cross-check it on real graphs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>
#include <vector>

#include "irgl/graph/csr_graph.h"

namespace irgl::testing {

inline constexpr uint64_t kNotReached = UINT64_MAX;

// Breadth-first search with a FIFO queue over out-edges.
inline std::vector<uint64_t> queue_bfs(const CsrGraph& graph, VertexId source) {
  std::vector<uint64_t> level(graph.num_vertices(), kNotReached);
  std::vector<VertexId> queue = {source};
  level[source] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const VertexId u = queue[head];
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const VertexId v = graph.out_targets[e];
      if (level[v] != kNotReached) continue;
      level[v] = level[u] + 1;
      queue.push_back(v);
    }
  }
  return level;
}

// Dijkstra with a binary heap and lazy deletion; int32 weights >= 0.
inline std::vector<uint64_t> heap_dijkstra(const CsrGraph& graph, VertexId source) {
  std::vector<uint64_t> distance(graph.num_vertices(), kNotReached);
  using Entry = std::pair<uint64_t, VertexId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  distance[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != distance[u]) continue;
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const VertexId v = graph.out_targets[e];
      const uint64_t through_u = d + static_cast<uint64_t>(graph.out_weight<int32_t>(e));
      if (through_u < distance[v]) {
        distance[v] = through_u;
        heap.push({through_u, v});
      }
    }
  }
  return distance;
}

// Weak components by union-find (path halving, union by size) over the
// directed edges; each vertex is labelled with its set's root.
inline std::vector<int64_t> union_find_components(const CsrGraph& graph) {
  const uint64_t n = graph.num_vertices();
  std::vector<VertexId> parent(n);
  std::vector<uint64_t> size(n, 1);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](VertexId v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (uint64_t u = 0; u < n; ++u)
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      VertexId a = find(static_cast<VertexId>(u)), b = find(graph.out_targets[e]);
      if (a == b) continue;
      if (size[a] < size[b]) std::swap(a, b);
      parent[b] = a;
      size[a] += size[b];
    }
  std::vector<int64_t> label(n);
  for (uint64_t v = 0; v < n; ++v) label[v] = find(static_cast<VertexId>(v));
  return label;
}

// Core numbers by peeling a lazy min-heap of degrees in the simple undirected
// graph, built here from sorted, de-duplicated vertex pairs.
inline std::vector<uint32_t> peeling_core_numbers(const CsrGraph& graph) {
  const uint64_t n = graph.num_vertices();
  std::vector<std::pair<VertexId, VertexId>> pairs;
  for (uint64_t u = 0; u < n; ++u)
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const VertexId v = graph.out_targets[e];
      if (v != u) pairs.push_back(std::minmax(static_cast<VertexId>(u), v));
    }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::vector<std::vector<VertexId>> neighbors(n);
  for (const auto& [a, b] : pairs) {
    neighbors[a].push_back(b);
    neighbors[b].push_back(a);
  }
  std::vector<uint64_t> degree(n);
  using Entry = std::pair<uint64_t, VertexId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  for (uint64_t v = 0; v < n; ++v) {
    degree[v] = neighbors[v].size();
    heap.push({degree[v], static_cast<VertexId>(v)});
  }
  std::vector<uint32_t> core(n, 0);
  std::vector<bool> removed(n, false);
  uint64_t k = 0;
  while (!heap.empty()) {
    const auto [d, v] = heap.top();
    heap.pop();
    if (removed[v] || d != degree[v]) continue;
    k = std::max(k, d);
    core[v] = static_cast<uint32_t>(k);
    removed[v] = true;
    for (VertexId u : neighbors[v])
      if (!removed[u]) heap.push({--degree[u], u});
  }
  return core;
}

}  // namespace irgl::testing
