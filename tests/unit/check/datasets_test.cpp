// The checker's reference algorithms on the real datasets: triangle counts,
// component counts and degeneracy against the datasets README, and bfs, sssp,
// cc and k-core against the independent implementations in independent.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ostream>

#include "compare.h"
#include "independent.h"
#include "irgl/graph/edge_list.h"
#include "irgl/graph/load.h"
#include "reference.h"
#include "test_paths.h"

namespace irgl::check {
namespace {

// Figures from ../shared/datasets/README.md; 0 where the README gives none.
struct DatasetFacts {
  const char* file;
  uint64_t vertices;
  uint64_t undirected_edges;
  uint64_t components;
  uint64_t triangles;
  uint32_t kmax;
};

const DatasetFacts kDatasets[] = {
    {"road/luxembourg_osm.mtx.xz", 114599, 119666, 1, 68, 2},
    {"road/usroads.mtx.xz", 129164, 165435, 56, 4237, 3},
    {"road/moscow_roads.txt.xz", 411992, 450919, 440, 288, 2},
    {"road/moscow_roads.gr.xz", 411992, 450919, 440, 288, 2},
    {"road/rome99.gr.xz", 3353, 4831, 1, 132, 2},
    {"road/minnesota.mtx.xz", 2642, 3303, 2, 53, 2},
    {"road/monaco.wel.xz", 1590, 2129, 1, 81, 2},
    {"powerlaw/uk-2007-05-100000.txt.xz", 100000, 2779575, 1, 59926808, 131},
    {"powerlaw/cnr-2000.txt.xz", 325557, 2738969, 1, 20977629, 83},
    {"powerlaw/musae_git_edges.csv.xz", 37700, 289003, 1, 523810, 34},
    {"powerlaw/ego-twitter-undirected.txt.xz", 81306, 1342296, 1, 13082506, 96},
    {"spmv/bcsstk16.mtx.xz", 4884, 0, 0, 1512964, 35},
    {"spmv/bcsstk13.mtx.xz", 2003, 0, 0, 342300, 37},
    {"spmv/bips98_606.mtx.xz", 7135, 0, 0, 10743, 7},
    {"spmv/west0067.mtx.xz", 67, 0, 0, 120, 6},
    {"tiny/karate.mtx.xz", 34, 78, 1, 45, 4},
    {"tiny/chesapeake.mtx.xz", 39, 170, 1, 194, 6},
    {"tiny/dolphins.mtx.xz", 62, 159, 1, 95, 4},
    {"tiny/polbooks.mtx.xz", 105, 441, 1, 560, 6},
    {"tiny/netscience.mtx.xz", 1589, 2742, 396, 3764, 19},
};

// Names the dataset in test listings (instead of dumping the struct's bytes).
void PrintTo(const DatasetFacts& facts, std::ostream* out) { *out << facts.file; }

std::string dataset_path(const std::string& file) { return testing::dataset(file); }

class DatasetTest : public ::testing::TestWithParam<DatasetFacts> {
 protected:
  // The dataset as a program loads it by default (file weights, nothing
  // dropped).
  CsrGraph load() const {
    LoadOptions options;
    options.show_progress = false;
    return load_graph(dataset_path(GetParam().file), options);
  }
};

TEST_P(DatasetTest, ReferenceMatchesTheReadmeTable) {
  const DatasetFacts& facts = GetParam();
  IRGL_REQUIRE_DATASET(dataset_path(facts.file));
  const CsrGraph graph = load();
  ASSERT_EQ(graph.num_vertices(), facts.vertices);
  const UndirectedGraph undirected(graph);
  if (facts.undirected_edges) {
    EXPECT_EQ(undirected.num_edges(), facts.undirected_edges);
  }
  if (facts.components) {
    EXPECT_EQ(reference_components(undirected).count, facts.components);
  }
  EXPECT_EQ(reference_triangles(undirected), facts.triangles);
  EXPECT_EQ(max_core_number(reference_core_numbers(undirected)), facts.kmax);
}

// The vertex with the most out-edges (the lowest such id): a source that
// reaches much of the graph.
VertexId busiest_vertex(const CsrGraph& graph) {
  VertexId best = 0;
  for (VertexId v = 1; v < graph.num_vertices(); ++v)
    if (graph.out_degree(v) > graph.out_degree(best)) best = v;
  return best;
}

// The graph's own weights when they are non-negative int32, otherwise
// deterministic hashed weights in 1..1000.
CsrGraph with_sssp_weights(CsrGraph graph) {
  bool usable = graph.weight_type == WeightType::int32;
  for (EdgeId e = 0; usable && e < graph.num_edges(); ++e)
    usable = graph.out_weight<int32_t>(e) >= 0;
  if (usable) return graph;
  graph.weight_type = WeightType::int32;
  graph.out_weights.resize(graph.num_edges());
  for (VertexId u = 0; u < graph.num_vertices(); ++u)
    for (EdgeId e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e)
      graph.out_weights[e] = hashed_weight(u, graph.out_targets[e], 1000, 1);
  return graph;
}

TEST_P(DatasetTest, ReferenceAgreesWithIndependentImplementations) {
  IRGL_REQUIRE_DATASET(dataset_path(GetParam().file));
  const CsrGraph graph = load();
  const VertexId source = busiest_vertex(graph);
  EXPECT_EQ(reference_bfs(graph, source), testing::queue_bfs(graph, source));

  const CsrGraph weighted = with_sssp_weights(load());
  EXPECT_EQ(reference_sssp(weighted, source), testing::heap_dijkstra(weighted, source));

  const UndirectedGraph undirected(graph);
  const Components components = reference_components(undirected);
  const Verdict same_partition =
      compare_partitions(components, testing::union_find_components(graph), 5);
  EXPECT_TRUE(same_partition.passed) << same_partition.summary;

  EXPECT_EQ(reference_core_numbers(undirected), testing::peeling_core_numbers(graph));
}

std::string test_name(const ::testing::TestParamInfo<DatasetFacts>& info) {
  std::string name = info.param.file;
  name = name.substr(name.find('/') + 1);
  name = name.substr(0, name.find('.'));
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  // moscow_roads comes as text and as DIMACS.
  if (std::string(info.param.file).find(".gr.") != std::string::npos) name += "_gr";
  return name;
}

INSTANTIATE_TEST_SUITE_P(Datasets, DatasetTest, ::testing::ValuesIn(kDatasets), test_name);

}  // namespace
}  // namespace irgl::check
