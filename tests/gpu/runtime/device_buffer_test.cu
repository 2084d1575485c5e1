// DeviceBuffer, PinnedBuffer, ScratchBuffer and Stream.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/scratch_buffer.h"
#include "irgl/gpu/stream.h"

namespace irgl::gpu {
namespace {

using irgl::testing::random_values;
using irgl::testing::vectors_equal;

struct Pair32 {
  uint32_t first;
  uint32_t second;
};

template <class T>
void expect_filled(const DeviceBuffer<T>& buffer, const T& value) {
  const std::vector<T> host = buffer.download();
  ASSERT_EQ(host.size(), buffer.size());
  size_t wrong = 0;
  for (const T& element : host) wrong += std::memcmp(&element, &value, sizeof(T)) != 0;
  EXPECT_EQ(wrong, 0u) << "of " << host.size() << " elements of " << sizeof(T) << " bytes";
}

TEST(DeviceBuffer, UploadDownloadRoundTrip) {
  IRGL_REQUIRE_GPU();
  const auto values = random_values<uint32_t>(1'000'003, 0, UINT32_MAX, 1);
  DeviceBuffer<uint32_t> buffer(values);
  EXPECT_EQ(buffer.size(), values.size());
  EXPECT_EQ(buffer.bytes(), values.size() * 4);
  EXPECT_NE(buffer.data(), nullptr);
  EXPECT_TRUE(vectors_equal(values, buffer.download()));
  EXPECT_TRUE(vectors_equal(std::vector<uint32_t>(values.begin(), values.begin() + 10),
                            buffer.download_prefix(10)));
}

TEST(DeviceBuffer, AsyncTransfersThroughPinnedMemoryOnAStream) {
  IRGL_REQUIRE_GPU();
  Stream stream;
  const auto values = random_values<uint64_t>(1 << 20, 0, UINT64_MAX, 2);
  PinnedBuffer<uint64_t> staging(values.size());
  std::copy(values.begin(), values.end(), staging.begin());
  DeviceBuffer<uint64_t> buffer(values.size());
  buffer.upload_async(staging.data(), staging.size(), stream);
  PinnedBuffer<uint64_t> back(values.size());
  buffer.download_async(back.data(), back.size(), stream);
  stream.synchronize();
  EXPECT_TRUE(vectors_equal(values, std::vector<uint64_t>(back.begin(), back.end())));
}

TEST(DeviceBuffer, FillsEveryElementSize) {
  IRGL_REQUIRE_GPU();
  // Sizes around the block size and odd counts catch grid-stride mistakes.
  for (size_t count : {size_t{1}, size_t{255}, size_t{257}, size_t{1'000'001}}) {
    SCOPED_TRACE("count " + std::to_string(count));
    DeviceBuffer<uint8_t> bytes(count);
    bytes.fill(0xab);
    expect_filled<uint8_t>(bytes, 0xab);
    DeviceBuffer<int16_t> shorts(count);
    shorts.fill(-2);
    expect_filled<int16_t>(shorts, -2);
    DeviceBuffer<float> floats(count);
    floats.fill(1.5f);
    expect_filled(floats, 1.5f);
    DeviceBuffer<double> doubles(count);
    doubles.fill(-3.25);
    expect_filled(doubles, -3.25);
    DeviceBuffer<Pair32> pairs(count);
    pairs.fill(Pair32{7, 0xdeadbeef});
    expect_filled(pairs, Pair32{7, 0xdeadbeef});
    pairs.zero();
    expect_filled(pairs, Pair32{0, 0});
  }
}

TEST(DeviceBuffer, FillIsOrderedOnItsStream) {
  IRGL_REQUIRE_GPU();
  Stream stream;
  DeviceBuffer<uint32_t> buffer(1 << 22);
  buffer.fill(1, stream);
  buffer.zero(stream);
  buffer.fill(3, stream);
  stream.synchronize();
  expect_filled<uint32_t>(buffer, 3);
}

TEST(DeviceBuffer, EmptyBufferOperationsAreNoOps) {
  IRGL_REQUIRE_GPU();
  DeviceBuffer<uint32_t> empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.data(), nullptr);
  empty.fill(5);
  empty.zero();
  empty.upload(std::vector<uint32_t>{});
  EXPECT_TRUE(empty.download().empty());
  DeviceBuffer<uint32_t> zero_sized(0);
  EXPECT_EQ(zero_sized.data(), nullptr);
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST(DeviceBuffer, MoveTransfersOwnership) {
  IRGL_REQUIRE_GPU();
  DeviceBuffer<int> first(std::vector<int>{1, 2, 3});
  const int* storage = first.data();
  DeviceBuffer<int> second(std::move(first));
  EXPECT_EQ(first.data(), nullptr);
  EXPECT_EQ(first.size(), 0u);
  EXPECT_EQ(second.data(), storage);
  EXPECT_TRUE(vectors_equal(std::vector<int>{1, 2, 3}, second.download()));
  DeviceBuffer<int> third(std::vector<int>{9});
  third = std::move(second);  // frees third's old storage
  EXPECT_EQ(third.data(), storage);
  EXPECT_TRUE(vectors_equal(std::vector<int>{1, 2, 3}, third.download()));
  third = std::move(third);  // self-move keeps the contents
  EXPECT_TRUE(vectors_equal(std::vector<int>{1, 2, 3}, third.download()));
}

TEST(DeviceBuffer, ResetReallocates) {
  IRGL_REQUIRE_GPU();
  DeviceBuffer<int> buffer(std::vector<int>{4, 5});
  const int* old_storage = buffer.data();
  buffer.reset(2);  // same size: kept
  EXPECT_EQ(buffer.data(), old_storage);
  buffer.reset(100);
  EXPECT_EQ(buffer.size(), 100u);
  buffer.fill(6);
  expect_filled(buffer, 6);
  buffer.reset(0);
  EXPECT_EQ(buffer.data(), nullptr);
}

// The free bytes of the current device, once queued frees have run.
size_t device_free_bytes() {
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  size_t free = 0, total = 0;
  IRGL_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

TEST(DeviceBuffer, PooledMemoryIsKeptAndReused) {
  IRGL_REQUIRE_GPU();
  const size_t count = (size_t{256} << 20) / sizeof(uint32_t);  // 256 MiB
  {
    auto first = DeviceBuffer<uint32_t>::pooled(count);
    ASSERT_TRUE(first.is_pooled());
    first.fill(7);
    expect_filled(first, 7u);
  }
  const size_t free_with_pool = device_free_bytes();  // the pool kept the 256 MiB
  auto second = DeviceBuffer<uint32_t>::pooled(count);
  second.fill(9);
  expect_filled(second, 9u);
  EXPECT_EQ(device_free_bytes(), free_with_pool) << "the second buffer took new memory";
  DeviceBuffer<uint32_t> moved(std::move(second));
  EXPECT_TRUE(moved.is_pooled());
  moved.reset(count / 2);  // stays pooled
  EXPECT_TRUE(moved.is_pooled());
  moved.fill(3);
  expect_filled(moved, 3u);
  EXPECT_FALSE(DeviceBuffer<uint32_t>(16).is_pooled());
}

TEST(DeviceBuffer, PlainAllocationTakesBackWhatThePoolKeeps) {
  IRGL_REQUIRE_GPU();
  // A tenth of the device kept by the pool (under its eighth), then a
  // plain allocation of more than the device reports free: it fits only
  // once the pool hands its memory back.
  size_t free = 0, total = 0;
  IRGL_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  const size_t kept_bytes = total / 10;
  { auto kept = DeviceBuffer<uint8_t>::pooled(kept_bytes); }
  const size_t free_beside_pool = device_free_bytes();
  ASSERT_LT(free_beside_pool, free) << "the pool kept nothing";
  DeviceBuffer<uint8_t> plain(free_beside_pool + kept_bytes / 2);
  plain.fill(1);
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_FALSE(plain.is_pooled());
}

TEST(DeviceBuffer, ReleasePooledMemoryReturnsItToTheDevice) {
  IRGL_REQUIRE_GPU();
  const size_t bytes = size_t{1} << 30;
  { auto kept = DeviceBuffer<uint8_t>::pooled(bytes); }
  const size_t free_with_pool = device_free_bytes();
  release_pooled_memory();
  EXPECT_GE(device_free_bytes(), free_with_pool + bytes / 2);
}

TEST(DeviceBuffer, TransfersLargerThanTheBufferThrow) {
  IRGL_REQUIRE_GPU();
  DeviceBuffer<int> buffer(4);
  const std::vector<int> five(5, 1);
  EXPECT_THROW(buffer.upload(five), std::out_of_range);
  std::vector<int> host(5);
  EXPECT_THROW(buffer.download(host.data(), 5), std::out_of_range);
}

TEST(DeviceBuffer, AllocationFailureThrowsCudaError) {
  IRGL_REQUIRE_GPU();
  try {
    DeviceBuffer<uint8_t> huge(uint64_t{1} << 50);  // 1 PiB
    FAIL() << "allocated 1 PiB";
  } catch (const CudaError& error) {
    EXPECT_EQ(error.code(), cudaErrorMemoryAllocation) << error.what();
    EXPECT_NE(std::string(error.what()).find("cudaMalloc"), std::string::npos) << error.what();
  }
  cudaGetLastError();  // consume the (non-sticky) error
  DeviceBuffer<int> fine(std::vector<int>{1});
  EXPECT_TRUE(vectors_equal(std::vector<int>{1}, fine.download()));
}

TEST(PinnedBuffer, ValueInitialisedAndMovable) {
  IRGL_REQUIRE_GPU();
  PinnedBuffer<uint64_t> buffer(16);
  for (uint64_t value : buffer) EXPECT_EQ(value, 0u);
  buffer[3] = 42;
  PinnedBuffer<uint64_t> moved(std::move(buffer));
  EXPECT_EQ(buffer.data(), nullptr);
  EXPECT_EQ(moved.size(), 16u);
  EXPECT_EQ(moved[3], 42u);
  cudaPointerAttributes attributes{};
  IRGL_CUDA_CHECK(cudaPointerGetAttributes(&attributes, moved.data()));
  EXPECT_EQ(attributes.type, cudaMemoryTypeHost);  // page-locked, known to CUDA
}

TEST(ScratchBuffer, GrowsButNeverShrinks) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  EXPECT_EQ(scratch.capacity(), 0u);
  void* first = scratch.reserve(1000);
  EXPECT_NE(first, nullptr);
  EXPECT_EQ(scratch.capacity(), 1000u);
  EXPECT_EQ(scratch.reserve(10), first);
  EXPECT_EQ(scratch.reserve(1000), first);
  EXPECT_EQ(scratch.allocations(), 1u);
  scratch.reserve(5000);
  EXPECT_EQ(scratch.capacity(), 5000u);
  EXPECT_EQ(scratch.allocations(), 2u);
  scratch.reserve(0);
  EXPECT_EQ(scratch.capacity(), 5000u);
  EXPECT_EQ(scratch.allocations(), 2u);
}

}  // namespace
}  // namespace irgl::gpu
