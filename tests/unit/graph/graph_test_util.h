// Small helpers shared by the graph unit tests: edge lists written inline,
// adjacency lists read back, and scratch directories.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "input_error.h"
#include "scratch_dir.h"
#include "irgl/graph/csr_build.h"
#include "irgl/graph/csr_graph.h"
#include "irgl/graph/edge_list.h"
#include "irgl/graph/generators.h"
#include "irgl/support/error.h"

namespace irgl::testing {

using Edge = std::pair<VertexId, VertexId>;
using WeightedEdge = std::tuple<VertexId, VertexId, int32_t>;
using FloatEdge = std::tuple<VertexId, VertexId, float>;

inline uint32_t word_of(int32_t value) {
  uint32_t word;
  std::memcpy(&word, &value, 4);
  return word;
}
inline uint32_t word_of(float value) {
  uint32_t word;
  std::memcpy(&word, &value, 4);
  return word;
}

inline EdgeList edge_list(uint64_t n, const std::vector<Edge>& edges) {
  EdgeList list;
  list.name = "test";
  list.num_vertices = n;
  for (auto [u, v] : edges) {
    list.sources.push_back(u);
    list.targets.push_back(v);
  }
  return list;
}

template <class Weight>
EdgeList weighted_edge_list(uint64_t n,
                            const std::vector<std::tuple<VertexId, VertexId, Weight>>& edges) {
  EdgeList list = edge_list(n, {});
  list.weight_type = std::is_same_v<Weight, float> ? WeightType::float32 : WeightType::int32;
  for (auto [u, v, w] : edges) {
    list.sources.push_back(u);
    list.targets.push_back(v);
    list.weights.push_back(word_of(w));
  }
  return list;
}

// The out-neighbors of every vertex, in stored order.
inline std::vector<std::vector<VertexId>> out_lists(const CsrGraph& graph) {
  std::vector<std::vector<VertexId>> lists(graph.num_vertices());
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e)
      lists[v].push_back(graph.out_targets[e]);
  return lists;
}

// The in-neighbors of every vertex from the transpose, in stored order.
inline std::vector<std::vector<VertexId>> in_lists(const CsrGraph& graph) {
  std::vector<std::vector<VertexId>> lists(graph.num_vertices());
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    for (uint64_t e = graph.in_offsets[v]; e < graph.in_offsets[v + 1]; ++e)
      lists[v].push_back(graph.in_sources[e]);
  return lists;
}

// Out-edges with their weights read as T.
template <class T>
std::vector<std::vector<std::pair<VertexId, T>>> weighted_out_lists(const CsrGraph& graph) {
  std::vector<std::vector<std::pair<VertexId, T>>> lists(graph.num_vertices());
  for (VertexId v = 0; v < graph.num_vertices(); ++v)
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e)
      lists[v].emplace_back(graph.out_targets[e], graph.out_weight<T>(e));
  return lists;
}

// Every field of two graphs (except the name) is equal.
inline void expect_same_graph(const CsrGraph& a, const CsrGraph& b) {
  EXPECT_EQ(a.num_vertices(), b.num_vertices());
  EXPECT_EQ(a.weight_type, b.weight_type);
  EXPECT_EQ(a.symmetric, b.symmetric);
  EXPECT_EQ(a.sorted, b.sorted);
  EXPECT_EQ(a.out_offsets, b.out_offsets);
  EXPECT_EQ(a.out_targets, b.out_targets);
  EXPECT_EQ(a.out_weights, b.out_weights);
  EXPECT_EQ(a.in_offsets, b.in_offsets);
  EXPECT_EQ(a.in_sources, b.in_sources);
  EXPECT_EQ(a.in_weights, b.in_weights);
  EXPECT_EQ(a.original_ids, b.original_ids);
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The graph a generator spec describes, with hashed integer weights, named
// after the spec.
inline CsrGraph hash_weighted_graph(const std::string& spec) {
  BuildOptions options;
  options.weights.source = WeightRule::Source::hash;
  CsrGraph graph = build_csr(generate_from_spec(spec, false), options);
  graph.name = spec;
  return graph;
}

// Every out-edge as (source, target, weight word, 0 without weights), in
// CSR order.
using EdgeWord = std::tuple<VertexId, VertexId, uint32_t>;
inline std::vector<EdgeWord> edge_words_of(const CsrGraph& graph) {
  std::vector<EdgeWord> edges;
  for (VertexId u = 0; u < graph.num_vertices(); ++u)
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e)
      edges.emplace_back(u, graph.out_targets[e], graph.has_weights() ? graph.out_weights[e] : 0);
  return edges;
}

}  // namespace irgl::testing
