// Level-synchronous BFS on the GPU (Pipe + queue + push_unique, in
// validation.h) against an independent CPU BFS, on hand-made graphs.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/validation.h"
#include "irgl/graph/edge_list.h"

namespace irgl::gpu {
namespace {

using irgl::testing::vectors_equal;

// A plain FIFO BFS written for this test (not the library's CPU reference).
std::vector<uint32_t> expected_levels(const CsrGraph& graph, VertexId source) {
  std::vector<uint32_t> levels(graph.num_vertices(), kUnreachedLevel);
  std::deque<VertexId> pending{source};
  levels[source] = 0;
  while (!pending.empty()) {
    const VertexId v = pending.front();
    pending.pop_front();
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e) {
      const VertexId w = graph.out_targets[e];
      if (levels[w] == kUnreachedLevel) {
        levels[w] = levels[v] + 1;
        pending.push_back(w);
      }
    }
  }
  return levels;
}

struct EdgeBuilder {
  EdgeList edges;
  EdgeBuilder(const std::string& name, uint64_t n) {
    edges.name = name;
    edges.num_vertices = n;
  }
  void add(VertexId u, VertexId v) {
    edges.sources.push_back(u);
    edges.targets.push_back(v);
  }
  CsrGraph build() { return build_csr(std::move(edges), BuildOptions{}); }
};

// A 40 x 60 grid whose horizontal edges go both ways and vertical edges only
// downwards, a few random shortcuts, a separate component (never reached
// from the grid) and isolated vertices: 3000 vertices.
CsrGraph grid_with_extras() {
  const VertexId rows = 40, cols = 60, grid = rows * cols;
  EdgeBuilder builder("grid-with-extras", 3000);
  auto id = [cols](VertexId r, VertexId c) { return r * cols + c; };
  for (VertexId r = 0; r < rows; ++r)
    for (VertexId c = 0; c < cols; ++c) {
      if (c + 1 < cols) {
        builder.add(id(r, c), id(r, c + 1));
        builder.add(id(r, c + 1), id(r, c));
      }
      if (r + 1 < rows) builder.add(id(r, c), id(r + 1, c));
    }
  std::mt19937 random(3);
  std::uniform_int_distribution<VertexId> in_grid(0, grid - 1);
  for (int k = 0; k < 40; ++k) builder.add(in_grid(random), in_grid(random));
  // Component 2400..2899: a ring with chords; it points into the grid but
  // nothing points back. 2900..2999 stay isolated.
  for (VertexId v = 2400; v < 2900; ++v) {
    builder.add(v, v + 1 < 2900 ? v + 1 : 2400);
    builder.add(v, 2400 + (v * 7) % 500);
  }
  builder.add(2400, 0);
  return builder.build();
}

void expect_gpu_bfs_matches(const CsrGraph& graph, VertexId source) {
  SCOPED_TRACE(graph.name + " from " + std::to_string(source));
  const std::vector<uint32_t> expected = expected_levels(graph, source);
  const DeviceGraph device(graph);
  const GpuBfsResult result = bfs_levels_on_gpu(device, source);
  EXPECT_TRUE(vectors_equal(expected, result.levels));
  uint64_t reached = 0;
  uint32_t depth = 0;
  for (uint32_t level : expected)
    if (level != kUnreachedLevel) {
      ++reached;
      depth = std::max(depth, level);
    }
  EXPECT_EQ(result.reached, reached);
  EXPECT_EQ(result.rounds, depth + 1);
  EXPECT_GE(result.milliseconds, 0.0f);
  // The library's CPU reference and comparison agree with this test's.
  EXPECT_TRUE(vectors_equal(expected, bfs_levels_on_cpu(graph, source)));
  EXPECT_EQ(compare_levels(expected, result.levels), "");
}

TEST(GpuBfs, GridWithShortcutsAndUnreachedParts) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = grid_with_extras();
  expect_gpu_bfs_matches(graph, 0);
  expect_gpu_bfs_matches(graph, 1234);  // cannot go up: upper rows unreached
  expect_gpu_bfs_matches(graph, 2450);  // reaches its component and the grid
  expect_gpu_bfs_matches(graph, 2950);  // isolated: only itself
}

TEST(GpuBfs, LongPathNeedsManyRounds) {
  IRGL_REQUIRE_GPU();
  EdgeBuilder builder("path", 3000);
  for (VertexId v = 0; v + 1 < 3000; ++v) builder.add(v, v + 1);
  expect_gpu_bfs_matches(builder.build(), 0);
}

TEST(GpuBfs, StarsAndDuplicateEdges) {
  IRGL_REQUIRE_GPU();
  // Vertex 0 points to everything (twice, plus a self-loop); every vertex
  // points back to 0 and to its successor: a frontier of 4000 in round 1
  // whose pushes all collide on visited vertices.
  EdgeBuilder builder("star", 4001);
  builder.add(0, 0);
  for (VertexId v = 1; v <= 4000; ++v) {
    builder.add(0, v);
    builder.add(0, v);
    builder.add(v, 0);
    builder.add(v, v % 4000 + 1);
  }
  const CsrGraph graph = builder.build();
  expect_gpu_bfs_matches(graph, 0);
  expect_gpu_bfs_matches(graph, 17);
}

TEST(GpuBfs, DegreeCheckPassesAndCatchesADifferentGraph) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = grid_with_extras();
  const DeviceGraph device(graph);
  EXPECT_EQ(check_degrees_on_gpu(device, graph), "");
  CsrGraph other = grid_with_extras();
  other.out_offsets[5] += 1;  // moves an edge from vertex 5 to vertex 4
  const std::string problem = check_degrees_on_gpu(device, other);
  EXPECT_NE(problem.find("out degree of vertex 4"), std::string::npos) << problem;
  EXPECT_NE(problem.find("2 mismatches"), std::string::npos) << problem;
}

TEST(GpuBfs, RejectsASourceOutsideTheGraph) {
  IRGL_REQUIRE_GPU();
  EdgeBuilder builder("tiny", 3);
  builder.add(0, 1);
  const DeviceGraph device(builder.build());
  EXPECT_THROW(bfs_levels_on_gpu(device, 3), std::out_of_range);
}

}  // namespace
}  // namespace irgl::gpu
