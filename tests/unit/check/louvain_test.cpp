// The checker's modularity and its sequential Louvain on graphs whose
// answers are worked out by hand (networkx gives the same modularities).
#include "louvain.h"

#include <gtest/gtest.h>

#include "test_graphs.h"

namespace irgl::check {
namespace {

using testing::make_graph;

// Two triangles {0, 1, 2} and {3, 4, 5} joined by the edge 2 - 3, each edge
// listed once (the modularity reads the graph as undirected).
CsrGraph two_triangles() {
  return make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}});
}

TEST(Modularity, OfTwoTrianglesIsNetworkxs) {
  // m = 7: each triangle holds 3 edges and degree 7, Q = 2 * (3/7 - (7/14)^2).
  const std::vector<int64_t> halves{0, 0, 0, 1, 1, 1};
  EXPECT_DOUBLE_EQ(modularity(two_triangles(), halves, 1), 2 * (3.0 / 7 - 0.25));
  EXPECT_DOUBLE_EQ(modularity(two_triangles(), {5, 5, 5, 5, 5, 5}, 1), 0);
  EXPECT_DOUBLE_EQ(modularity(two_triangles(), halves, 0), 6.0 / 7);
}

TEST(Modularity, CountsASelfLoopTwiceInItsVertexsWeight) {
  // A loop at 0: m = 8, the first triangle's degree 9 and 4 edges inside,
  // Q = 4/8 - (9/16)^2 + 3/8 - (7/16)^2 = 0.3671875, as networkx computes it.
  const CsrGraph graph = make_graph(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}, {0, 0}});
  EXPECT_DOUBLE_EQ(modularity(graph, {0, 0, 0, 1, 1, 1}, 1), 0.3671875);
}

TEST(ReferenceLouvain, FindsTheTriangles) {
  const std::vector<int64_t> labels = reference_louvain(two_triangles(), 1, 1e-7);
  EXPECT_EQ(labels[0], labels[1]);
  EXPECT_EQ(labels[0], labels[2]);
  EXPECT_EQ(labels[3], labels[4]);
  EXPECT_EQ(labels[3], labels[5]);
  EXPECT_NE(labels[0], labels[3]);
}

TEST(ReferenceLouvain, LeavesAGraphWithoutEdgesInSingletons) {
  EXPECT_EQ(reference_louvain(make_graph(3, {}), 1, 1e-7), (std::vector<int64_t>{0, 1, 2}));
}

}  // namespace
}  // namespace irgl::check
