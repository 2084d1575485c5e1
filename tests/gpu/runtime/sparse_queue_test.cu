// SparseQueue: warp-aggregated push, overflow, push_unique, block push and
// the host operations.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/launch.cuh"
#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/sparse_queue.cuh"

namespace irgl::gpu {
namespace {

using irgl::testing::iota_ids;
using irgl::testing::same_items;
using irgl::testing::vectors_equal;

constexpr uint64_t kMillion = 1 << 20;
constexpr VertexId kGuardWord = 0xdeadbeef;

// Thread i (of `threads`) pushes i.
__global__ void push_index_kernel(SparseQueueView queue, uint64_t threads) {
  const uint64_t i = global_thread_index();
  if (i < threads) queue.push(static_cast<VertexId>(i));
}

// Divergent pushes: multiples of 3 push i; multiples of 5 also push
// threads + i from a different branch.
__global__ void divergent_push_kernel(SparseQueueView queue, uint64_t threads) {
  const uint64_t i = global_thread_index();
  if (i >= threads) return;
  if (i % 3 == 0) queue.push(static_cast<VertexId>(i));
  if (i % 5 == 0) {
    if (i % 2 == 0)
      queue.push(static_cast<VertexId>(threads + i));
    else
      queue.push(static_cast<VertexId>(threads + i));
  }
}

__global__ void push_unique_kernel(SparseQueueView queue, DenseBitmapView seen, uint64_t threads,
                                   uint32_t distinct, unsigned long long* winners) {
  const uint64_t i = global_thread_index();
  if (i >= threads) return;
  if (queue.push_unique(static_cast<VertexId>(i % distinct), seen)) atomicAdd(winners, 1ull);
}

template <int BlockThreads>
__global__ void block_push_kernel(SparseQueueView queue, uint64_t threads) {
  using Push = BlockPush<BlockThreads>;
  __shared__ typename Push::TempStorage storage;
  const uint64_t i = global_thread_index();
  // A block-dependent pattern: some blocks push nothing at all.
  const bool has_item = i < threads && i % 7 != 3 && blockIdx.x % 5 != 4;
  Push(storage).push(queue, static_cast<VertexId>(i), has_item);
}

// Thread i reserves i % 4 slots and fills them with 4i + k; then, reusing
// the same storage, pushes 4i + 3 when i is even.
__global__ void block_reserve_kernel(SparseQueueView queue) {
  using Push = BlockPush<128>;
  __shared__ typename Push::TempStorage storage;
  const uint64_t i = global_thread_index();
  const uint32_t count = static_cast<uint32_t>(i % 4);
  const uint64_t slot = Push(storage).reserve(queue, count);
  for (uint32_t k = 0; k < count; ++k) queue.write(slot + k, static_cast<VertexId>(4 * i + k));
  Push(storage).push(queue, static_cast<VertexId>(4 * i + 3), i % 2 == 0);
}

// A view over the first `capacity` items of `storage`, whose remaining words
// are guards that must survive any overflow.
SparseQueueView guarded_view(DeviceBuffer<VertexId>& storage, uint64_t capacity,
                             DeviceBuffer<QueueCounters>& counters) {
  storage.fill(kGuardWord);
  counters.zero();
  return {storage.data(), capacity, counters.data()};
}

QueueStatus status_of(const DeviceBuffer<QueueCounters>& counters, uint64_t capacity) {
  return QueueStatus::of(counters.download()[0], capacity);
}

// The stored items are distinct values from `allowed` and the guards intact.
void expect_overflow_kept_in_bounds(const DeviceBuffer<VertexId>& storage, uint64_t capacity,
                                    uint64_t allowed_limit) {
  const std::vector<VertexId> all = storage.download();
  std::vector<VertexId> stored(all.begin(), all.begin() + capacity);
  const std::vector<VertexId> guards(all.begin() + capacity, all.end());
  EXPECT_TRUE(vectors_equal(std::vector<VertexId>(guards.size(), kGuardWord), guards))
      << "guard words past the capacity were overwritten";
  std::sort(stored.begin(), stored.end());
  EXPECT_EQ(std::adjacent_find(stored.begin(), stored.end()), stored.end())
      << "an item was stored twice";
  EXPECT_LT(stored.back(), allowed_limit) << "a slot holds an item nobody pushed";
}

TEST(SparseQueue, AMillionThreadsFillExactlyToCapacity) {
  IRGL_REQUIRE_GPU();
  SparseQueue queue(kMillion);
  push_index_kernel<<<grid_blocks(kMillion), kBlockThreads>>>(queue.view(), kMillion);
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = queue.status();
  EXPECT_EQ(status.size, kMillion);
  EXPECT_EQ(status.pushed, kMillion);
  EXPECT_FALSE(status.overflow);
  EXPECT_TRUE(same_items(iota_ids(kMillion), queue.download()));
}

TEST(SparseQueue, OneMoreThanCapacityOverflowsWithoutWritingOutOfBounds) {
  IRGL_REQUIRE_GPU();
  const uint64_t capacity = kMillion - 1;
  DeviceBuffer<VertexId> storage(kMillion + 1024);
  DeviceBuffer<QueueCounters> counters(1);
  const SparseQueueView view = guarded_view(storage, capacity, counters);
  push_index_kernel<<<grid_blocks(kMillion), kBlockThreads>>>(view, kMillion);
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = status_of(counters, capacity);
  EXPECT_EQ(status.size, capacity);
  EXPECT_EQ(status.pushed, kMillion);
  EXPECT_TRUE(status.overflow);
  expect_overflow_kept_in_bounds(storage, capacity, kMillion);
}

TEST(SparseQueue, FarOverCapacityOverflowsWithoutWritingOutOfBounds) {
  IRGL_REQUIRE_GPU();
  const uint64_t capacity = 1000;
  DeviceBuffer<VertexId> storage(capacity + 4096);
  DeviceBuffer<QueueCounters> counters(1);
  const SparseQueueView view = guarded_view(storage, capacity, counters);
  push_index_kernel<<<grid_blocks(kMillion), kBlockThreads>>>(view, kMillion);
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = status_of(counters, capacity);
  EXPECT_EQ(status.size, capacity);
  EXPECT_EQ(status.pushed, kMillion);
  EXPECT_TRUE(status.overflow);
  expect_overflow_kept_in_bounds(storage, capacity, kMillion);
}

TEST(SparseQueue, DivergentPushesKeepEveryItem) {
  IRGL_REQUIRE_GPU();
  const uint64_t threads = 300007;
  std::vector<VertexId> expected;
  for (uint64_t i = 0; i < threads; ++i) {
    if (i % 3 == 0) expected.push_back(static_cast<VertexId>(i));
    if (i % 5 == 0) expected.push_back(static_cast<VertexId>(threads + i));
  }
  SparseQueue queue(expected.size());
  divergent_push_kernel<<<grid_blocks(threads), kBlockThreads>>>(queue.view(), threads);
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = queue.status();
  EXPECT_EQ(status.size, expected.size());
  EXPECT_FALSE(status.overflow);
  EXPECT_TRUE(same_items(expected, queue.download()));
}

TEST(SparseQueue, PushUniqueOfOneVertexFromAMillionThreadsPushesItOnce) {
  IRGL_REQUIRE_GPU();
  SparseQueue queue(16);
  DenseBitmap seen(100);
  DeviceBuffer<unsigned long long> winners(1);
  winners.zero();
  push_unique_kernel<<<grid_blocks(kMillion), kBlockThreads>>>(queue.view(), seen.view(), kMillion,
                                                               1, winners.data());
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = queue.status();
  EXPECT_EQ(status.pushed, 1u);
  EXPECT_FALSE(status.overflow);
  EXPECT_TRUE(vectors_equal(std::vector<VertexId>{0}, queue.download()));
  EXPECT_EQ(winners.download()[0], 1u) << "threads told they pushed";
  EXPECT_TRUE(vectors_equal(std::vector<VertexId>{0}, seen.download_members()));
}

TEST(SparseQueue, PushUniqueDeduplicatesManyVertices) {
  IRGL_REQUIRE_GPU();
  const uint32_t distinct = 4099;
  SparseQueue queue(distinct);  // exactly enough: any duplicate would overflow
  DenseBitmap seen(distinct);
  DeviceBuffer<unsigned long long> winners(1);
  winners.zero();
  push_unique_kernel<<<grid_blocks(kMillion), kBlockThreads>>>(queue.view(), seen.view(), kMillion,
                                                               distinct, winners.data());
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = queue.status();
  EXPECT_EQ(status.pushed, distinct);
  EXPECT_FALSE(status.overflow);
  EXPECT_EQ(winners.download()[0], distinct);
  EXPECT_TRUE(same_items(iota_ids(distinct), queue.download()));
  // A second kernel with the same bitmap pushes nothing.
  push_unique_kernel<<<grid_blocks(kMillion), kBlockThreads>>>(queue.view(), seen.view(), kMillion,
                                                               distinct, winners.data());
  IRGL_CUDA_CHECK_LAUNCH();
  EXPECT_EQ(queue.status().pushed, distinct);
}

template <int BlockThreads>
void check_block_push(uint64_t threads) {
  SCOPED_TRACE("block of " + std::to_string(BlockThreads) + ", " + std::to_string(threads) +
               " threads");
  std::vector<VertexId> expected;
  for (uint64_t i = 0; i < threads; ++i)
    if (i % 7 != 3 && (i / BlockThreads) % 5 != 4) expected.push_back(static_cast<VertexId>(i));
  SparseQueue queue(expected.size());
  const unsigned blocks = static_cast<unsigned>((threads + BlockThreads - 1) / BlockThreads);
  block_push_kernel<BlockThreads><<<blocks, BlockThreads>>>(queue.view(), threads);
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = queue.status();
  EXPECT_EQ(status.pushed, expected.size());
  EXPECT_FALSE(status.overflow);
  const std::vector<VertexId> items = queue.download();
  EXPECT_TRUE(same_items(expected, items));
  // One reservation per block: each block's items form one run in thread order.
  std::set<uint64_t> finished_blocks;
  for (size_t k = 0; k < items.size(); ++k) {
    const uint64_t block = items[k] / BlockThreads;
    const bool continues_run = k > 0 && items[k - 1] / BlockThreads == block;
    if (continues_run) {
      ASSERT_LT(items[k - 1], items[k])
          << "items of block " << block << " out of thread order at slot " << k;
    } else {
      ASSERT_TRUE(finished_blocks.insert(block).second)
          << "block " << block << " items split into several runs (slot " << k << ")";
    }
  }
}

TEST(SparseQueue, BlockPushReservesOncePerBlock) {
  IRGL_REQUIRE_GPU();
  check_block_push<256>(kMillion + 77);
  check_block_push<32>(10000);
  check_block_push<1024>(500000);
}

TEST(SparseQueue, BlockReserveOfSeveralSlotsAndStorageReuse) {
  IRGL_REQUIRE_GPU();
  const uint64_t threads = 128 * 1000;
  std::vector<VertexId> expected;
  for (uint64_t i = 0; i < threads; ++i) {
    for (uint64_t k = 0; k < i % 4; ++k) expected.push_back(static_cast<VertexId>(4 * i + k));
    if (i % 2 == 0) expected.push_back(static_cast<VertexId>(4 * i + 3));
  }
  SparseQueue queue(expected.size());
  block_reserve_kernel<<<threads / 128, 128>>>(queue.view());
  IRGL_CUDA_CHECK_LAUNCH();
  EXPECT_EQ(queue.status().pushed, expected.size());
  EXPECT_TRUE(same_items(expected, queue.download()));
}

TEST(SparseQueue, BlockPushOverflowStaysInBounds) {
  IRGL_REQUIRE_GPU();
  const uint64_t capacity = 5000;
  DeviceBuffer<VertexId> storage(capacity + 4096);
  DeviceBuffer<QueueCounters> counters(1);
  const SparseQueueView view = guarded_view(storage, capacity, counters);
  block_push_kernel<256><<<grid_blocks(kMillion, 256), 256>>>(view, kMillion);
  IRGL_CUDA_CHECK_LAUNCH();
  const QueueStatus status = status_of(counters, capacity);
  EXPECT_EQ(status.size, capacity);
  EXPECT_GT(status.pushed, capacity);
  EXPECT_TRUE(status.overflow);
  expect_overflow_kept_in_bounds(storage, capacity, kMillion);
}

TEST(SparseQueue, HostAssignClearAndStatus) {
  IRGL_REQUIRE_GPU();
  SparseQueue queue(10);
  EXPECT_EQ(queue.capacity(), 10u);
  EXPECT_EQ(queue.status().size, 0u);
  const std::vector<VertexId> items{5, 3, 9, 3};
  queue.assign(items);
  EXPECT_EQ(queue.status().size, 4u);
  EXPECT_TRUE(vectors_equal(items, queue.download()));  // slot order kept
  push_index_kernel<<<1, 32>>>(queue.view(), 20);       // 4 + 20 > 10
  IRGL_CUDA_CHECK_LAUNCH();
  QueueStatus status = queue.status();
  EXPECT_EQ(status.size, 10u);
  EXPECT_EQ(status.pushed, 24u);
  EXPECT_TRUE(status.overflow);
  queue.clear();
  status = queue.status();
  EXPECT_EQ(status.size, 0u);
  EXPECT_EQ(status.pushed, 0u);
  EXPECT_FALSE(status.overflow);
  EXPECT_THROW(queue.assign(std::vector<VertexId>(11, 1)), std::length_error);
  queue.assign({});
  EXPECT_TRUE(queue.download().empty());
}

}  // namespace
}  // namespace irgl::gpu
