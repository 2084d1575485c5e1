// build_csr(), rebuild() and the CSR building blocks.
#include "irgl/graph/csr_build.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "graph_test_util.h"
#include "irgl/graph/edge_list.h"

namespace irgl {
namespace {

using testing::edge_list;
using testing::in_lists;
using testing::out_lists;
using testing::weighted_edge_list;
using testing::weighted_out_lists;
using Lists = std::vector<std::vector<VertexId>>;
template <class T>
using WeightedLists = std::vector<std::vector<std::pair<VertexId, T>>>;

BuildOptions unsorted() {
  BuildOptions options;
  options.sort_adjacency = false;
  return options;
}

TEST(BuildCsr, SortsEachListByDefault) {
  const CsrGraph graph = build_csr(edge_list(4, {{0, 2}, {2, 3}, {0, 1}, {3, 0}, {0, 3}}), {});
  graph.validate();
  EXPECT_EQ(graph.num_vertices(), 4u);
  EXPECT_EQ(graph.num_edges(), 5u);
  EXPECT_EQ(graph.out_offsets, (std::vector<uint64_t>{0, 3, 3, 4, 5}));
  EXPECT_EQ(out_lists(graph), (Lists{{1, 2, 3}, {}, {3}, {0}}));
  EXPECT_TRUE(graph.sorted);
  EXPECT_FALSE(graph.symmetric);
  EXPECT_FALSE(graph.has_weights());
  EXPECT_FALSE(graph.has_transpose());
  EXPECT_EQ(graph.name, "test");
}

TEST(BuildCsr, UnsortedKeepsFileOrder) {
  const CsrGraph graph =
      build_csr(edge_list(3, {{0, 2}, {1, 0}, {0, 1}, {0, 2}, {0, 0}}), unsorted());
  EXPECT_EQ(out_lists(graph), (Lists{{2, 1, 2, 0}, {0}, {}}));
  EXPECT_FALSE(graph.sorted);
}

TEST(BuildCsr, SymmetrizeMirrorsEveryEdgeButSelfLoops) {
  BuildOptions options;
  options.symmetrize = true;
  const CsrGraph graph = build_csr(edge_list(3, {{0, 1}, {1, 2}, {2, 2}}), options);
  graph.validate();
  EXPECT_EQ(out_lists(graph), (Lists{{1}, {0, 2}, {1, 2}}));
  EXPECT_TRUE(graph.symmetric);
}

TEST(BuildCsr, SymmetrizeUnsortedListsOriginalsBeforeMirrors) {
  BuildOptions options = unsorted();
  options.symmetrize = true;
  const CsrGraph graph = build_csr(edge_list(3, {{1, 2}, {0, 1}, {2, 0}}), options);
  EXPECT_EQ(out_lists(graph), (Lists{{1, 2}, {2, 0}, {0, 1}}));
}

TEST(BuildCsr, DropSelfLoops) {
  BuildOptions options;
  options.drop_self_loops = true;
  const CsrGraph graph = build_csr(edge_list(3, {{0, 0}, {0, 1}, {2, 2}, {2, 2}, {1, 2}}), options);
  EXPECT_EQ(out_lists(graph), (Lists{{1}, {2}, {}}));
}

TEST(BuildCsr, DuplicatesAreKeptUnlessDropped) {
  const auto edges = std::vector<testing::Edge>{{0, 1}, {0, 1}, {1, 0}, {0, 1}};
  EXPECT_EQ(out_lists(build_csr(edge_list(2, edges), {})), (Lists{{1, 1, 1}, {0}}));
  BuildOptions options;
  options.drop_duplicates = true;
  EXPECT_EQ(out_lists(build_csr(edge_list(2, edges), options)), (Lists{{1}, {0}}));
}

TEST(BuildCsr, DropDuplicatesSortsEvenWithoutSortOption) {
  BuildOptions options = unsorted();
  options.drop_duplicates = true;
  const CsrGraph graph = build_csr(edge_list(3, {{0, 2}, {0, 1}, {0, 2}}), options);
  EXPECT_EQ(out_lists(graph), (Lists{{1, 2}, {}, {}}));
  EXPECT_TRUE(graph.sorted);
}

TEST(BuildCsr, DuplicatesKeepTheLightestIntWeight) {
  BuildOptions options;
  options.drop_duplicates = true;
  const CsrGraph graph = build_csr(
      weighted_edge_list<int32_t>(3, {{0, 1, 5}, {0, 1, -3}, {0, 2, 9}, {0, 1, 7}, {1, 0, 2}}),
      options);
  EXPECT_EQ(weighted_out_lists<int32_t>(graph),
            (WeightedLists<int32_t>{{{1, -3}, {2, 9}}, {{0, 2}}, {}}));
}

TEST(BuildCsr, DuplicatesKeepTheLightestFloatWeight) {
  BuildOptions options;
  options.drop_duplicates = true;
  const CsrGraph graph = build_csr(
      weighted_edge_list<float>(2, {{0, 1, -1.5f}, {0, 1, 2.0f}, {0, 1, -3.25f}, {1, 0, 0.5f}}),
      options);
  EXPECT_EQ(weighted_out_lists<float>(graph), (WeightedLists<float>{{{1, -3.25f}}, {{0, 0.5f}}}));
}

TEST(BuildCsr, SortOrdersTiesByWeight) {
  const CsrGraph graph = build_csr(
      weighted_edge_list<float>(2, {{0, 1, 2.5f}, {0, 1, -1.0f}, {0, 0, 7.0f}, {0, 1, 0.0f}}), {});
  EXPECT_EQ(weighted_out_lists<float>(graph),
            (WeightedLists<float>{{{0, 7.0f}, {1, -1.0f}, {1, 0.0f}, {1, 2.5f}}, {}}));
}

TEST(BuildCsr, SymmetrizedDuplicatesKeepTheLightestInBothDirections) {
  BuildOptions options;
  options.symmetrize = true;
  options.drop_duplicates = true;
  const CsrGraph graph = build_csr(weighted_edge_list<int32_t>(2, {{0, 1, 5}, {1, 0, 3}}), options);
  EXPECT_EQ(weighted_out_lists<int32_t>(graph), (WeightedLists<int32_t>{{{1, 3}}, {{0, 3}}}));
}

TEST(BuildCsr, TransposeListsInEdgesSortedBySourceWithWeights) {
  BuildOptions options = unsorted();
  options.transpose = true;
  const CsrGraph graph = build_csr(
      weighted_edge_list<int32_t>(4, {{3, 1, 30}, {0, 1, 10}, {2, 1, 20}, {1, 3, 13}, {0, 3, 3}}),
      options);
  graph.validate();
  ASSERT_TRUE(graph.has_transpose());
  EXPECT_EQ(in_lists(graph), (Lists{{}, {0, 2, 3}, {}, {0, 1}}));
  std::vector<int32_t> in_weights;
  for (uint64_t e = 0; e < graph.num_edges(); ++e)
    in_weights.push_back(graph.in_weight<int32_t>(e));
  EXPECT_EQ(in_weights, (std::vector<int32_t>{10, 20, 30, 3, 13}));
}

TEST(BuildCsr, WeightRuleNoneDropsFileWeights) {
  BuildOptions options;
  options.weights.source = WeightRule::Source::none;
  const CsrGraph graph = build_csr(weighted_edge_list<int32_t>(2, {{0, 1, 5}}), options);
  EXPECT_FALSE(graph.has_weights());
  EXPECT_TRUE(graph.out_weights.empty());
}

TEST(BuildCsr, WeightRuleUnitGivesEveryEdgeWeightOne) {
  BuildOptions options;
  options.weights.source = WeightRule::Source::unit;
  const CsrGraph graph = build_csr(edge_list(3, {{0, 1}, {1, 2}, {2, 0}}), options);
  EXPECT_EQ(weighted_out_lists<int32_t>(graph),
            (WeightedLists<int32_t>{{{1, 1}}, {{2, 1}}, {{0, 1}}}));
}

TEST(BuildCsr, WeightRuleHashIsSymmetricAndSeeded) {
  std::vector<testing::Edge> edges;
  for (VertexId u = 0; u < 40; ++u) edges.push_back({u, (u * 7 + 3) % 40});
  BuildOptions options;
  options.symmetrize = true;
  options.weights.source = WeightRule::Source::hash;
  options.weights.max = 16;
  options.weights.seed = 5;
  const CsrGraph graph = build_csr(edge_list(40, edges), options);
  std::map<std::pair<VertexId, VertexId>, int32_t> weight;
  for (VertexId u = 0; u < 40; ++u)
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const VertexId v = graph.out_targets[e];
      const int32_t w = graph.out_weight<int32_t>(e);
      EXPECT_GE(w, 1);
      EXPECT_LE(w, 16);
      EXPECT_EQ(static_cast<uint32_t>(w), hashed_weight(u, v, 16, 5));
      weight[{u, v}] = w;
    }
  for (auto [edge, w] : weight) EXPECT_EQ((weight[{edge.second, edge.first}]), w);

  options.weights.seed = 6;
  const CsrGraph reseeded = build_csr(edge_list(40, edges), options);
  EXPECT_NE(reseeded.out_weights, graph.out_weights);
}

TEST(BuildCsr, HashedWeightIgnoresDirection) {
  for (VertexId u = 0; u < 50; ++u)
    for (VertexId v = 0; v < 50; ++v)
      EXPECT_EQ(hashed_weight(u, v, 100, 9), hashed_weight(v, u, 100, 9));
  EXPECT_EQ(hashed_weight(3, 4, 1, 0), 1u);
}

TEST(BuildCsr, ConvertsIntegralFloatsToInt) {
  BuildOptions options;
  options.weights.convert_to = WeightType::int32;
  const CsrGraph graph =
      build_csr(weighted_edge_list<float>(2, {{0, 1, 2.0f}, {1, 0, -7.0f}}), options);
  EXPECT_EQ(weighted_out_lists<int32_t>(graph), (WeightedLists<int32_t>{{{1, 2}}, {{0, -7}}}));
}

TEST(BuildCsr, RefusesToConvertFractionalFloatsToInt) {
  BuildOptions options;
  options.weights.convert_to = WeightType::int32;
  EXPECT_EQ(testing::input_error_of([&] {
              build_csr(weighted_edge_list<float>(3, {{0, 1, 2.0f}, {0, 2, 2.5f}}), options);
            }),
            "test: error: weight 2.5 of edge 2 (0 -> 2) is not an int32; load the weights as "
            "floats instead");
}

TEST(BuildCsr, ConvertsIntToFloat) {
  BuildOptions options;
  options.weights.convert_to = WeightType::float32;
  const CsrGraph graph = build_csr(weighted_edge_list<int32_t>(2, {{0, 1, -4}}), options);
  EXPECT_EQ(weighted_out_lists<float>(graph), (WeightedLists<float>{{{1, -4.0f}}, {}}));
}

TEST(BuildCsr, KeepsTheDeclaredSymmetry) {
  EdgeList edges = edge_list(2, {{0, 1}, {1, 0}});
  edges.symmetric = true;
  EXPECT_TRUE(build_csr(std::move(edges), {}).symmetric);
}

// Regression: a symmetric MatrixMarket file's edges, already listed both
// ways by the loader, were mirrored again, so that off-diagonal entries
// weighed twice beside the diagonal's self-loops.
TEST(BuildCsr, SymmetrizeLeavesDeclaredSymmetricEdgesAlone) {
  EdgeList edges =
      weighted_edge_list<int32_t>(3, {{0, 1, 5}, {1, 0, 5}, {2, 2, 7}, {1, 2, 3}, {2, 1, 3}});
  edges.symmetric = true;
  BuildOptions options;
  options.symmetrize = true;
  const CsrGraph graph = build_csr(std::move(edges), options);
  graph.validate();
  EXPECT_EQ(weighted_out_lists<int32_t>(graph),
            (WeightedLists<int32_t>{{{1, 5}}, {{0, 5}, {2, 3}}, {{1, 3}, {2, 7}}}));
  EXPECT_TRUE(graph.symmetric);
  // Nor does rebuilding a graph that was symmetrized before.
  const CsrGraph again = rebuild(build_csr(edge_list(3, {{0, 1}, {1, 2}}), options), options);
  EXPECT_EQ(out_lists(again), (Lists{{1}, {0, 2}, {1}}));
}

// A serial reference of build_csr's semantics, written independently.
WeightedLists<int32_t> reference_lists(const EdgeList& edges, const BuildOptions& options) {
  WeightedLists<int32_t> lists(edges.num_vertices);
  auto add = [&](VertexId u, VertexId v, uint32_t w) {
    lists[u].emplace_back(v, static_cast<int32_t>(w));
  };
  for (uint64_t i = 0; i < edges.size(); ++i)
    if (!(options.drop_self_loops && edges.sources[i] == edges.targets[i]))
      add(edges.sources[i], edges.targets[i], edges.weights[i]);
  if (options.symmetrize && !edges.symmetric)
    for (uint64_t i = 0; i < edges.size(); ++i)
      if (edges.sources[i] != edges.targets[i])
        add(edges.targets[i], edges.sources[i], edges.weights[i]);
  for (auto& list : lists) {
    if (options.sort_adjacency || options.drop_duplicates) std::sort(list.begin(), list.end());
    if (options.drop_duplicates)
      list.erase(
          std::unique(list.begin(), list.end(), [](auto a, auto b) { return a.first == b.first; }),
          list.end());
  }
  return lists;
}

// Many edges (so that every thread gets work), skewed toward a few hubs, with
// self-loops, duplicates and negative weights, under every option mix.
TEST(BuildCsr, MatchesASerialReferenceOnALargeRandomGraph) {
  const uint64_t n = 3000, m = 200000;
  EdgeList edges = edge_list(n, {});
  edges.weight_type = WeightType::int32;
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (uint64_t i = 0; i < m; ++i) {
    const VertexId u = static_cast<VertexId>(next() % 4 == 0 ? next() % 8 : next() % n);
    const VertexId v = static_cast<VertexId>(next() % 10 == 0 ? u : next() % n);
    edges.sources.push_back(u);
    edges.targets.push_back(v);
    edges.weights.push_back(static_cast<uint32_t>(static_cast<int32_t>(next() % 200) - 100));
  }
  for (int mask = 0; mask < 16; ++mask) {
    BuildOptions options;
    options.symmetrize = mask & 1;
    options.drop_self_loops = mask & 2;
    options.drop_duplicates = mask & 4;
    options.sort_adjacency = mask & 8;
    options.transpose = true;
    EdgeList copy = edges;
    const CsrGraph graph = build_csr(std::move(copy), options);
    graph.validate();
    EXPECT_EQ(weighted_out_lists<int32_t>(graph), reference_lists(edges, options))
        << "mask " << mask;
  }
}

// The message of the std::logic_error `body` throws ("" when none).
template <class Body>
std::string logic_error_of(Body&& body) {
  try {
    body();
  } catch (const std::logic_error& error) {
    return error.what();
  }
  return "";
}

TEST(CsrGraph, ValidateNamesTheFirstViolation) {
  const CsrGraph good =
      build_csr(testing::weighted_edge_list<int32_t>(3, {{0, 1, 1}, {0, 2, 2}, {2, 0, 3}}), {});
  EXPECT_EQ(logic_error_of([&] { good.validate(); }), "");
  CsrGraph bad = good;
  bad.out_offsets[1] = 3;
  bad.out_offsets[2] = 2;
  EXPECT_EQ(logic_error_of([&] { bad.validate(); }), "out-edges: offsets decrease at vertex 1");
  bad = good;
  bad.out_targets[1] = 9;
  EXPECT_EQ(logic_error_of([&] { bad.validate(); }), "out-edges: edge 1 names vertex 9 >= 3");
  bad = good;
  bad.out_weights.pop_back();
  EXPECT_EQ(logic_error_of([&] { bad.validate(); }), "out-edges: weights array has the wrong size");
  bad = good;
  bad.build_transpose();
  bad.in_sources[0] = 3;
  EXPECT_EQ(logic_error_of([&] { bad.validate(); }), "in-edges: edge 0 names vertex 3 >= 3");
}

// A weighted graph without edges holds no weight, and is valid (it was
// refused as "the wrong size" when Python built one from no edges).
TEST(CsrGraph, WeightedGraphWithoutEdgesIsValid) {
  const CsrGraph graph = build_csr(testing::weighted_edge_list<int32_t>(3, {}), {});
  EXPECT_TRUE(graph.has_weights());
  EXPECT_EQ(logic_error_of([&] { graph.validate(); }), "");
}

TEST(CsrGraph, WeightAccessChecksTheType) {
  const CsrGraph graph = build_csr(testing::weighted_edge_list<int32_t>(2, {{0, 1, -5}}), {});
  EXPECT_EQ(graph.out_weight<int32_t>(0), -5);
  EXPECT_EQ(logic_error_of([&] { graph.out_weight<float>(0); }),
            "graph weights are int32, not float32");
  const CsrGraph unweighted = build_csr(edge_list(2, {{0, 1}}), {});
  EXPECT_EQ(logic_error_of([&] { unweighted.out_weight<int32_t>(0); }),
            "graph weights are none, not int32");
}

TEST(CsrGraph, BuildAndDropTranspose) {
  CsrGraph graph = build_csr(edge_list(3, {{2, 0}, {0, 1}, {1, 0}}), {});
  graph.build_transpose();
  EXPECT_EQ(in_lists(graph), (Lists{{1, 2}, {0}, {}}));
  EXPECT_EQ(graph.in_degree(0), 2u);
  graph.drop_transpose();
  EXPECT_FALSE(graph.has_transpose());
  graph.validate();
}

TEST(Rebuild, KeepsAnUnchangedGraphAndManagesTheTranspose) {
  const CsrGraph original = build_csr(edge_list(3, {{0, 2}, {2, 1}, {0, 1}}), {});
  BuildOptions options;
  options.transpose = true;
  CsrGraph with_transpose = rebuild(CsrGraph(original), options);
  EXPECT_EQ(out_lists(with_transpose), out_lists(original));
  EXPECT_EQ(in_lists(with_transpose), (Lists{{}, {0, 2}, {0}}));
  const CsrGraph without = rebuild(std::move(with_transpose), {});
  EXPECT_FALSE(without.has_transpose());
  testing::expect_same_graph(without, original);
}

TEST(Rebuild, AppliesOptionsLikeBuildCsr) {
  const auto edges =
      weighted_edge_list<int32_t>(4, {{0, 1, 4}, {1, 1, 2}, {3, 0, 1}, {0, 1, 3}, {2, 3, 8}});
  const CsrGraph loaded = build_csr(EdgeList(edges), unsorted());
  BuildOptions options;
  options.symmetrize = true;
  options.drop_self_loops = true;
  options.drop_duplicates = true;
  options.transpose = true;
  const CsrGraph rebuilt = rebuild(CsrGraph(loaded), options);
  rebuilt.validate();
  CsrGraph direct = build_csr(EdgeList(edges), options);
  testing::expect_same_graph(rebuilt, direct);
}

TEST(Rebuild, SortsAnUnsortedGraph) {
  const CsrGraph loaded = build_csr(edge_list(2, {{0, 1}, {0, 0}, {1, 1}, {1, 0}}), unsorted());
  const CsrGraph rebuilt = rebuild(CsrGraph(loaded), {});
  EXPECT_TRUE(rebuilt.sorted);
  EXPECT_EQ(out_lists(rebuilt), (Lists{{0, 1}, {0, 1}}));
}

TEST(Rebuild, AppliesANewWeightRule) {
  const CsrGraph loaded = build_csr(weighted_edge_list<int32_t>(2, {{0, 1, 7}, {1, 0, 9}}), {});
  BuildOptions options;
  options.weights.source = WeightRule::Source::unit;
  EXPECT_EQ(weighted_out_lists<int32_t>(rebuild(CsrGraph(loaded), options)),
            (WeightedLists<int32_t>{{{1, 1}}, {{0, 1}}}));
}

TEST(CsrBuildingBlocks, CountOccurrencesAndOffsets) {
  const std::vector<VertexId> ids{3, 0, 3, 3, 1};
  const std::vector<uint64_t> counts = count_occurrences(ids, 5);
  EXPECT_EQ(counts, (std::vector<uint64_t>{1, 1, 0, 3, 0}));
  EXPECT_EQ(count_to_offsets(counts), (std::vector<uint64_t>{0, 1, 2, 2, 5, 5}));
  EXPECT_EQ(count_to_offsets({}), (std::vector<uint64_t>{0}));
}

TEST(CsrBuildingBlocks, PrefixSumOverManyChunks) {
  std::vector<uint64_t> counts(100003);
  for (uint64_t i = 0; i < counts.size(); ++i) counts[i] = i % 7;
  const std::vector<uint64_t> offsets = count_to_offsets(counts);
  uint64_t running = 0;
  for (uint64_t i = 0; i < counts.size(); ++i) {
    ASSERT_EQ(offsets[i], running) << i;
    running += counts[i];
  }
  EXPECT_EQ(offsets.back(), running);
}

TEST(CsrBuildingBlocks, RemoveDuplicateNeighborsKeepsTheFirst) {
  std::vector<uint64_t> offsets{0, 4, 4, 6};
  std::vector<VertexId> neighbors{1, 1, 2, 2, 0, 0};
  std::vector<uint32_t> weights{10, 11, 12, 13, 14, 15};
  EXPECT_EQ(remove_duplicate_neighbors(offsets, neighbors, &weights), 3u);
  EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 2, 2, 3}));
  EXPECT_EQ(neighbors, (std::vector<VertexId>{1, 2, 0}));
  EXPECT_EQ(weights, (std::vector<uint32_t>{10, 12, 14}));
}

TEST(CsrBuildingBlocks, WeightOrderKeyOrdersNumerically) {
  const std::vector<float> floats{-1e30f, -2.5f, -0.0f, 0.0f, 1e-30f, 3.0f, 1e30f};
  for (size_t i = 1; i < floats.size(); ++i)
    EXPECT_LE(weight_order_key(testing::word_of(floats[i - 1]), WeightType::float32),
              weight_order_key(testing::word_of(floats[i]), WeightType::float32));
  const std::vector<int32_t> ints{INT32_MIN, -5, -1, 0, 1, INT32_MAX};
  for (size_t i = 1; i < ints.size(); ++i)
    EXPECT_LT(weight_order_key(testing::word_of(ints[i - 1]), WeightType::int32),
              weight_order_key(testing::word_of(ints[i]), WeightType::int32));
}

}  // namespace
}  // namespace irgl
