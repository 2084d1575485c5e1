// DenseBitmap: atomic set/test/test_and_set/clear and host operations.
#include <gtest/gtest.h>

#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/launch.cuh"
#include "irgl/gpu/worklist/dense_bitmap.cuh"

namespace irgl::gpu {
namespace {

using irgl::testing::iota_ids;
using irgl::testing::random_vertex_set;
using irgl::testing::vectors_equal;

// Thread i calls test_and_set(i % n) and counts its wins per vertex.
__global__ void test_and_set_kernel(DenseBitmapView bitmap, uint64_t threads,
                                    uint32_t* wins_per_vertex) {
  const uint64_t i = global_thread_index();
  if (i >= threads) return;
  const VertexId v = static_cast<VertexId>(i % bitmap.num_bits);
  if (bitmap.test_and_set(v)) atomicAdd(&wins_per_vertex[v], 1u);
}

// Sets the multiples of 3, then clears the multiples of 2 (two kernels, so
// the order is fixed); finally records test() of every vertex.
__global__ void set_multiples_kernel(DenseBitmapView bitmap, uint32_t step, bool clear) {
  for (uint64_t v = global_thread_index(); v < bitmap.num_bits; v += grid_thread_count()) {
    if (v % step != 0) continue;
    if (clear)
      bitmap.clear(static_cast<VertexId>(v));
    else
      bitmap.set(static_cast<VertexId>(v));
  }
}

__global__ void test_all_kernel(DenseBitmapView bitmap, uint8_t* result) {
  for (uint64_t v = global_thread_index(); v < bitmap.num_bits; v += grid_thread_count())
    result[v] = bitmap.test(static_cast<VertexId>(v)) ? 1 : 0;
}

TEST(DenseBitmap, TestAndSetHasExactlyOneWinnerPerVertex) {
  IRGL_REQUIRE_GPU();
  const uint64_t threads = 1 << 20;
  for (uint32_t n : {1u, 31u, 1000u, 65536u, 1000003u}) {
    SCOPED_TRACE("bitmap of " + std::to_string(n) + " bits");
    DenseBitmap bitmap(n);
    DeviceBuffer<uint32_t> wins(n);
    wins.zero();
    test_and_set_kernel<<<grid_blocks(threads), kBlockThreads>>>(bitmap.view(), threads,
                                                                 wins.data());
    IRGL_CUDA_CHECK_LAUNCH();
    // Vertices no thread reached (n > threads) have no winner.
    std::vector<uint32_t> expected(n, 0);
    for (uint64_t v = 0; v < n && v < threads; ++v) expected[v] = 1;
    EXPECT_TRUE(vectors_equal(expected, wins.download()));
    const uint64_t reached = std::min<uint64_t>(n, threads);
    EXPECT_TRUE(vectors_equal(iota_ids(reached), bitmap.download_members()));
  }
}

TEST(DenseBitmap, SetClearAndTest) {
  IRGL_REQUIRE_GPU();
  const uint32_t n = 100003;
  DenseBitmap bitmap(n);
  set_multiples_kernel<<<grid_blocks(n), kBlockThreads>>>(bitmap.view(), 3, false);
  IRGL_CUDA_CHECK_LAUNCH();
  set_multiples_kernel<<<grid_blocks(n), kBlockThreads>>>(bitmap.view(), 2, true);
  IRGL_CUDA_CHECK_LAUNCH();
  DeviceBuffer<uint8_t> tested(n);
  test_all_kernel<<<grid_blocks(n), kBlockThreads>>>(bitmap.view(), tested.data());
  IRGL_CUDA_CHECK_LAUNCH();
  std::vector<uint8_t> expected(n);
  std::vector<VertexId> members;
  for (uint32_t v = 0; v < n; ++v) {
    expected[v] = v % 3 == 0 && v % 2 != 0;
    if (expected[v]) members.push_back(v);
  }
  EXPECT_TRUE(vectors_equal(expected, tested.download()));
  EXPECT_TRUE(vectors_equal(members, bitmap.download_members()));
}

TEST(DenseBitmap, SetAllKeepsTheTailClear) {
  IRGL_REQUIRE_GPU();
  for (uint64_t n : {1u, 31u, 32u, 33u, 64u, 1000u}) {
    SCOPED_TRACE("bitmap of " + std::to_string(n) + " bits");
    DenseBitmap bitmap(n);
    EXPECT_EQ(bitmap.num_words(), (n + 31) / 32);
    bitmap.set_all();
    std::vector<uint32_t> expected(bitmap.num_words(), 0xffffffffu);
    if (n % 32 != 0) expected.back() = (1u << (n % 32)) - 1;
    EXPECT_TRUE(vectors_equal(expected, bitmap.download_words()));
    EXPECT_TRUE(vectors_equal(iota_ids(n), bitmap.download_members()));
    bitmap.clear_all();
    EXPECT_TRUE(
        vectors_equal(std::vector<uint32_t>(bitmap.num_words(), 0), bitmap.download_words()));
  }
}

TEST(DenseBitmap, AssignAndDownloadMembers) {
  IRGL_REQUIRE_GPU();
  const uint64_t n = 77777;
  const std::vector<VertexId> members = random_vertex_set(n, 0.1, 5);
  DenseBitmap bitmap(n);
  bitmap.assign(members);
  EXPECT_TRUE(vectors_equal(members, bitmap.download_members()));
  bitmap.assign({});
  EXPECT_TRUE(bitmap.download_members().empty());
  EXPECT_THROW(bitmap.assign({static_cast<VertexId>(n)}), std::out_of_range);
  DenseBitmap empty(0);
  EXPECT_EQ(empty.num_words(), 0u);
  empty.set_all();
  empty.clear_all();
  EXPECT_TRUE(empty.download_members().empty());
}

}  // namespace
}  // namespace irgl::gpu
