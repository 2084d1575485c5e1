// Synthetic graph generators and their specs. (Sameness across thread
// counts is tested by tests/lit/graph/generate-threads.test, which runs the
// tool under several IRGL_THREADS values.)
#include "irgl/graph/generators.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "graph_test_util.h"
#include "irgl/graph/stats.h"

namespace irgl {
namespace {

void expect_same_edges(const EdgeList& a, const EdgeList& b) {
  EXPECT_EQ(a.num_vertices, b.num_vertices);
  EXPECT_EQ(a.sources, b.sources);
  EXPECT_EQ(a.targets, b.targets);
}

void expect_ids_in_range(const EdgeList& edges) {
  for (uint64_t e = 0; e < edges.size(); ++e) {
    ASSERT_LT(edges.sources[e], edges.num_vertices) << e;
    ASSERT_LT(edges.targets[e], edges.num_vertices) << e;
  }
}

std::vector<uint64_t> sorted_out_degrees(const EdgeList& edges) {
  std::vector<uint64_t> degrees(edges.num_vertices, 0);
  for (VertexId u : edges.sources) ++degrees[u];
  std::sort(degrees.begin(), degrees.end());
  return degrees;
}

TEST(Rmat, SizesFollowScaleAndEdgeFactor) {
  RmatParams params;
  params.scale = 12;
  params.edge_factor = 8;
  const EdgeList edges = generate_rmat(params, false);
  EXPECT_EQ(edges.num_vertices, 4096u);
  EXPECT_EQ(edges.size(), 8u * 4096u);
  EXPECT_EQ(edges.targets.size(), edges.size());
  EXPECT_EQ(edges.weight_type, WeightType::none);
  expect_ids_in_range(edges);
  EXPECT_EQ(edges.name, "rmat:scale=12,edge-factor=8,seed=1");
}

TEST(Rmat, IsDeterministicPerSeed) {
  RmatParams params;
  params.scale = 14;
  expect_same_edges(generate_rmat(params, false), generate_rmat(params, false));
  RmatParams reseeded = params;
  reseeded.seed = 2;
  EXPECT_NE(generate_rmat(reseeded, false).sources, generate_rmat(params, false).sources);
}

TEST(Rmat, SpecShorthandAndDefaults) {
  RmatParams params;
  params.scale = 11;
  expect_same_edges(generate_from_spec("rmat:11", false), generate_rmat(params, false));
  expect_same_edges(generate_from_spec("rmat:scale=11,edge-factor=16,seed=1,permute=1", false),
                    generate_rmat(params, false));
  params.a = 0.45;
  params.b = 0.15;
  params.c = 0.15;
  params.seed = 9;
  params.edge_factor = 3;
  expect_same_edges(
      generate_from_spec("rmat:scale=11,a=0.45,b=0.15,c=0.15,seed=9,edge-factor=3", false),
      generate_rmat(params, false));
}

TEST(Rmat, QuadrantProbabilitiesPlaceEdges) {
  RmatParams params;
  params.scale = 6;
  params.edge_factor = 2;
  params.permute = false;
  params.a = 1, params.b = 0, params.c = 0;  // always the top-left quadrant
  EdgeList edges = generate_rmat(params, false);
  EXPECT_EQ(edges.sources, std::vector<VertexId>(128, 0));
  EXPECT_EQ(edges.targets, std::vector<VertexId>(128, 0));
  params.a = 0, params.b = 1;  // always top-right: row 0, last column
  edges = generate_rmat(params, false);
  EXPECT_EQ(edges.sources, std::vector<VertexId>(128, 0));
  EXPECT_EQ(edges.targets, std::vector<VertexId>(128, 63));
  params.b = 0, params.c = 1;  // bottom-left
  edges = generate_rmat(params, false);
  EXPECT_EQ(edges.sources, std::vector<VertexId>(128, 63));
  EXPECT_EQ(edges.targets, std::vector<VertexId>(128, 0));
  params.c = 0;  // d = 1: bottom-right
  edges = generate_rmat(params, false);
  EXPECT_EQ(edges.sources, std::vector<VertexId>(128, 63));
  EXPECT_EQ(edges.targets, std::vector<VertexId>(128, 63));
}

TEST(Rmat, PermutationIsABijectionAppliedToBothEnds) {
  RmatParams params;
  params.scale = 13;  // odd, so the Feistel halves differ in width
  params.permute = false;
  const EdgeList plain = generate_rmat(params, false);
  params.permute = true;
  const EdgeList permuted = generate_rmat(params, false);
  std::map<VertexId, VertexId> image;
  auto map = [&](VertexId from, VertexId to) {
    const auto [it, inserted] = image.emplace(from, to);
    EXPECT_EQ(it->second, to) << "vertex " << from << " maps to two ids";
  };
  for (uint64_t e = 0; e < plain.size(); ++e) {
    map(plain.sources[e], permuted.sources[e]);
    map(plain.targets[e], permuted.targets[e]);
  }
  std::set<VertexId> distinct;
  for (auto [from, to] : image) distinct.insert(to);
  EXPECT_EQ(distinct.size(), image.size()) << "two vertices map to one id";
  EXPECT_EQ(sorted_out_degrees(plain), sorted_out_degrees(permuted));
  // The unpermuted generator favours low ids; the permutation spreads them.
  EXPECT_NE(image.at(0), 0u);
}

TEST(Rmat, DegreesAreSkewedUnlessTheQuadrantsAreEqual) {
  const CsrGraph skewed = build_csr(generate_from_spec("rmat:scale=14,edge-factor=16", false), {});
  const GraphStats skewed_stats = compute_stats(skewed, {false});
  EXPECT_GT(skewed_stats.out_degree.max, 20 * skewed_stats.out_degree.average);
  EXPECT_GT(skewed_stats.out_degree.zero, skewed.num_vertices() / 10);

  const CsrGraph flat =
      build_csr(generate_from_spec("rmat:scale=14,edge-factor=16,a=0.25,b=0.25,c=0.25", false), {});
  const GraphStats flat_stats = compute_stats(flat, {false});
  EXPECT_LT(flat_stats.out_degree.max, 3 * flat_stats.out_degree.average);
}

TEST(Grid, IsAFourNeighbourMeshInBothDirections) {
  const EdgeList edges = generate_from_spec("grid:3x4", false);
  EXPECT_EQ(edges.num_vertices, 12u);
  EXPECT_EQ(edges.size(), 2u * (3 * 3 + 2 * 4));
  std::set<std::pair<VertexId, VertexId>> arcs;
  for (uint64_t e = 0; e < edges.size(); ++e) {
    const VertexId u = edges.sources[e], v = edges.targets[e];
    const int du = int(u / 4) - int(v / 4), dv = int(u % 4) - int(v % 4);
    EXPECT_EQ(std::abs(du) + std::abs(dv), 1) << u << " -> " << v;
    EXPECT_TRUE(arcs.insert({u, v}).second) << "repeated " << u << " -> " << v;
  }
  for (auto [u, v] : arcs) EXPECT_TRUE(arcs.count({v, u})) << u << " -> " << v << " has no reverse";

  std::vector<uint64_t> degree(12, 0);
  for (VertexId u : edges.sources) ++degree[u];
  EXPECT_EQ(degree, (std::vector<uint64_t>{2, 3, 3, 2, 3, 4, 4, 3, 2, 3, 3, 2}));
}

TEST(Grid, ListsEachVertexsEdgesInOrder) {
  const EdgeList edges = generate_grid({5, 7});
  EXPECT_TRUE(std::is_sorted(edges.sources.begin(), edges.sources.end()));
  for (uint64_t e = 1; e < edges.size(); ++e) {
    if (edges.sources[e] == edges.sources[e - 1]) {
      EXPECT_LT(edges.targets[e - 1], edges.targets[e]);
    }
  }
  EXPECT_EQ(edges.name, "grid:5x7");
}

TEST(Grid, DegenerateShapes) {
  EXPECT_EQ(generate_from_spec("grid:1x1", false).size(), 0u);
  const EdgeList line = generate_from_spec("grid:rows=1,cols=5", false);
  EXPECT_EQ(line.num_vertices, 5u);
  EXPECT_EQ(line.size(), 8u);
  expect_same_edges(generate_from_spec("grid:rows=6,cols=2", false), generate_grid({6, 2}));
}

TEST(Uniform, SizesAndDeterminism) {
  const EdgeList edges = generate_from_spec("uniform:vertices=1000,edges=50000,seed=4", false);
  EXPECT_EQ(edges.num_vertices, 1000u);
  EXPECT_EQ(edges.size(), 50000u);
  expect_ids_in_range(edges);
  expect_same_edges(edges, generate_uniform({1000, 50000, 4}));
  EXPECT_NE(edges.targets, generate_uniform({1000, 50000, 5}).targets);
  // Every vertex is hit about 50 times as a source; none should be far off.
  const std::vector<uint64_t> degrees = sorted_out_degrees(edges);
  EXPECT_GT(degrees.front(), 20u);
  EXPECT_LT(degrees.back(), 90u);
}

TEST(GeneratorSpecs, ErrorsNameTheSpecAndTheProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"rmat:", "rmat:: error: missing parameter 'scale'"},
      {"rmat:x", "rmat:x: error: parameter 'scale': 'x' is not a non-negative integer"},
      {"rmat:0", "rmat:0: error: scale 0 is out of range 1..31"},
      {"rmat:32", "rmat:32: error: scale 32 is out of range 1..31"},
      {"rmat:scale=10,size=3",
       "rmat:scale=10,size=3: error: unknown parameter 'size' (expected scale, edge-factor, seed, "
       "a, b, c, permute)"},
      {"rmat:scale=10,scale=11", "rmat:scale=10,scale=11: error: parameter 'scale' is given twice"},
      {"rmat:scale=10,,seed=1", "rmat:scale=10,,seed=1: error: expected key=value, found ''"},
      {"rmat:scale=10,seed=-1",
       "rmat:scale=10,seed=-1: error: parameter 'seed': '-1' is not a non-negative integer"},
      {"rmat:scale=10,seed=99999999999999999999",
       "rmat:scale=10,seed=99999999999999999999: error: parameter 'seed': 99999999999999999999 "
       "does not fit in 64 bits"},
      {"rmat:scale=10,a=big", "rmat:scale=10,a=big: error: parameter 'a': 'big' is not a number"},
      {"rmat:scale=10,a=0.6,b=0.3,c=0.2",
       "rmat:scale=10,a=0.6,b=0.3,c=0.2: error: a + b + c = 1.100000 exceeds 1"},
      {"rmat:scale=10,b=-0.1",
       "rmat:scale=10,b=-0.1: error: probability b = -0.100000 is not in [0, 1]"},
      {"rmat:scale=10,permute=2",
       "rmat:scale=10,permute=2: error: parameter 'permute' must be 0 or 1"},
      {"rmat:scale=10,edge-factor=0",
       "rmat:scale=10,edge-factor=0: error: edge-factor 0 is out of range 1..4294967295"},
      {"rmat:scale=31,edge-factor=1024",
       "rmat:scale=31,edge-factor=1024: error: 2199023255552 edges exceed the generator limit of "
       "2^40"},
      {"grid:10", "grid:10: error: expected ROWSxCOLS or rows=R,cols=C, found '10'"},
      {"grid:10x", "grid:10x: error: parameter 'cols': '' is not a non-negative integer"},
      {"grid:0x5", "grid:0x5: error: a grid needs at least 1 row and 1 column"},
      {"grid:rows=3", "grid:rows=3: error: missing parameter 'cols'"},
      {"grid:100000x100000",
       "grid:100000x100000: error: a 100000 x 100000 grid has more than 2^32-1 vertices"},
      {"uniform:vertices=10", "uniform:vertices=10: error: missing parameter 'edges'"},
      {"uniform:vertices=0,edges=5",
       "uniform:vertices=0,edges=5: error: vertices 0 is out of range 1..4294967295"},
      {"uniform:vertices=4294967296,edges=5",
       "uniform:vertices=4294967296,edges=5: error: vertices 4294967296 is out of range "
       "1..4294967295"},
      {"uniform:vertices=10,edges=2000000000000",
       "uniform:vertices=10,edges=2000000000000: error: 2000000000000 edges exceed the generator "
       "limit of 2^40"},
      {"uniform:vertices=10,edges=5,directed=1",
       "uniform:vertices=10,edges=5,directed=1: error: unknown parameter 'directed' (expected "
       "vertices, edges, seed)"},
      {"kron:10", "kron:10: error: unknown generator 'kron' (expected rmat, grid or uniform)"},
  };
  for (auto [spec, message] : cases)
    EXPECT_EQ(testing::input_error_of([&] { generate_from_spec(spec, false); }), message);
}

TEST(GeneratorSpecs, DirectCallsCheckTheirParameters) {
  RmatParams params;
  params.scale = 0;
  EXPECT_EQ(testing::input_error_of([&] { generate_rmat(params, false); }),
            "rmat:scale=0,edge-factor=16,seed=1: error: scale 0 is out of range 1..31");
  EXPECT_EQ(testing::input_error_of([&] {
              generate_grid({0, 3});
            }),
            "grid:0x3: error: a grid needs at least 1 row and 1 column");
}

}  // namespace
}  // namespace irgl
