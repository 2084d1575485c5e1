// The checker's reference algorithms on tiny graphs whose answers are worked
// out by hand in the comments.
#include "reference.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "input_error.h"
#include "irgl/support/error.h"
#include "test_graphs.h"

namespace irgl::check {
namespace {

using testing::input_error_of;
using testing::make_graph;
constexpr uint64_t inf = kUnreachable;

// 5 -> 0 -> 1 -> 3 -> 4
//      0 -> 2 -> 3
CsrGraph bfs_graph() {
  return make_graph(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {5, 0}});
}

TEST(ReferenceBfs, LevelsFollowOutEdgesOnly) {
  const CsrGraph graph = bfs_graph();
  EXPECT_EQ(reference_bfs(graph, 0), (std::vector<uint64_t>{0, 1, 1, 2, 3, inf}));
  EXPECT_EQ(reference_bfs(graph, 5), (std::vector<uint64_t>{1, 2, 2, 3, 4, 0}));
  EXPECT_EQ(reference_bfs(graph, 4), (std::vector<uint64_t>{inf, inf, inf, inf, 0, inf}));
}

TEST(ReferenceBfs, RejectsASourceOutsideTheGraph) {
  EXPECT_THROW(reference_bfs(bfs_graph(), 6), std::invalid_argument);
}

// 0 -(4)-> 1, 0 -(9)-> 1 (parallel), 0 -(1)-> 2, 2 -(2)-> 1, 1 -(1)-> 3,
// 2 -(5)-> 3, 3 -(3)-> 4, 4 -(0)-> 6, 5 -(1)-> 0.
// From 0: d(2) = 1, d(1) = min(4, 1+2) = 3, d(3) = min(3+1, 1+5) = 4,
// d(4) = 4+3 = 7, d(6) = 7+0 = 7, 5 unreachable.
CsrGraph sssp_graph() {
  return make_graph<int32_t>(
      7, {{0, 1}, {0, 1}, {0, 2}, {2, 1}, {1, 3}, {2, 3}, {3, 4}, {4, 6}, {5, 0}},
      {4, 9, 1, 2, 1, 5, 3, 0, 1});
}

TEST(ReferenceSssp, ShortestWeightedDistances) {
  EXPECT_EQ(reference_sssp(sssp_graph(), 0), (std::vector<uint64_t>{0, 3, 1, 4, 7, inf, 7}));
  EXPECT_EQ(reference_sssp(sssp_graph(), 5), (std::vector<uint64_t>{1, 4, 2, 5, 8, 0, 8}));
}

TEST(ReferenceSssp, DistancesBeyond32Bits) {
  // Two edges of 2^31-1 each: the distance does not fit in 32 bits.
  const CsrGraph graph = make_graph<int32_t>(3, {{0, 1}, {1, 2}}, {INT32_MAX, INT32_MAX});
  EXPECT_EQ(reference_sssp(graph, 0), (std::vector<uint64_t>{0, 2147483647, 4294967294}));
}

TEST(ReferenceSssp, NegativeWeightIsAnInputError) {
  const CsrGraph graph = make_graph<int32_t>(4, {{0, 1}, {2, 3}, {1, 2}}, {1, -2, 5});
  EXPECT_EQ(input_error_of([&] { reference_sssp(graph, 0); }),
            "test-graph: error: sssp needs non-negative edge weights; edge 2 -> 3 weighs -2");
}

TEST(ReferenceSssp, NeedsIntegerWeights) {
  EXPECT_EQ(input_error_of([&] { reference_sssp(bfs_graph(), 0); }),
            "test-graph: error: sssp needs edge weights and the graph has none "
            "(load it with --weights unit or --weights hash)");
  const CsrGraph floats = make_graph<float>(2, {{0, 1}}, {0.5f});
  EXPECT_EQ(input_error_of([&] { reference_sssp(floats, 0); }),
            "test-graph: error: sssp needs integer edge weights, the graph's are float32 "
            "(load it with --weight-type int)");
}

TEST(UndirectedGraphView, SymmetrizesAndDropsLoopsAndDuplicates) {
  // 0 -> 1 twice, 1 -> 0, 1 -> 1, 2 -> 1: simple undirected edges {0,1}, {1,2}.
  const UndirectedGraph view(make_graph(4, {{0, 1}, {0, 1}, {1, 0}, {1, 1}, {2, 1}}));
  EXPECT_EQ(view.num_edges(), 2u);
  EXPECT_EQ(view.csr().out_offsets, (std::vector<uint64_t>{0, 1, 3, 4, 4}));
  EXPECT_EQ(view.csr().out_targets, (std::vector<VertexId>{1, 0, 2, 1}));
  EXPECT_FALSE(view.csr().has_weights());
}

TEST(ReferenceComponents, WeakComponentsNumberedByLowestVertex) {
  // {0, 1, 2} joined only by edges into 1; {3, 4, 5} likewise into 4; 6 alone.
  const CsrGraph graph = make_graph(7, {{3, 4}, {5, 4}, {0, 1}, {2, 1}});
  const Components components = reference_components(UndirectedGraph(graph));
  EXPECT_EQ(components.count, 3u);
  EXPECT_EQ(components.component, (std::vector<VertexId>{0, 0, 0, 1, 1, 1, 2}));
}

// K4 on {0,1,2,3} (with a duplicate edge 0-1), vertex 4 adjacent to 0 and 1,
// vertex 5 adjacent to 4 (and a self-loop), vertex 6 isolated.
// Peeling: 6 has degree 0 (core 0); 5 has degree 1 (core 1); then 4 has
// degree 2 (core 2); the K4 remains with degree 3 each (core 3).
// Triangles: the 4 of the K4 plus {0, 1, 4}.
CsrGraph core_graph() {
  return make_graph(7, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}, {1, 0},
                        {4, 0}, {1, 4}, {5, 4}, {5, 5}});
}

TEST(ReferenceCoreNumbers, PeelsTheSimpleUndirectedGraph) {
  const std::vector<uint32_t> core = reference_core_numbers(UndirectedGraph(core_graph()));
  EXPECT_EQ(core, (std::vector<uint32_t>{3, 3, 3, 3, 2, 1, 0}));
  EXPECT_EQ(max_core_number(core), 3u);
}

TEST(ReferenceCoreNumbers, GraphWithoutEdges) {
  const std::vector<uint32_t> core = reference_core_numbers(UndirectedGraph(make_graph(3, {})));
  EXPECT_EQ(core, (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_EQ(max_core_number(core), 0u);
}

TEST(ReferenceTriangles, CountsEachTriangleOnce) {
  EXPECT_EQ(reference_triangles(UndirectedGraph(core_graph())), 5u);
  // A triangle given in both directions is still one triangle.
  EXPECT_EQ(reference_triangles(UndirectedGraph(
                make_graph(3, {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 0}, {0, 2}}))),
            1u);
  // A 4-cycle has none; adding one chord makes two.
  const std::vector<testing::TestEdge> square = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  EXPECT_EQ(reference_triangles(UndirectedGraph(make_graph(4, square))), 0u);
  std::vector<testing::TestEdge> chorded = square;
  chorded.push_back({0, 2});
  EXPECT_EQ(reference_triangles(UndirectedGraph(make_graph(4, chorded))), 2u);
}

TEST(ReferenceTriangles, CompleteGraphK30) {
  // C(30, 3) = 30 * 29 * 28 / 6 = 4060; enough vertices for several workers.
  std::vector<testing::TestEdge> edges;
  for (VertexId u = 0; u < 30; ++u)
    for (VertexId v = u + 1; v < 30; ++v) edges.push_back({u, v});
  EXPECT_EQ(reference_triangles(UndirectedGraph(make_graph(30, edges))), 4060u);
}

// The square of a path: i -> i+1 and i -> i+2. Large enough for the parallel
// loops to use several workers.
TEST(ReferenceOnALargeGraph, SquareOfAPath) {
  const VertexId n = 100000;
  std::vector<testing::TestEdge> edges;
  for (VertexId i = 0; i + 1 < n; ++i) {
    edges.push_back({i, i + 1});
    if (i + 2 < n) edges.push_back({i, i + 2});
  }
  const CsrGraph graph = make_graph(n, edges);
  const UndirectedGraph undirected(graph);
  // Triangles {i, i+1, i+2} for i = 0 .. n-3.
  EXPECT_EQ(reference_triangles(undirected), n - 2u);
  // Every vertex has at most two neighbours to its left: all core numbers are
  // 2 (vertex 0 has degree 2, and removing vertices from the left keeps it so).
  EXPECT_EQ(reference_core_numbers(undirected), std::vector<uint32_t>(n, 2));
  // Vertex i is ceil(i/2) hops from 0.
  const std::vector<uint64_t> level = reference_bfs(graph, 0);
  for (VertexId i = 0; i < n; ++i) ASSERT_EQ(level[i], (i + 1) / 2) << "vertex " << i;
  EXPECT_EQ(reference_components(undirected).count, 1u);
}

// With d = 17/20 and N vertices, (1-d)/N is the teleport term.
TEST(ReferencePagerank, DanglingVertexTwoVertices) {
  // 0 -> 1; 1 is dangling (D = PR1):
  //   PR0 = 3/40 + 17/20 * (PR1/2)
  //   PR1 = 3/40 + 17/20 * (PR0 + PR1/2)
  // The ranks sum to 1, so PR0 = 3/40 + 17/40 (1 - PR0): PR0 = 20/57, PR1 = 37/57.
  const PagerankResult result = reference_pagerank(make_graph(2, {{0, 1}}, {}, true));
  ASSERT_EQ(result.rank.size(), 2u);
  EXPECT_NEAR(result.rank[0], 20.0 / 57, 1e-12);
  EXPECT_NEAR(result.rank[1], 37.0 / 57, 1e-12);
  EXPECT_LT(result.last_change, 1e-12);
  EXPECT_GT(result.iterations, 10u);
}

TEST(ReferencePagerank, DanglingVertexThreeVertices) {
  // 0 -> 1, 0 -> 2, 1 -> 2; 2 is dangling. With a, b, c the ranks:
  //   a = 1/20 + 17/20 * (c/3)
  //   b = 1/20 + 17/20 * (a/2 + c/3)
  //   c = 1/20 + 17/20 * (a/2 + b + c/3)
  // whose solution is a = 800/4049, b = 1140/4049, c = 2109/4049.
  const PagerankResult result =
      reference_pagerank(make_graph(3, {{0, 1}, {0, 2}, {1, 2}}, {}, true));
  EXPECT_NEAR(result.rank[0], 800.0 / 4049, 1e-12);
  EXPECT_NEAR(result.rank[1], 1140.0 / 4049, 1e-12);
  EXPECT_NEAR(result.rank[2], 2109.0 / 4049, 1e-12);
}

TEST(ReferencePagerank, ParallelEdgesAndSelfLoopsCountWithMultiplicity) {
  // 0 -> 1 twice and 0 -> 0: outdeg(0) = 3, 1 dangling.
  //   PR0 = 3/40 + 17/20 * (PR0/3 + PR1/2)
  //   PR1 = 3/40 + 17/20 * (2 PR0/3 + PR1/2)
  // Solution: PR0 = 60/137, PR1 = 77/137.
  const PagerankResult result =
      reference_pagerank(make_graph(2, {{0, 1}, {0, 1}, {0, 0}}, {}, true));
  EXPECT_NEAR(result.rank[0], 60.0 / 137, 1e-12);
  EXPECT_NEAR(result.rank[1], 77.0 / 137, 1e-12);
}

TEST(ReferencePagerank, DampingIsAParameter) {
  // d = 0: every vertex gets the teleport term 1/N.
  PagerankParams params;
  params.damping = 0;
  const PagerankResult result =
      reference_pagerank(make_graph(3, {{0, 1}, {1, 2}}, {}, true), params);
  EXPECT_EQ(result.rank, (std::vector<double>(3, 1.0 / 3)));
}

TEST(ReferencePagerank, NeedsTheTranspose) {
  EXPECT_THROW(reference_pagerank(make_graph(2, {{0, 1}})), std::invalid_argument);
}

TEST(ReferenceSpmv, DefaultXRepeatsEverySevenEntries) {
  EXPECT_EQ(default_spmv_x(9),
            (std::vector<double>{1, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1, 1.125}));
}

TEST(ReferenceSpmv, IntWeightsWithParallelEntriesSummed) {
  // Row 0: 2 x1 + 3 x2 + 4 x1 (parallel entry) = 2.25 + 3.75 + 4.5 = 10.5.
  // Row 2: -1 x0 = -1. Row 1 is empty.
  const CsrGraph graph = make_graph<int32_t>(3, {{0, 1}, {0, 2}, {0, 1}, {2, 0}}, {2, 3, 4, -1});
  const SpmvResult result = reference_spmv(graph, default_spmv_x(3));
  EXPECT_EQ(result.y, (std::vector<double>{10.5, 0, -1}));
  EXPECT_EQ(result.magnitude, (std::vector<double>{10.5, 0, 1}));
}

TEST(ReferenceSpmv, FloatWeightsAndUnweightedGraphs) {
  const std::vector<double> x = {2, 4};
  // y0 = 0.5 * 4 - 0.25 * 2 = 1.5; magnitude 2 + 0.5 = 2.5.
  const SpmvResult floats =
      reference_spmv(make_graph<float>(2, {{0, 1}, {0, 0}}, {0.5f, -0.25f}), x);
  EXPECT_EQ(floats.y, (std::vector<double>{1.5, 0}));
  EXPECT_EQ(floats.magnitude, (std::vector<double>{2.5, 0}));
  // Unweighted: every entry is 1.
  const SpmvResult ones = reference_spmv(make_graph(2, {{0, 1}, {0, 0}, {1, 1}}), x);
  EXPECT_EQ(ones.y, (std::vector<double>{6, 4}));
}

TEST(ReferenceSpmv, XMustMatchTheVertexCount) {
  EXPECT_THROW(reference_spmv(make_graph(3, {}), {1.0, 2.0}), std::invalid_argument);
}

TEST(ReferenceBetweenness, SourceCountIsEveryVertexForZeroOrTooMany) {
  EXPECT_EQ(betweenness_source_count(5, 0), 5u);
  EXPECT_EQ(betweenness_source_count(5, 2), 2u);
  EXPECT_EQ(betweenness_source_count(5, 5), 5u);
  EXPECT_EQ(betweenness_source_count(5, 9), 5u);
}

TEST(ReferenceBetweenness, SplitsOverShortestPathsAndIgnoresRepeatsAndLoops) {
  // 0 -> {1, 2} -> 3 -> 4, 0 -> 1 twice, 3 -> 3. From 0: two shortest paths
  // to 3 and to 4 (1/2 + 1/2 to 1 and to 2 each, 1 to 3); from 1 and from
  // 2: 3 is on the way to 4.
  const CsrGraph graph =
      make_graph(5, {{0, 1}, {0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 3}, {3, 4}});
  EXPECT_EQ(reference_betweenness(graph, 0, 0), (std::vector<double>{0, 1, 1, 3, 0}));
  // Sources 4 and 0 (wrapping): only 0's paths count.
  EXPECT_EQ(reference_betweenness(graph, 4, 2), (std::vector<double>{0, 1, 1, 1, 0}));
  EXPECT_EQ(reference_betweenness(graph, 1, 1), (std::vector<double>{0, 0, 0, 1, 0}));
}

TEST(ReferenceBetweenness, SymmetricPathCountsBothDirections) {
  // 0 - 1 - 2 - 3: vertex 1 is on 0-2, 0-3 and back, vertex 2 on 1-3, 0-3
  // and back.
  const CsrGraph path = make_graph(4, {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {2, 3}, {3, 2}});
  EXPECT_EQ(reference_betweenness(path, 0, 0), (std::vector<double>{0, 4, 4, 0}));
  EXPECT_THROW(reference_betweenness(path, 4, 0), std::invalid_argument);
}

TEST(ReferenceJaccard, SharedOverAllNeighboursOfTheUndirectedView) {
  // Undirected: 0 - 1, 0 - 2, 1 - 2, 2 - 3 (given once, reversed, repeated
  // or with a loop); vertex 4 has no neighbour. From 0, N(0) = {1, 2}:
  // N(1) = {0, 2} shares 2 of {0, 1, 2}, N(2) = {0, 1, 3} shares 1 of 4,
  // N(3) = {2} 1 of 2.
  const UndirectedGraph graph(
      make_graph(5, {{0, 1}, {2, 0}, {1, 2}, {1, 2}, {2, 3}, {3, 3}}));
  EXPECT_EQ(reference_jaccard(graph, 0), (std::vector<double>{1, 1.0 / 3, 0.25, 0.5, 0}));
  // A source without neighbours shares none with any vertex (and its own
  // union is empty): 0 everywhere.
  EXPECT_EQ(reference_jaccard(graph, 4), (std::vector<double>(5, 0)));
  EXPECT_THROW(reference_jaccard(graph, 5), std::invalid_argument);
}

}  // namespace
}  // namespace irgl::check
