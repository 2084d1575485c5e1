// Pipe: rounds of data-driven work over double-buffered queues.
#include <gtest/gtest.h>

#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/launch.cuh"
#include "irgl/gpu/stream.h"
#include "irgl/gpu/worklist/pipe.cuh"

namespace irgl::gpu {
namespace {

using irgl::testing::iota_ids;
using irgl::testing::same_items;
using irgl::testing::vectors_equal;

// Every input item v pushes v + step when that is below limit.
__global__ void advance_kernel(SparseQueueView in, SparseQueueView out, uint32_t step,
                               uint32_t limit) {
  const uint64_t size = in.size();
  for (uint64_t i = global_thread_index(); i < size; i += grid_thread_count()) {
    const VertexId next = in[i] + step;
    if (next < limit) out.push(next);
  }
}

// Binary tree expansion: v pushes 2v+1 and 2v+2 below limit. Launched with a
// fixed grid: the kernel reads the input size on the device.
__global__ void tree_kernel(SparseQueueView in, SparseQueueView out, uint32_t limit) {
  const uint64_t size = in.size();
  for (uint64_t i = global_thread_index(); i < size; i += grid_thread_count()) {
    const uint64_t v = in[i];
    if (2 * v + 1 < limit) out.push(static_cast<VertexId>(2 * v + 1));
    if (2 * v + 2 < limit) out.push(static_cast<VertexId>(2 * v + 2));
  }
}

__global__ void push_range_kernel(SparseQueueView out, uint32_t count) {
  for (uint64_t i = global_thread_index(); i < count; i += grid_thread_count())
    out.push(static_cast<VertexId>(i));
}

TEST(Pipe, RoundsMoveItemsForward) {
  IRGL_REQUIRE_GPU();
  Stream stream;
  const uint32_t step = 10, limit = 1000;
  Pipe pipe(limit, stream);
  EXPECT_EQ(pipe.capacity(), limit);
  EXPECT_EQ(pipe.stream(), stream.get());
  pipe.reset(iota_ids(step));
  uint32_t rounds = 0;
  for (PipeSizes sizes = pipe.read_sizes(); sizes.in.size != 0; sizes = pipe.read_sizes()) {
    SCOPED_TRACE("round " + std::to_string(rounds));
    ASSERT_EQ(sizes.in.size, step);
    ASSERT_EQ(sizes.out.size, 0u) << "swap did not empty the output";
    std::vector<VertexId> expected(step);
    for (uint32_t k = 0; k < step; ++k) expected[k] = rounds * step + k;
    ASSERT_TRUE(same_items(expected, pipe.download_in()));
    advance_kernel<<<grid_blocks(sizes.in.size), kBlockThreads, 0, pipe.stream()>>>(
        pipe.in(), pipe.out(), step, limit);
    IRGL_CUDA_CHECK_LAUNCH();
    pipe.swap();
    ++rounds;
  }
  EXPECT_EQ(rounds, limit / step);
}

TEST(Pipe, TreeExpansionVisitsEveryVertexOnce) {
  IRGL_REQUIRE_GPU();
  const uint32_t limit = 1'000'000;
  Pipe pipe(limit);
  pipe.reset({0});
  std::vector<VertexId> visited;
  std::vector<uint64_t> frontier_sizes;
  for (int round = 0; round < 64; ++round) {
    const PipeSizes sizes = pipe.read_sizes();
    if (sizes.in.size == 0) break;
    EXPECT_FALSE(sizes.in.overflow);
    frontier_sizes.push_back(sizes.in.size);
    const std::vector<VertexId> frontier = pipe.download_in();
    visited.insert(visited.end(), frontier.begin(), frontier.end());
    tree_kernel<<<64, kBlockThreads>>>(pipe.in(), pipe.out(), limit);
    IRGL_CUDA_CHECK_LAUNCH();
    pipe.swap();
  }
  EXPECT_TRUE(same_items(iota_ids(limit), visited));
  // Level k of a complete binary tree holds 2^k vertices (the last is partial).
  for (size_t k = 0; k + 1 < frontier_sizes.size(); ++k)
    EXPECT_EQ(frontier_sizes[k], uint64_t{1} << k) << "level " << k;
}

TEST(Pipe, SwapEmptiesTheNewOutput) {
  IRGL_REQUIRE_GPU();
  Pipe pipe(100);
  push_range_kernel<<<1, 64>>>(pipe.out(), 30);
  IRGL_CUDA_CHECK_LAUNCH();
  PipeSizes sizes = pipe.read_sizes();
  EXPECT_EQ(sizes.in.size, 0u);
  EXPECT_EQ(sizes.out.size, 30u);
  pipe.swap();
  sizes = pipe.read_sizes();
  EXPECT_EQ(sizes.in.size, 30u);
  EXPECT_EQ(sizes.out.size, 0u);
  EXPECT_TRUE(same_items(iota_ids(30), pipe.download_in()));
  pipe.swap();  // the 30 items are dropped
  sizes = pipe.read_sizes();
  EXPECT_EQ(sizes.in.size, 0u);
  EXPECT_EQ(sizes.out.size, 0u);
}

TEST(Pipe, OverflowIsReportedAndClearedBySwap) {
  IRGL_REQUIRE_GPU();
  Pipe pipe(16);
  push_range_kernel<<<1, 64>>>(pipe.out(), 20);
  IRGL_CUDA_CHECK_LAUNCH();
  PipeSizes sizes = pipe.read_sizes();
  EXPECT_TRUE(sizes.out.overflow);
  EXPECT_EQ(sizes.out.size, 16u);
  EXPECT_EQ(sizes.out.pushed, 20u);
  EXPECT_FALSE(sizes.in.overflow);
  pipe.swap();
  sizes = pipe.read_sizes();
  EXPECT_TRUE(sizes.in.overflow);
  EXPECT_EQ(sizes.in.size, 16u);
  EXPECT_FALSE(sizes.out.overflow);
  pipe.swap();
  sizes = pipe.read_sizes();
  EXPECT_FALSE(sizes.in.overflow);
  EXPECT_FALSE(sizes.out.overflow);
}

TEST(Pipe, ResetAndClear) {
  IRGL_REQUIRE_GPU();
  Pipe pipe(8);
  push_range_kernel<<<1, 32>>>(pipe.out(), 5);
  IRGL_CUDA_CHECK_LAUNCH();
  pipe.reset({4, 2});
  PipeSizes sizes = pipe.read_sizes();
  EXPECT_EQ(sizes.in.size, 2u);
  EXPECT_EQ(sizes.out.size, 0u) << "reset must empty the output";
  EXPECT_TRUE(vectors_equal(std::vector<VertexId>{4, 2}, pipe.download_in()));
  EXPECT_THROW(pipe.reset(std::vector<VertexId>(9, 0)), std::length_error);
  push_range_kernel<<<1, 32>>>(pipe.out(), 3);
  IRGL_CUDA_CHECK_LAUNCH();
  pipe.clear();
  sizes = pipe.read_sizes();
  EXPECT_EQ(sizes.in.size, 0u);
  EXPECT_EQ(sizes.out.size, 0u);
}

}  // namespace
}  // namespace irgl::gpu
