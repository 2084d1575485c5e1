// The CUB wrappers: scans, reductions, radix sort and selection.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/algorithms.cuh"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/stream.h"

namespace irgl::gpu {
namespace {

using irgl::testing::random_values;
using irgl::testing::vectors_equal;

struct IsEven {
  __device__ bool operator()(uint32_t value) const { return value % 2 == 0; }
};

std::vector<uint64_t> host_exclusive_sum(const std::vector<uint32_t>& values) {
  std::vector<uint64_t> sums(values.size());
  uint64_t total = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    sums[i] = total;
    total += values[i];
  }
  return sums;
}

TEST(Algorithms, ExclusiveSumPastTwoToThe32) {
  IRGL_REQUIRE_GPU();
  Stream stream;
  ScratchBuffer scratch;
  // 3M degrees averaging ~2048: the total is ~6.4e9 > 2^32.
  const auto degrees = random_values<uint32_t>(3'000'000, 0, 4095, 31);
  DeviceBuffer<uint32_t> in(degrees);
  DeviceBuffer<uint64_t> out(degrees.size());
  exclusive_sum(in.data(), out.data(), degrees.size(), scratch, stream);
  const std::vector<uint64_t> expected = host_exclusive_sum(degrees);
  ASSERT_GT(expected.back(), uint64_t{1} << 32);
  EXPECT_TRUE(vectors_equal(expected, out.download(stream)));
}

TEST(Algorithms, CountsToOffsetsEndsWithTheTotal) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  // Large counts make the total pass 2^32 quickly.
  const auto counts = random_values<uint32_t>(1'000'001, 0, 1u << 14, 32);
  DeviceBuffer<uint32_t> in(counts);
  DeviceBuffer<uint64_t> offsets(counts.size() + 1);
  counts_to_offsets(in.data(), offsets.data(), counts.size(), scratch);
  std::vector<uint64_t> expected = host_exclusive_sum(counts);
  expected.push_back(expected.back() + counts.back());
  ASSERT_GT(expected.back(), uint64_t{1} << 32);
  EXPECT_TRUE(vectors_equal(expected, offsets.download()));
  // No counts: the single offset 0.
  DeviceBuffer<uint64_t> single(1);
  single.fill(99);
  counts_to_offsets(in.data(), single.data(), 0, scratch);
  EXPECT_TRUE(vectors_equal(std::vector<uint64_t>{0}, single.download()));
}

TEST(Algorithms, ReductionsWithWideAccumulators) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const auto values = random_values<uint32_t>(2'000'003, 1u << 30, UINT32_MAX, 33);
  DeviceBuffer<uint32_t> in(values);
  DeviceBuffer<uint64_t> sum(1);
  DeviceBuffer<uint32_t> extreme(2);
  reduce_sum(in.data(), sum.data(), values.size(), scratch);
  reduce_min(in.data(), extreme.data(), values.size(), scratch);
  reduce_max(in.data(), extreme.data() + 1, values.size(), scratch);
  const uint64_t expected_sum = std::accumulate(values.begin(), values.end(), uint64_t{0});
  EXPECT_EQ(sum.download()[0], expected_sum);
  const std::vector<uint32_t> expected_extremes{*std::min_element(values.begin(), values.end()),
                                                *std::max_element(values.begin(), values.end())};
  EXPECT_TRUE(vectors_equal(expected_extremes, extreme.download()));
}

TEST(Algorithms, SignedAndFloatReductions) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const auto ints = random_values<int32_t>(100'000, -1'000'000, 1'000'000, 34);
  DeviceBuffer<int32_t> int_in(ints);
  DeviceBuffer<int32_t> int_out(2);
  reduce_min(int_in.data(), int_out.data(), ints.size(), scratch);
  reduce_max(int_in.data(), int_out.data() + 1, ints.size(), scratch);
  EXPECT_TRUE(vectors_equal(std::vector<int32_t>{*std::min_element(ints.begin(), ints.end()),
                                                 *std::max_element(ints.begin(), ints.end())},
                            int_out.download()));
  const auto floats = random_values<float>(100'000, -5.0f, 5.0f, 35);
  DeviceBuffer<float> float_in(floats);
  DeviceBuffer<float> float_out(1);
  reduce_max(float_in.data(), float_out.data(), floats.size(), scratch);
  EXPECT_EQ(float_out.download()[0], *std::max_element(floats.begin(), floats.end()));
}

TEST(Algorithms, EmptyReductionsGiveTheIdentity) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  DeviceBuffer<uint32_t> in(1);
  DeviceBuffer<uint64_t> sum(1);
  DeviceBuffer<uint32_t> extreme(2);
  sum.fill(77);
  reduce_sum(in.data(), sum.data(), 0, scratch);
  reduce_min(in.data(), extreme.data(), 0, scratch);
  reduce_max(in.data(), extreme.data() + 1, 0, scratch);
  EXPECT_EQ(sum.download()[0], 0u);
  EXPECT_TRUE(vectors_equal(std::vector<uint32_t>{UINT32_MAX, 0}, extreme.download()));
}

TEST(Algorithms, SortPairsIsStable) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const uint64_t n = 1'000'000;
  for (int end_bit : {32, 10}) {
    SCOPED_TRACE("end_bit " + std::to_string(end_bit));
    // Keys below 1000 (< 2^10), so sorting 10 bits is enough; many ties.
    const auto keys = random_values<uint32_t>(n, 0, 999, 36);
    std::vector<uint32_t> values(n);
    std::iota(values.begin(), values.end(), 0);
    DeviceBuffer<uint32_t> keys_in(keys), keys_out(n), values_in(values), values_out(n);
    sort_pairs(keys_in.data(), keys_out.data(), values_in.data(), values_out.data(), n, scratch, 0,
               0, end_bit);
    std::vector<uint32_t> order(values);
    std::stable_sort(order.begin(), order.end(),
                     [&keys](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    std::vector<uint32_t> sorted_keys(n);
    for (uint64_t i = 0; i < n; ++i) sorted_keys[i] = keys[order[i]];
    EXPECT_TRUE(vectors_equal(sorted_keys, keys_out.download())) << "keys";
    EXPECT_TRUE(vectors_equal(order, values_out.download())) << "values (stability)";
  }
}

TEST(Algorithms, SortPairsWith64BitKeys) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const uint64_t n = 300'000;
  const auto keys = random_values<uint64_t>(n, 0, UINT64_MAX, 37);
  const auto values = random_values<uint32_t>(n, 0, UINT32_MAX, 38);
  DeviceBuffer<uint64_t> keys_in(keys), keys_out(n);
  DeviceBuffer<uint32_t> values_in(values), values_out(n);
  sort_pairs(keys_in.data(), keys_out.data(), values_in.data(), values_out.data(), n, scratch);
  std::vector<std::pair<uint64_t, uint32_t>> pairs(n);
  for (uint64_t i = 0; i < n; ++i) pairs[i] = {keys[i], values[i]};
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<uint64_t> sorted_keys(n);
  std::vector<uint32_t> sorted_values(n);
  for (uint64_t i = 0; i < n; ++i) std::tie(sorted_keys[i], sorted_values[i]) = pairs[i];
  EXPECT_TRUE(vectors_equal(sorted_keys, keys_out.download()));
  EXPECT_TRUE(vectors_equal(sorted_values, values_out.download()));
}

TEST(Algorithms, SelectFlaggedAndSelectIf) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const uint64_t n = 1'234'567;
  const auto values = random_values<uint32_t>(n, 0, UINT32_MAX, 39);
  const auto flag_words = random_values<uint32_t>(n, 0, 3, 40);
  std::vector<uint8_t> flags(n);
  for (uint64_t i = 0; i < n; ++i) flags[i] = flag_words[i] == 0;  // about a quarter
  DeviceBuffer<uint32_t> in(values), out(n);
  DeviceBuffer<uint8_t> device_flags(flags);
  DeviceBuffer<uint64_t> count64(1);
  DeviceBuffer<uint32_t> count32(1);

  std::vector<uint32_t> flagged;
  for (uint64_t i = 0; i < n; ++i)
    if (flags[i]) flagged.push_back(values[i]);
  select_flagged(in.data(), device_flags.data(), out.data(), count64.data(), n, scratch);
  EXPECT_EQ(count64.download()[0], flagged.size());
  EXPECT_TRUE(vectors_equal(flagged, out.download_prefix(flagged.size())));

  std::vector<uint32_t> even;
  for (uint32_t value : values)
    if (value % 2 == 0) even.push_back(value);
  select_if(in.data(), out.data(), count32.data(), n, IsEven{}, scratch);
  EXPECT_EQ(count32.download()[0], even.size());
  EXPECT_TRUE(vectors_equal(even, out.download_prefix(even.size())));
}

TEST(Algorithms, SteadyStateCallsDoNotReallocateScratch) {
  IRGL_REQUIRE_GPU();
  ScratchBuffer scratch;
  const auto degrees = random_values<uint32_t>(1 << 20, 0, 100, 41);
  DeviceBuffer<uint32_t> in(degrees);
  DeviceBuffer<uint64_t> out(degrees.size());
  exclusive_sum(in.data(), out.data(), degrees.size(), scratch);
  const size_t allocations = scratch.allocations();
  const void* storage = scratch.reserve(0);
  for (int round = 0; round < 10; ++round) {
    exclusive_sum(in.data(), out.data(), degrees.size(), scratch);
    exclusive_sum(in.data(), out.data(), degrees.size() / 2, scratch);  // smaller: fits
  }
  EXPECT_EQ(scratch.allocations(), allocations);
  EXPECT_EQ(scratch.reserve(0), storage);
  exclusive_sum(in.data(), out.data(), degrees.size() / 2, scratch);
  EXPECT_TRUE(vectors_equal(host_exclusive_sum(std::vector<uint32_t>(
                                degrees.begin(), degrees.begin() + degrees.size() / 2)),
                            out.download_prefix(degrees.size() / 2)));
}

}  // namespace
}  // namespace irgl::gpu
