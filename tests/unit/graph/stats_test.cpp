// Graph statistics on hand-made graphs whose answers are known.
#include "irgl/graph/stats.h"

#include <gtest/gtest.h>

#include <sstream>

#include "graph_test_util.h"
#include "irgl/graph/generators.h"

namespace irgl {
namespace {

using testing::edge_list;

CsrGraph graph_of(uint64_t n, const std::vector<testing::Edge>& edges, BuildOptions options = {}) {
  CsrGraph graph = build_csr(edge_list(n, edges), options);
  graph.name = "hand-made";
  return graph;
}

TEST(Log2Bucket, BucketKHoldsDegreesFromTwoToTheKMinusOne) {
  EXPECT_EQ(log2_bucket(0), 0u);
  EXPECT_EQ(log2_bucket(1), 1u);
  EXPECT_EQ(log2_bucket(2), 2u);
  EXPECT_EQ(log2_bucket(3), 2u);
  EXPECT_EQ(log2_bucket(4), 3u);
  EXPECT_EQ(log2_bucket(7), 3u);
  EXPECT_EQ(log2_bucket(8), 4u);
  EXPECT_EQ(log2_bucket(uint64_t(1) << 40), 41u);
  EXPECT_EQ(log2_bucket(UINT64_MAX), 64u);
}

TEST(Stats, DirectedPath) {
  const GraphStats stats = compute_stats(graph_of(4, {{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(stats.name, "hand-made");
  EXPECT_EQ(stats.vertices, 4u);
  EXPECT_EQ(stats.edges, 3u);
  EXPECT_EQ(stats.self_loops, 0u);
  EXPECT_EQ(stats.out_degree.min, 0u);
  EXPECT_EQ(stats.out_degree.max, 1u);
  EXPECT_EQ(stats.out_degree.zero, 1u);
  EXPECT_DOUBLE_EQ(stats.out_degree.average, 0.75);
  EXPECT_EQ(stats.out_degree.log2_histogram, (std::vector<uint64_t>{1, 3}));
  EXPECT_EQ(stats.in_degree.zero, 1u);
  EXPECT_EQ(stats.components, 1u);
  EXPECT_EQ(stats.largest_component, 4u);
  ASSERT_TRUE(stats.has_diameter);
  EXPECT_EQ(stats.diameter.lower_bound, 3u);  // directions are ignored
  EXPECT_EQ(stats.memory_bytes, 8u * 5 + 4u * 3);
}

TEST(Stats, OutAndInDegreesDifferOnAStar) {
  // Vertex 0 points at 1..6; 7 points at 0; 8 is isolated; 3 has a self-loop.
  const GraphStats stats =
      compute_stats(graph_of(9, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {7, 0}, {3, 3}}));
  EXPECT_EQ(stats.self_loops, 1u);
  EXPECT_EQ(stats.out_degree.max, 6u);
  EXPECT_EQ(stats.out_degree.zero, 6u);  // 1, 2, 4, 5, 6, 8
  EXPECT_EQ(stats.out_degree.log2_histogram, (std::vector<uint64_t>{6, 2, 0, 1}));
  EXPECT_EQ(stats.in_degree.max, 2u);  // 3: from 0 and itself
  EXPECT_EQ(stats.in_degree.min, 0u);
  EXPECT_EQ(stats.in_degree.zero, 2u);  // 7 and 8
  EXPECT_EQ(stats.in_degree.log2_histogram, (std::vector<uint64_t>{2, 6, 1}));
  EXPECT_EQ(stats.components, 2u);
  EXPECT_EQ(stats.largest_component, 8u);
  EXPECT_EQ(stats.diameter.lower_bound, 2u);  // leaf - 0 - leaf, ignoring directions
}

// The top 1% of a star's 300 vertices, three: its hub (299 of 305 edges)
// and two vertices of out-degree 1; in-degrees, the hub (3) and three
// leaves of 2, ties broken either way.
TEST(Stats, HubShareIsTheTopOnePercentsShareOfTheEdges) {
  std::vector<testing::Edge> edges;
  for (VertexId leaf = 1; leaf < 300; ++leaf) edges.push_back({0, leaf});
  for (VertexId leaf = 1; leaf <= 3; ++leaf) edges.push_back({leaf + 10, leaf});
  edges.push_back({20, 0});
  edges.push_back({21, 0});
  edges.push_back({22, 0});
  const GraphStats stats = compute_stats(graph_of(300, edges), {false});
  EXPECT_DOUBLE_EQ(stats.out_degree.hub_share, (299.0 + 2) / 305);
  EXPECT_DOUBLE_EQ(stats.in_degree.hub_share, 7.0 / 305);  // 0 (3), and two leaves of 2
}

// TopDegrees' share of degrees added in two parts and merged, as a
// parallel pass adds them.
double top_degree_share(const std::vector<uint64_t>& degrees, uint64_t edges, double fraction) {
  TopDegrees first, second;
  for (size_t v = 0; v < degrees.size(); ++v) (v % 2 ? second : first).add(degrees[v]);
  first.merge(second);
  return first.share(degrees.size(), edges, fraction);
}

// Degrees above the per-degree counts' cap (4096) and below it, ties at
// the cut, and a fraction below one vertex.
TEST(Stats, TopDegreeShareCountsLargeAndSmallDegreesExactly) {
  const std::vector<uint64_t> degrees = {1, 9000, 4095, 4096, 7, 4095, 0, 4095};
  const uint64_t edges = 1 + 9000 + 4095 + 4096 + 7 + 4095 + 4095;
  EXPECT_DOUBLE_EQ(top_degree_share(degrees, edges, 0.5), (9000.0 + 4096 + 4095 + 4095) / edges);
  EXPECT_DOUBLE_EQ(top_degree_share(degrees, edges, 0.01), 9000.0 / edges);  // one vertex
  EXPECT_DOUBLE_EQ(top_degree_share(degrees, edges, 1.0), 1.0);
  EXPECT_EQ(top_degree_share({}, 0, 0.01), 0.0);
}

TEST(Stats, HistogramBucketsByPowersOfTwo) {
  // Out-degrees 0, 1, 2, 3, 4, 7, 8 on vertices 0..6 (targets wrap around).
  std::vector<testing::Edge> edges;
  const uint64_t degrees[] = {0, 1, 2, 3, 4, 7, 8};
  for (VertexId v = 0; v < 7; ++v)
    for (uint64_t i = 0; i < degrees[v]; ++i) edges.push_back({v, static_cast<VertexId>(i % 7)});
  const GraphStats stats = compute_stats(graph_of(7, edges), {false});
  EXPECT_EQ(stats.out_degree.log2_histogram, (std::vector<uint64_t>{1, 1, 2, 2, 1}));
  EXPECT_EQ(stats.out_degree.max, 8u);
  EXPECT_EQ(stats.out_degree.min, 0u);
  EXPECT_FALSE(stats.has_diameter);
}

TEST(Stats, ComponentsAndTheDiameterOfTheLargest) {
  // A path of 5 (diameter 4) and a triangle. The sweeps start at vertex 1,
  // the smallest id of the highest total degree (2) in the path.
  const CsrGraph graph = graph_of(8, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {5, 6}, {6, 7}, {7, 5}});
  const Components components = weakly_connected_components(graph);
  EXPECT_EQ(components.count, 2u);
  EXPECT_EQ(components.largest, 0u);
  EXPECT_EQ(components.largest_size, 5u);
  EXPECT_EQ(components.label, (std::vector<VertexId>{0, 0, 0, 0, 0, 5, 5, 5}));
  const GraphStats stats = compute_stats(graph);
  EXPECT_EQ(stats.components, 2u);
  EXPECT_EQ(stats.largest_component, 5u);
  EXPECT_EQ(stats.diameter.lower_bound, 4u);
  EXPECT_EQ(std::min(stats.diameter.from, stats.diameter.to), 0u);
  EXPECT_EQ(std::max(stats.diameter.from, stats.diameter.to), 4u);
}

TEST(Stats, IsolatedVerticesAreComponents) {
  const GraphStats stats = compute_stats(graph_of(5, {{3, 3}}));
  EXPECT_EQ(stats.components, 5u);
  EXPECT_EQ(stats.largest_component, 1u);
  EXPECT_EQ(stats.diameter.lower_bound, 0u);
}

TEST(Stats, EmptyGraph) {
  const GraphStats stats = compute_stats(CsrGraph());
  EXPECT_EQ(stats.vertices, 0u);
  EXPECT_EQ(stats.components, 0u);
  EXPECT_FALSE(stats.has_diameter);
  EXPECT_TRUE(stats.out_degree.log2_histogram.empty());
}

TEST(Stats, GridDiameterIsRowsPlusColumnsMinusTwo) {
  const CsrGraph grid = build_csr(generate_from_spec("grid:30x47", false), {});
  const GraphStats stats = compute_stats(grid);
  EXPECT_EQ(stats.out_degree.max, 4u);
  EXPECT_EQ(stats.out_degree.min, 2u);
  EXPECT_EQ(stats.components, 1u);
  EXPECT_EQ(stats.diameter.lower_bound, 30u + 47u - 2u);
}

TEST(Stats, TheTransposeAndTheSymmetricFlagGiveTheSameAnswers) {
  const auto edges = generate_from_spec("rmat:scale=12,edge-factor=4", false);
  BuildOptions transpose;
  transpose.transpose = true;
  const GraphStats counted = compute_stats(build_csr(EdgeList(edges), {}));
  const GraphStats from_transpose = compute_stats(build_csr(EdgeList(edges), transpose));
  EXPECT_EQ(counted.in_degree.log2_histogram, from_transpose.in_degree.log2_histogram);
  EXPECT_EQ(counted.in_degree.max, from_transpose.in_degree.max);
  EXPECT_EQ(counted.diameter.lower_bound, from_transpose.diameter.lower_bound);
  EXPECT_EQ(counted.components, from_transpose.components);

  BuildOptions symmetrize;
  symmetrize.symmetrize = true;
  const GraphStats symmetric = compute_stats(build_csr(EdgeList(edges), symmetrize));
  EXPECT_EQ(symmetric.components, counted.components);
  EXPECT_EQ(symmetric.largest_component, counted.largest_component);
  EXPECT_EQ(symmetric.out_degree.max, symmetric.in_degree.max);
}

TEST(Stats, ApproximateDiameterStopsWhenItStopsGrowing) {
  const CsrGraph path = graph_of(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}});
  const DiameterBound from_middle = approximate_diameter(path, 2);
  EXPECT_EQ(from_middle.lower_bound, 5u);
  EXPECT_EQ(from_middle.sweeps, 3u);  // 2 -> 5 (3 hops), 5 -> 0 (5), 0 -> 5 (no gain)
  EXPECT_EQ(approximate_diameter(path, 2, 1).lower_bound, 3u);
}

TEST(StatsPrinters, Json) {
  std::ostringstream out;
  print_stats_json(out, compute_stats(graph_of(3, {{0, 1}, {0, 2}, {1, 1}})));
  EXPECT_EQ(out.str(),
            "{\"graph\":\"hand-made\",\"vertices\":3,\"edges\":3,\"self_loops\":1,"
            "\"weights\":\"none\",\"symmetric\":false,\"sorted\":true,\"transpose\":false,"
            "\"csr_bytes\":44,"
            "\"out_degree\":{\"min\":0,\"max\":2,\"avg\":1.0,\"zero\":1,\"max_vertex\":0,"
            "\"hub_share\":0.666667,\"log2_histogram\":[1,1,1]},"
            "\"in_degree\":{\"min\":0,\"max\":2,\"avg\":1.0,\"zero\":1,\"max_vertex\":1,"
            "\"hub_share\":0.666667,\"log2_histogram\":[1,1,1]},"
            "\"components\":1,\"largest_component\":3,"
            "\"diameter\":{\"lower_bound\":2,\"sweeps\":2,\"from\":1,\"to\":2}}");
}

TEST(StatsPrinters, JsonEscapesTheNameAndWritesNullWithoutDiameter) {
  CsrGraph graph = graph_of(1, {});
  graph.name = "a \"quoted\"\\name\n";
  std::ostringstream out;
  print_stats_json(out, compute_stats(graph, {false}));
  EXPECT_NE(out.str().find("\"graph\":\"a \\\"quoted\\\"\\\\name\\n\""), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("\"diameter\":null}"), std::string::npos) << out.str();
}

// Averages keep 6 significant digits, as in the text report; names that are
// not UTF-8 (paths are bytes) are written with U+FFFD instead of failing.
TEST(StatsPrinters, JsonRoundsAveragesAndReplacesInvalidUtf8) {
  CsrGraph graph = graph_of(3, {{0, 1}, {0, 2}, {1, 2}, {2, 0}});
  graph.name = "bad\xff.txt";
  std::ostringstream out;
  print_stats_json(out, compute_stats(graph, {false}));
  EXPECT_NE(out.str().find("\"graph\":\"bad\xef\xbf\xbd.txt\""), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\"avg\":1.33333,"), std::string::npos) << out.str();
}

// The array irgl-graph stats --json prints: one object per line.
TEST(StatsPrinters, JsonArray) {
  const GraphStats one = compute_stats(graph_of(1, {}), {false});
  std::ostringstream single, both, none;
  print_stats_json(single, one);
  print_stats_json(both, std::vector<GraphStats>{one, one});
  EXPECT_EQ(both.str(), "[" + single.str() + ",\n " + single.str() + "]\n");
  print_stats_json(none, std::vector<GraphStats>{});
  EXPECT_EQ(none.str(), "[]\n");
}

// Benchmarks start traversals at the vertex of highest degree: the smallest
// such id, whichever parallel chunk finds it.
TEST(Stats, MaxDegreeVertexIsTheSmallestOfTies) {
  std::vector<testing::Edge> edges;
  for (VertexId hub : {70000u, 30000u, 99999u})
    for (VertexId k = 1; k <= 3; ++k) edges.push_back({hub, k});
  const GraphStats stats = compute_stats(graph_of(100000, edges), {false});
  EXPECT_EQ(stats.out_degree.max, 3u);
  EXPECT_EQ(stats.out_degree.max_vertex, 30000u);
  EXPECT_EQ(stats.in_degree.max_vertex, 1u);
}

TEST(StatsPrinters, Text) {
  std::ostringstream out;
  print_stats_text(out, compute_stats(graph_of(3, {{0, 1}, {0, 2}, {1, 1}})));
  EXPECT_EQ(out.str(),
            "graph: hand-made\n"
            "vertices: 3\n"
            "edges: 3\n"
            "self-loops: 1\n"
            "weights: none\n"
            "symmetric: no\n"
            "sorted: yes\n"
            "transpose: no\n"
            "csr size: 0.000 GB (44 bytes)\n"
            "out-degree: min 0, max 2, avg 1.00, zero 1, max at vertex 0, top 1% hold 0.67 of the "
            "edges\n"
            "in-degree: min 0, max 2, avg 1.00, zero 1, max at vertex 1, top 1% hold 0.67 of the "
            "edges\n"
            "components: 1 (largest 3 vertices)\n"
            "diameter: >= 2 (largest component, 2 BFS sweeps, 1 to 2)\n"
            "degree histogram:\n"
            "  degree                           out           in\n"
            "  0                                  1            1\n"
            "  1                                  1            1\n"
            "  2-3                                1            1\n");
}

}  // namespace
}  // namespace irgl
