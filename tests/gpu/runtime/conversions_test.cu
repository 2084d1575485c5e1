// bitmap_to_queue and queue_to_bitmap.
#include <gtest/gtest.h>

#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/scratch_buffer.h"
#include "irgl/gpu/stream.h"
#include "irgl/gpu/worklist/conversions.cuh"

namespace irgl::gpu {
namespace {

using irgl::testing::iota_ids;
using irgl::testing::random_vertex_set;
using irgl::testing::vectors_equal;

// bitmap -> queue -> bitmap on `members` of [0, n); checks order, counts and
// that the round trip reproduces the words exactly.
void check_round_trip(uint64_t n, const std::vector<VertexId>& members, ScratchBuffer& scratch,
                      cudaStream_t stream) {
  SCOPED_TRACE(std::to_string(members.size()) + " members of " + std::to_string(n));
  DenseBitmap bitmap(n, stream);
  bitmap.assign(members, stream);
  SparseQueue queue(n, stream);
  bitmap_to_queue(bitmap.view(), queue.view(), scratch, stream);
  const QueueStatus status = queue.status(stream);
  EXPECT_EQ(status.size, members.size());
  EXPECT_FALSE(status.overflow);
  EXPECT_TRUE(vectors_equal(members, queue.download(stream))) << "bitmap -> queue";
  DenseBitmap back(n, stream);
  queue_to_bitmap(queue.view(), back.view(), stream);
  EXPECT_TRUE(vectors_equal(bitmap.download_words(stream), back.download_words(stream)))
      << "queue -> bitmap";
}

TEST(Conversions, RandomSetsRoundTrip) {
  IRGL_REQUIRE_GPU();
  Stream stream;
  ScratchBuffer scratch;
  uint64_t seed = 100;
  for (uint64_t n : {1u, 31u, 32u, 33u, 1000u, 4099u, (1u << 20) + 7}) {
    for (double density : {0.001, 0.3, 0.9}) {
      check_round_trip(n, random_vertex_set(n, density, ++seed), scratch, stream);
    }
  }
}

TEST(Conversions, EmptyAndFullSets) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  for (uint64_t n : {1u, 33u, 65536u, 999999u}) {
    check_round_trip(n, {}, scratch, 0);
    check_round_trip(n, iota_ids(n), scratch, 0);
  }
}

TEST(Conversions, FullSetFromSetAll) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const uint64_t n = 12345;
  DenseBitmap bitmap(n);
  bitmap.set_all();
  SparseQueue queue(n);
  bitmap_to_queue(bitmap.view(), queue.view(), scratch);
  EXPECT_TRUE(vectors_equal(iota_ids(n), queue.download()));
}

TEST(Conversions, BitmapToQueueReplacesContentsAndOverflow) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const uint64_t n = 100;
  SparseQueue queue(n);
  queue.assign(iota_ids(n));
  DenseBitmap bitmap(n);
  bitmap.assign({7, 50, 99});
  bitmap_to_queue(bitmap.view(), queue.view(), scratch);
  const QueueStatus status = queue.status();
  EXPECT_EQ(status.pushed, 3u);
  EXPECT_FALSE(status.overflow);
  EXPECT_TRUE(vectors_equal(std::vector<VertexId>{7, 50, 99}, queue.download()));
}

TEST(Conversions, QueueToBitmapMergesAndDeduplicates) {
  IRGL_REQUIRE_GPU();
  const uint64_t n = 1000;
  DenseBitmap bitmap(n);
  bitmap.assign({1, 2});
  SparseQueue queue(8);
  queue.assign({500, 2, 500, 999, 500, 5000 /* out of range: ignored */});
  queue_to_bitmap(queue.view(), bitmap.view());
  EXPECT_TRUE(vectors_equal(std::vector<VertexId>{1, 2, 500, 999}, bitmap.download_members()));
}

TEST(Conversions, QueueTooSmallForTheBitmapIsRejected) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  DenseBitmap bitmap(100);
  SparseQueue queue(99);
  EXPECT_THROW(bitmap_to_queue(bitmap.view(), queue.view(), scratch), std::length_error);
}

TEST(Conversions, RepeatedConversionsReuseTheScratch) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const uint64_t n = 1 << 20;
  DenseBitmap bitmap(n);
  bitmap.assign(random_vertex_set(n, 0.5, 7));
  SparseQueue queue(n);
  bitmap_to_queue(bitmap.view(), queue.view(), scratch);
  const size_t allocations = scratch.allocations();
  const size_t capacity = scratch.capacity();
  for (int round = 0; round < 5; ++round) bitmap_to_queue(bitmap.view(), queue.view(), scratch);
  EXPECT_EQ(scratch.allocations(), allocations);
  EXPECT_EQ(scratch.capacity(), capacity);
  EXPECT_TRUE(vectors_equal(random_vertex_set(n, 0.5, 7), queue.download()));
}

}  // namespace
}  // namespace irgl::gpu
