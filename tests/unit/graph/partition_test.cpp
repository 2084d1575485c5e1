// partition_graph(): every policy and part count on generated and small
// graphs. Each vertex has exactly one master, in the part that owns its
// block; each part's local graph is valid, its ids map back to global ids
// with masters first; the parts' edges, mapped back, are the graph's edges
// (weights included), each in the part its policy names.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <tuple>
#include <vector>

#include "graph_test_util.h"
#include "irgl/graph/generators.h"
#include "irgl/graph/partition.h"

namespace irgl::testing {
namespace {

using GlobalEdge = EdgeWord;


std::vector<GlobalEdge> edges_of(const CsrGraph& graph) {
  std::vector<GlobalEdge> edges = edge_words_of(graph);
  std::sort(edges.begin(), edges.end());
  return edges;
}

// Whether edge (u, v) belongs in part p, by the policies' definitions.
bool belongs(PartitionPolicy policy, const MasterBlocks& masters, const PartGrid& grid,
             unsigned p, VertexId u, VertexId v) {
  switch (policy) {
    case PartitionPolicy::outgoing_edge_cut: return masters.owner(u) == p;
    case PartitionPolicy::incoming_edge_cut: return masters.owner(v) == p;
    case PartitionPolicy::cartesian_vertex_cut:  // source's row, destination's column
      return p / grid.columns == masters.owner(u) / grid.columns &&
             p % grid.columns == masters.owner(v) % grid.columns;
  }
  return false;
}

// Partitions `graph` and checks every invariant of the parts against it.
void expect_partition_of(const CsrGraph& graph, PartitionPolicy policy, unsigned count) {
  SCOPED_TRACE(graph.name + ", " + to_string(policy) + ", " + std::to_string(count) + " parts");
  const std::vector<GraphPart> parts = partition_graph(graph, policy, count);
  ASSERT_EQ(parts.size(), count);
  const MasterBlocks masters = balanced_master_blocks(graph, count);
  const PartGrid grid = part_grid(count);
  std::vector<unsigned> masters_seen(graph.num_vertices(), 0);
  std::vector<GlobalEdge> edges;
  uint64_t misplaced = 0, bad_owner = 0, masters_out_of_order = 0;
  for (const GraphPart& part : parts) {
    EXPECT_NO_THROW(part.graph.validate());
    ASSERT_EQ(part.graph.num_vertices(), part.global_ids.size());
    ASSERT_EQ(part.owner.size(), part.global_ids.size());
    EXPECT_EQ(part.masters, masters.first[part.id + 1] - masters.first[part.id]);
    EXPECT_GT(part.masters, 0u);
    for (VertexId local = 0; local < part.global_ids.size(); ++local) {
      const VertexId global = part.global_ids[local];
      bad_owner += part.owner[local] != masters.owner(global);
      if (local < part.masters) {
        ++masters_seen[global];
        masters_out_of_order += global != masters.first[part.id] + local;
      } else {
        bad_owner += part.owner[local] == part.id;  // a mirror's master is elsewhere
      }
    }
    EXPECT_TRUE(std::is_sorted(part.global_ids.begin() + part.masters, part.global_ids.end()));
    for (const auto& [u, v, w] : edges_of(part.graph)) {
      const VertexId gu = part.global_ids[u], gv = part.global_ids[v];
      edges.emplace_back(gu, gv, w);
      misplaced += !belongs(policy, masters, grid, part.id, gu, gv);
    }
  }
  EXPECT_EQ(misplaced, 0u);
  EXPECT_EQ(bad_owner, 0u);
  EXPECT_EQ(masters_out_of_order, 0u);
  EXPECT_EQ(std::count(masters_seen.begin(), masters_seen.end(), 1u),
            static_cast<long>(graph.num_vertices()));
  std::sort(edges.begin(), edges.end());
  EXPECT_EQ(edges, edges_of(graph));

  const PartitionStats stats = partition_stats(graph, policy, parts);
  uint64_t proxies = 0;
  for (const GraphPart& part : parts) proxies += part.global_ids.size();
  EXPECT_DOUBLE_EQ(stats.replication_factor, double(proxies) / graph.num_vertices());
  EXPECT_GE(stats.edge_imbalance, 1.0);
}

TEST(Partition, EveryPolicyAndPartCountKeepsEveryEdgeOnce) {
  for (const std::string spec :
       {"rmat:scale=10,edge-factor=8", "grid:17x23", "uniform:vertices=300,edges=2000"}) {
    const CsrGraph graph = hash_weighted_graph(spec);
    for (PartitionPolicy policy : {PartitionPolicy::outgoing_edge_cut,
                                   PartitionPolicy::incoming_edge_cut,
                                   PartitionPolicy::cartesian_vertex_cut})
      for (unsigned parts : {1u, 2u, 3u, 4u, 6u, 9u}) expect_partition_of(graph, policy, parts);
  }
}

TEST(Partition, EdgeCutsPutAnEdgeWithItsSourceOrDestination) {
  CsrGraph graph = build_csr(edge_list(4, {{0, 3}, {3, 0}, {1, 2}, {2, 1}, {0, 1}}), {});
  graph.name = "four";
  const MasterBlocks masters = balanced_master_blocks(graph, 2);
  ASSERT_EQ(masters.first, (std::vector<VertexId>{0, 2, 4}));
  const std::vector<GraphPart> out =
      partition_graph(graph, PartitionPolicy::outgoing_edge_cut, 2);
  // Part 0 holds 0's and 1's out-edges: 0->3, 0->1, 1->2; mirrors 2 and 3.
  EXPECT_EQ(out[0].graph.num_edges(), 3u);
  EXPECT_EQ(out[0].global_ids, (std::vector<VertexId>{0, 1, 2, 3}));
  EXPECT_EQ(out[0].owner, (std::vector<unsigned>{0, 0, 1, 1}));
  const std::vector<GraphPart> in =
      partition_graph(graph, PartitionPolicy::incoming_edge_cut, 2);
  // Part 0 holds the edges into 0 and 1: 3->0, 2->1, 0->1.
  EXPECT_EQ(in[0].graph.num_edges(), 3u);
  EXPECT_EQ(in[1].graph.num_edges(), 2u);
}

TEST(Partition, OnePartHasNoMirrors) {
  const CsrGraph graph = hash_weighted_graph("grid:5x5");
  const std::vector<GraphPart> parts =
      partition_graph(graph, PartitionPolicy::cartesian_vertex_cut, 1);
  const PartitionStats stats = partition_stats(graph, PartitionPolicy::cartesian_vertex_cut, parts);
  EXPECT_EQ(stats.mirrors, (std::vector<uint64_t>{0}));
  EXPECT_DOUBLE_EQ(stats.replication_factor, 1.0);
  EXPECT_EQ(edges_of(parts[0].graph), edges_of(graph));
}

TEST(Partition, TheCartesianGridIsAsSquareAsThePartsAllow) {
  EXPECT_EQ(part_grid(4).rows, 2u);
  EXPECT_EQ(part_grid(4).columns, 2u);
  EXPECT_EQ(part_grid(6).rows, 2u);
  EXPECT_EQ(part_grid(6).columns, 3u);
  EXPECT_EQ(part_grid(7).rows, 1u);
  EXPECT_EQ(part_grid(16).rows, 4u);
}

TEST(Partition, MasterBlocksBalanceVerticesAndEdges) {
  // A hub: vertex 0 has 99 out-edges, the others one each.
  std::vector<Edge> edges;
  for (VertexId v = 1; v < 100; ++v) edges.push_back({0, v});
  for (VertexId v = 1; v < 100; ++v) edges.push_back({v, 0});
  const CsrGraph graph = build_csr(edge_list(100, edges), {});
  const MasterBlocks blocks = balanced_master_blocks(graph, 2);
  // Weight 100 + 99 x 2 = 298: the hub (100) and about 24 more (2 each).
  EXPECT_GE(blocks.first[1], 20u);
  EXPECT_LE(blocks.first[1], 30u);
  // Many parts still give every part a vertex.
  const MasterBlocks many = balanced_master_blocks(graph, 100);
  for (unsigned p = 0; p < 100; ++p) EXPECT_EQ(many.first[p + 1] - many.first[p], 1u);
}

TEST(Partition, RejectsZeroPartsAndMorePartsThanVertices) {
  const CsrGraph graph = build_csr(edge_list(3, {{0, 1}, {1, 2}}), {});
  EXPECT_EQ(input_error_of([&] { partition_graph(graph, PartitionPolicy::outgoing_edge_cut, 0); }),
            "--parts: error: the number of parts must be at least 1");
  EXPECT_EQ(input_error_of([&] { partition_graph(graph, PartitionPolicy::outgoing_edge_cut, 4); }),
            "--parts: error: 4 parts of a graph of 3 vertices: every part needs a vertex to own");
}

TEST(Partition, PolicyNamesComeFromOneTable) {
  EXPECT_EQ(partition_policy_names(), "oec, iec or cvc");
  EXPECT_EQ(parse_partition_policy("cvc", "--policy"), PartitionPolicy::cartesian_vertex_cut);
  EXPECT_STREQ(to_string(PartitionPolicy::incoming_edge_cut), "iec");
  EXPECT_EQ(input_error_of([] { parse_partition_policy("hash", "--policy"); }),
            "--policy: error: unknown partitioning policy 'hash' (expected oec, iec or cvc)");
}

}  // namespace
}  // namespace irgl::testing
