// build_part_view(): every policy and part count on generated weighted
// graphs. The parts' out-edges, together, are the graph's (weights
// included), each in the part its policy names; masters' in-edges are whole;
// every vertex a part's edges touch is a master there or a mirror listed
// under its owner; global degrees are the graph's.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "graph_test_util.h"
#include "irgl/graph/generators.h"
#include "irgl/graph/part_view.h"
#include "irgl/support/error.h"

namespace irgl::testing {
namespace {

CsrGraph weighted(const std::string& spec) {
  CsrGraph graph = hash_weighted_graph(spec);
  graph.build_transpose();
  return graph;
}

void expect_parts(const CsrGraph& graph, PartitionPolicy policy, unsigned parts) {
  SCOPED_TRACE(graph.name + ", " + to_string(policy) + ", " + std::to_string(parts) + " parts");
  const MasterBlocks masters = balanced_master_blocks(graph, parts);
  const PartGrid grid = part_grid(parts);
  std::vector<EdgeWord> all;
  for (unsigned p = 0; p < parts; ++p) {
    const PartView view = build_part_view(graph, {policy, parts, p, true, true});
    CsrGraph out_only = view.graph;  // its in-edges are no transpose of its out-edges
    out_only.drop_transpose();
    ASSERT_NO_THROW(out_only.validate());
    ASSERT_EQ(view.graph.num_vertices(), graph.num_vertices());
    EXPECT_EQ(view.first_master, masters.first[p]);
    EXPECT_EQ(view.end_master, masters.first[p + 1]);
    for (const EdgeWord& edge : edge_words_of(view.graph)) {
      EXPECT_EQ(edge_part(policy, masters, grid, std::get<0>(edge), std::get<1>(edge)), p);
      all.push_back(edge);
    }
    // In-edges: whole at masters, none elsewhere.
    for (VertexId v = 0; v < graph.num_vertices(); ++v) {
      const bool master = v >= view.first_master && v < view.end_master;
      ASSERT_EQ(view.graph.in_degree(v), master ? graph.in_degree(v) : 0) << "vertex " << v;
      for (uint64_t i = 0; master && i < graph.in_degree(v); ++i) {
        EXPECT_EQ(view.graph.in_sources[view.graph.in_offsets[v] + i],
                  graph.in_sources[graph.in_offsets[v] + i]);
        EXPECT_EQ(view.graph.in_weights[view.graph.in_offsets[v] + i],
                  graph.in_weights[graph.in_offsets[v] + i]);
      }
      EXPECT_EQ(view.out_degrees[v], graph.out_degree(v));
    }
    // Mirrors: exactly the touched vertices of other parts, under their owner.
    std::vector<VertexId> touched;
    for (const EdgeWord& edge : edge_words_of(view.graph))
      touched.insert(touched.end(), {std::get<0>(edge), std::get<1>(edge)});
    touched.insert(touched.end(), view.graph.in_sources.begin(), view.graph.in_sources.end());
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    touched.erase(std::remove_if(touched.begin(), touched.end(),
                                 [&](VertexId v) {
                                   return v >= view.first_master && v < view.end_master;
                                 }),
                  touched.end());
    std::vector<VertexId> listed;
    ASSERT_EQ(view.mirrors.size(), parts);
    EXPECT_TRUE(view.mirrors[p].empty());
    for (unsigned q = 0; q < parts; ++q) {
      EXPECT_TRUE(std::is_sorted(view.mirrors[q].begin(), view.mirrors[q].end()));
      for (const VertexId v : view.mirrors[q]) EXPECT_EQ(masters.owner(v), q);
      listed.insert(listed.end(), view.mirrors[q].begin(), view.mirrors[q].end());
    }
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, touched);
    EXPECT_EQ(view.mirror_count(), touched.size());
  }
  std::vector<EdgeWord> expected = edge_words_of(graph);
  std::sort(expected.begin(), expected.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, expected);
}

TEST(PartView, EveryPolicyAndPartCountCoversTheGraph) {
  for (const char* spec : {"rmat:scale=9,edge-factor=8,seed=3", "grid:rows=17,cols=13",
                           "uniform:vertices=300,edges=2000,seed=5"}) {
    const CsrGraph graph = weighted(spec);
    for (PartitionPolicy policy : {PartitionPolicy::outgoing_edge_cut,
                                   PartitionPolicy::incoming_edge_cut,
                                   PartitionPolicy::cartesian_vertex_cut})
      for (unsigned parts : {1u, 2u, 3u, 4u, 6u})
        expect_parts(graph, policy, parts);
  }
}

TEST(PartView, OnePartHoldsTheWholeGraphAndNoMirror) {
  const CsrGraph graph = weighted("rmat:scale=8,edge-factor=4,seed=1");
  const PartView view = build_part_view(graph, {PartitionPolicy::cartesian_vertex_cut, 1, 0});
  EXPECT_EQ(view.graph.out_offsets, graph.out_offsets);
  EXPECT_EQ(view.graph.out_targets, graph.out_targets);
  EXPECT_EQ(view.mirror_count(), 0u);
  EXPECT_FALSE(view.graph.has_transpose());
  EXPECT_TRUE(view.out_degrees.empty());
}

TEST(PartView, RefusesPartCountsThatLeaveAPartWithoutVertices) {
  const CsrGraph graph = weighted("grid:rows=2,cols=2");
  EXPECT_THROW(build_part_view(graph, {PartitionPolicy::outgoing_edge_cut, 5, 0}), InputError);
  EXPECT_THROW(build_part_view(graph, {PartitionPolicy::outgoing_edge_cut, 0, 0}), InputError);
  EXPECT_THROW(build_part_view(graph, {PartitionPolicy::outgoing_edge_cut, 2, 2}), InputError);
}

}  // namespace
}  // namespace irgl::testing
