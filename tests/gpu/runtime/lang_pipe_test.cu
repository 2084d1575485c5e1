// The Pipe of generated programs (irgl/lang/cuda.cuh): storage outlives a
// run, so the next run's pipe reuses it, empty.
#include <gtest/gtest.h>

#include "gpu_test.h"
#include "graph_fixtures.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/lang/cuda.cuh"

namespace irgl::lang {
namespace {

// run_for() hands out the degree shapes that --schedule=auto chooses by,
// which the DeviceGraph took at upload: shape_of_degrees() of the same CSR
// and CSC.
TEST(LangRun, RunForDescribesTheDegreesLikeTheHost) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host =
      irgl::testing::random_graph("run-for", 5000, 40000, WeightType::none, true, 9, 100);
  const gpu::DeviceGraph device(host);
  const CudaRun run = run_for(device);
  for (const auto& [shape, offsets] :
       {std::pair{run.out_degrees, host.out_offsets.data()}, std::pair{run.in_degrees, host.in_offsets.data()}}) {
    const gpu::schedule::GraphShape expected =
        gpu::schedule::shape_of_degrees(offsets, host.num_vertices());
    EXPECT_EQ(shape.vertices, expected.vertices);
    EXPECT_EQ(shape.edges, expected.edges);
    EXPECT_EQ(shape.max_degree, expected.max_degree);
    EXPECT_NEAR(shape.deviation, expected.deviation, 1e-9 * expected.deviation);
    EXPECT_DOUBLE_EQ(shape.hub_share, expected.hub_share);
  }
  EXPECT_FALSE(run_for(gpu::DeviceGraph(irgl::testing::random_graph(
                           "no-transpose", 10, 20, WeightType::none, false, 1)))
                   .in_degrees.known());
}

// The view's largest degrees come from the run's shapes, with or without
// the run given, and equal the host's.
TEST(LangRun, ViewOfTakesTheLargestDegreesFromTheRun) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host =
      irgl::testing::random_graph("view-of", 3000, 30000, WeightType::none, true, 5, 200);
  const gpu::DeviceGraph device(host);
  const uint64_t out_max = gpu::schedule::shape_of_degrees(host.out_offsets.data(), host.num_vertices()).max_degree;
  const uint64_t in_max = gpu::schedule::shape_of_degrees(host.in_offsets.data(), host.num_vertices()).max_degree;
  for (const Graph& graph : {view_of(device), view_of(device, run_for(device))}) {
    EXPECT_EQ(graph.max_out_degree(), out_max);
    EXPECT_EQ(graph.max_in_degree(), in_max);
  }
  // Without in-edges the in-degree maximum is 0.
  const gpu::DeviceGraph forward(irgl::testing::random_graph("view-of-forward", 10, 20, WeightType::none, false, 1));
  EXPECT_EQ(view_of(forward).max_in_degree(), 0u);
}

// Regression: every run allocated its pipe (cudaMalloc, pinned counters,
// synchronizing cudaFrees), 0.5 ms per run on an H200 (docs/experiments/2026-11-21-pipe-fix.md).
TEST(LangPipe, TheNextRunReusesTheStorageEmpty) {
  IRGL_REQUIRE_GPU();
  const gpu::DeviceGraph device(irgl::testing::random_graph("lang-pipe", 100, 400, WeightType::none, false, 1));
  const Graph graph = view_of(device);
  release_idle_pipes();
  const VertexId* first_storage[2] = {};
  {
    Pipe run(graph, CudaRun{});
    run.push(3);
    run.push(4);
    EXPECT_EQ(run.size(), 2u);
    first_storage[0] = run.in().queue.items;
    first_storage[1] = run.out().queue.items;
    run.swap();
    run.push(1);  // leaves items behind in both queues
  }
  Pipe next(graph, CudaRun{});
  EXPECT_EQ(next.size(), 0u);
  const VertexId* reused = next.in().queue.items;
  EXPECT_TRUE(reused == first_storage[0] || reused == first_storage[1]);
  next.swap();
  EXPECT_EQ(next.size(), 0u);  // the other queue is empty too
  next.push(7);
  EXPECT_EQ(next.size(), 1u);

  Pipe alongside(graph, CudaRun{});  // a pipe alive at the same time has its own storage
  EXPECT_NE(alongside.in().queue.items, next.in().queue.items);
  EXPECT_NE(alongside.in().queue.items, next.out().queue.items);
  EXPECT_EQ(alongside.size(), 0u);
  release_idle_pipes();
}

}  // namespace
}  // namespace irgl::lang
