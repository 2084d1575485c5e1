// The hand-written SpMV and SpMM kernels on the schedule ranges
// (runtime/examples/sparse_ranges.cuh) against a CPU product: every
// schedule, group sizes that are powers of two and not, the composed kernel
// with cut-offs that send all, some and none of the rows to blocks, one and
// several columns, on the resident grid and on a grid of two blocks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "sparse_fixtures.h"
#include "sparse_ranges.cuh"

namespace irgl::examples {
namespace {

using testing::DeviceMatrix;
using testing::HostMatrix;

struct Case {
  std::string schedule;
  uint64_t long_row = 0;  // composed: the cut-off
};

std::vector<Case> every_schedule() {
  std::vector<Case> cases = {{"thread"}, {"warp"}, {"block"}, {"merge-path"}};
  for (uint32_t size : {1, 3, 7, 32, 33, 96, 256}) cases.push_back({"group:" + std::to_string(size)});
  for (uint64_t long_row : {uint64_t{0}, uint64_t{8}, uint64_t{1000}, ~uint64_t{0}})
    cases.push_back({"composed", long_row});
  return cases;
}

// C = A B with `c` on `blocks` blocks (0: the resident grid), downloaded.
std::vector<float> product_on_gpu(const HostMatrix& m, const DeviceMatrix& a,
                                  const gpu::DeviceBuffer<float>& b, uint32_t cols,
                                  const Case& c, unsigned blocks) {
  const auto schedule = parse_schedule(c.schedule);
  EXPECT_TRUE(schedule.has_value()) << c.schedule;
  gpu::DeviceBuffer<float> out(uint64_t(m.rows()) * cols);
  out.fill(12345.0f);  // every entry must be written
  const Product p{{a.offsets.data(), a.columns.data(), a.values.data(), a.rows}, b.data(),
                  out.data(), cols};
  const RowSplit split(m.offsets, c.long_row);
  multiply(*schedule, p, &split, blocks ? blocks : resident_blocks(*schedule));
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  return out.download();
}

void check_products(uint32_t cols) {
  for (const HostMatrix& m : testing::test_matrices()) {
    const DeviceMatrix a(m);
    const std::vector<float> b = testing::dense_matrix(m.column_count, cols, 7);
    const gpu::DeviceBuffer<float> device_b(b);
    const std::vector<float> expected = testing::reference_product(m, b, cols);
    for (const Case& c : every_schedule())
      for (unsigned blocks : {0u, 2u}) {
        SCOPED_TRACE(m.name + ", " + c.schedule + " (long rows > " + std::to_string(c.long_row) +
                     "), " + std::to_string(cols) + " column(s), " + std::to_string(blocks) +
                     " blocks (0: resident)");
        EXPECT_TRUE(testing::vectors_equal(expected,
                                           product_on_gpu(m, a, device_b, cols, c, blocks)));
      }
  }
}

TEST(SparseRanges, SpmvMatchesTheCpuForEverySchedule) {
  IRGL_REQUIRE_GPU();
  check_products(1);
}

TEST(SparseRanges, SpmmMatchesTheCpuForEverySchedule) {
  IRGL_REQUIRE_GPU();
  check_products(5);
}

TEST(SparseRanges, ScheduleNames) {
  EXPECT_TRUE(parse_schedule("thread").has_value());
  EXPECT_TRUE(parse_schedule("merge-path").has_value());
  EXPECT_TRUE(parse_schedule("composed").has_value());
  const auto group = parse_schedule("group:33");
  ASSERT_TRUE(group.has_value());
  EXPECT_EQ(group->kind, ScheduleKind::group);
  EXPECT_EQ(group->group_size, 33u);
  EXPECT_TRUE(parse_schedule("group:256").has_value());
  for (const char* bad : {"group:0", "group:257", "group:", "group:x", "twc", ""})
    EXPECT_FALSE(parse_schedule(bad).has_value()) << bad;
}

}  // namespace
}  // namespace irgl::examples
