// The readers on the real datasets (../shared/datasets, see its README):
// vertex and stored edge counts must match the README's tables. Each test
// skips itself when its file is absent.
#include <gtest/gtest.h>

#include "format_test_util.h"
#include "irgl/support/error.h"
#include "test_paths.h"

namespace irgl::testing {
namespace {

struct Dataset {
  const char* file;
  uint64_t vertices;  // |V| in the README
  uint64_t stored;    // |E| stored: data lines (one triangle of a symmetric .mtx)
  WeightType weights;
  bool symmetric;  // a symmetric .mtx: stored entries are mirrored
};

const Dataset kDatasets[] = {
    {"road/luxembourg_osm.mtx.xz", 114599, 119666, WeightType::none, true},
    {"road/usroads.mtx.xz", 129164, 165435, WeightType::none, true},
    {"road/moscow_roads.txt.xz", 411992, 451135, WeightType::none, false},
    {"road/moscow_roads.gr.xz", 411992, 902270, WeightType::int32, false},
    {"road/rome99.gr.xz", 3353, 8870, WeightType::int32, false},
    {"road/minnesota.mtx.xz", 2642, 3303, WeightType::none, true},
    {"road/monaco.wel.xz", 1590, 4263, WeightType::int32, false},
    {"powerlaw/uk-2007-05-100000.txt.xz", 100000, 3050615, WeightType::none, false},
    {"powerlaw/cnr-2000.txt.xz", 325557, 3216152, WeightType::none, false},
    {"powerlaw/musae_git_edges.csv.xz", 37700, 289003, WeightType::none, false},
    {"powerlaw/ego-twitter-undirected.txt.xz", 81306, 1342310, WeightType::none, false},
    {"spmv/bcsstk16.mtx.xz", 4884, 147631, WeightType::float32, true},
    {"spmv/bcsstk13.mtx.xz", 2003, 42943, WeightType::float32, true},
    {"spmv/bips98_606.mtx.xz", 7135, 34738, WeightType::float32, false},
    {"spmv/west0067.mtx.xz", 67, 294, WeightType::float32, false},
    {"tiny/karate.mtx.xz", 34, 78, WeightType::none, true},
    {"tiny/chesapeake.mtx.xz", 39, 170, WeightType::none, true},
    {"tiny/dolphins.mtx.xz", 62, 159, WeightType::none, true},
    {"tiny/polbooks.mtx.xz", 105, 441, WeightType::none, true},
    {"tiny/netscience.mtx.xz", 1589, 2742, WeightType::float32, true},
};

class DatasetTest : public ::testing::TestWithParam<Dataset> {};

TEST_P(DatasetTest, CountsMatchTheReadme) {
  const Dataset& dataset = GetParam();
  const std::string path = ::irgl::testing::dataset(dataset.file);
  IRGL_REQUIRE_DATASET(path);
  const EdgeList edges = read_edges(path);
  EXPECT_EQ(edges.num_vertices, dataset.vertices);
  EXPECT_EQ(edges.weight_type, dataset.weights);
  EXPECT_EQ(edges.symmetric, dataset.symmetric);
  EXPECT_EQ(edges.weights.size(), dataset.weights == WeightType::none ? 0 : edges.size());
  if (!dataset.symmetric) {
    EXPECT_EQ(edges.size(), dataset.stored);
    return;
  }
  // Every stored entry appears once, and its mirror once more unless it is
  // on the diagonal.
  uint64_t diagonal = 0;
  for (uint64_t e = 0; e < edges.size(); ++e) diagonal += edges.sources[e] == edges.targets[e];
  EXPECT_EQ(edges.size(), 2 * dataset.stored - diagonal);
}

std::string test_name(const ::testing::TestParamInfo<Dataset>& info) {
  std::string name = info.param.file;
  name = name.substr(0, name.rfind(".xz"));
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Readme, DatasetTest, ::testing::ValuesIn(kDatasets), test_name);

// The README's "nnz (full)" column: both triangles of the SuiteSparse matrices.
TEST(Datasets, SymmetricMatricesExpandToTheirFullNonzeroCount) {
  for (const auto& [file, full] : {std::pair<const char*, uint64_t>{"spmv/bcsstk16.mtx.xz", 290378},
                                   {"spmv/bcsstk13.mtx.xz", 83883}}) {
    const std::string path = dataset(file);
    IRGL_REQUIRE_DATASET(path);
    EXPECT_EQ(read_edges(path).size(), full) << file;
  }
}

// moscow_roads.xy.txt holds coordinates, not edges: loading it as a graph
// must fail rather than invent edges from them.
TEST(Datasets, CoordinateFileIsNotAGraph) {
  const std::string path = dataset("road/moscow_roads.xy.txt.xz");
  IRGL_REQUIRE_DATASET(path);
  EXPECT_EQ(input_error_of([&] { read_edges(path); }),
            path + ":3: error: negative vertex id -16055");
}

}  // namespace
}  // namespace irgl::testing
