// How irgl-check compares results with the reference answers.
#include "compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace irgl::check {
namespace {

constexpr uint64_t inf = kUnreachable;
constexpr uint64_t kShowAll = 100;

TEST(CompareDistances, EqualValuesPass) {
  const Verdict verdict = compare_distances({0, 1, inf}, {0, 1, inf}, 0, kShowAll);
  EXPECT_TRUE(verdict.passed);
  EXPECT_EQ(verdict.mismatches, 0u);
  EXPECT_TRUE(verdict.shown.empty());
  EXPECT_EQ(verdict.summary, "all 3 values match");
}

TEST(CompareDistances, ReportsEachDifferenceAndTheSource) {
  const Verdict verdict = compare_distances({1, 0, 2, inf}, {1, 5, inf, 3}, 1, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.mismatches, 3u);
  EXPECT_EQ(verdict.shown, (std::vector<std::string>{
                               "vertex 1: (the source) expected 0, got 5",
                               "vertex 2: expected 2, got inf",
                               "vertex 3: expected inf, got 3",
                           }));
  EXPECT_EQ(verdict.summary, "3 of 4 values differ");
}

TEST(CompareDistances, ShowsAtMostTheRequestedNumber) {
  const Verdict verdict = compare_distances({0, 1, 2, 3}, {0, 9, 9, 9}, 0, 2);
  EXPECT_EQ(verdict.mismatches, 3u);
  EXPECT_EQ(verdict.shown.size(), 2u);
  EXPECT_EQ(verdict.shown[1], "vertex 2: expected 2, got 9");
  EXPECT_TRUE(compare_distances({0, 1}, {0, 2}, 0, 0).shown.empty());
}

// Reference: {0, 1, 2} and {3, 4, 5}.
Components two_components() { return {{0, 0, 0, 1, 1, 1}, 2}; }

TEST(ComparePartitions, AcceptsAnyLabelsGivingTheSamePartition) {
  for (const std::vector<int64_t>& labels :
       {std::vector<int64_t>{0, 0, 0, 3, 3, 3}, std::vector<int64_t>{7, 7, 7, -3, -3, -3},
        std::vector<int64_t>{INT64_MIN, INT64_MIN, INT64_MIN, INT64_MAX, INT64_MAX, INT64_MAX}}) {
    const Verdict verdict = compare_partitions(two_components(), labels, kShowAll);
    EXPECT_TRUE(verdict.passed) << verdict.summary;
    EXPECT_EQ(verdict.summary,
              "all 6 vertices labelled consistently (2 components, 2 distinct labels)");
  }
}

TEST(ComparePartitions, RejectsMergedComponents) {
  const Verdict verdict = compare_partitions(two_components(), {1, 1, 1, 1, 1, 1}, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.mismatches, 3u);
  EXPECT_EQ(verdict.shown[0],
            "vertex 3: components merged: labelled 1 like vertex 0, which it is not connected to");
  EXPECT_EQ(verdict.summary,
            "3 of 6 vertices labelled inconsistently (2 components, 1 distinct labels)");
}

TEST(ComparePartitions, RejectsASplitComponent) {
  const Verdict verdict = compare_partitions(two_components(), {0, 0, 9, 1, 1, 1}, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.mismatches, 1u);
  EXPECT_EQ(verdict.shown,
            (std::vector<std::string>{
                "vertex 2: component split: connected to vertex 0 but labelled 9, not 0"}));
}

TEST(ComparePartitions, RejectsASplitThatReusesAnotherComponentsLabel) {
  // Vertex 4 carries the first component's label: its own component is split.
  const Verdict verdict = compare_partitions(two_components(), {0, 0, 0, 1, 0, 1}, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.shown,
            (std::vector<std::string>{
                "vertex 4: component split: connected to vertex 3 but labelled 0, not 1"}));
}

TEST(CompareMembership, OneExactlyForCoreNumbersAtLeastK) {
  const std::vector<uint32_t> core = {3, 2, 1, 0};
  EXPECT_TRUE(compare_membership(core, 2, {1, 1, 0, 0}, kShowAll).passed);
  EXPECT_TRUE(compare_membership(core, 0, {1, 1, 1, 1}, kShowAll).passed);
  EXPECT_TRUE(compare_membership(core, 4, {0, 0, 0, 0}, kShowAll).passed);
  const Verdict verdict = compare_membership(core, 2, {1, 0, 1, 0}, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.shown, (std::vector<std::string>{
                               "vertex 1: expected 1, got 0 (core number 2)",
                               "vertex 2: expected 0, got 1 (core number 1)",
                           }));
  EXPECT_EQ(verdict.summary, "2 of 4 values differ; the 2-core has 2 vertices");
}

TEST(CompareCount, EqualOrNot) {
  EXPECT_TRUE(compare_count(45, 45).passed);
  EXPECT_EQ(compare_count(45, 45).summary, "count 45 matches");
  const Verdict wrong = compare_count(45, 44);
  EXPECT_FALSE(wrong.passed);
  EXPECT_EQ(wrong.mismatches, 1u);
  EXPECT_EQ(wrong.summary, "expected 45, got 44");
}

// Tolerance 0.25 and values that are exact in binary, so the boundaries are
// exact too.
TEST(ComparePagerank, L1ErrorEqualToTheTolerancePasses) {
  const Verdict verdict = compare_pagerank({0.5, 0.5}, {0.625, 0.375}, 0.25, kShowAll);
  EXPECT_TRUE(verdict.passed);
  EXPECT_EQ(verdict.summary, "L1 error 0.25 <= 0.25 (largest error 0.125 at vertex 0)");
}

TEST(ComparePagerank, L1ErrorAboveTheToleranceFailsWithNoSingleVertexOff) {
  // Each vertex is within 0.25, their sum is not.
  const Verdict verdict = compare_pagerank({0.5, 0.5}, {0.625, 0.3671875}, 0.25, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_TRUE(verdict.shown.empty());
  EXPECT_EQ(verdict.summary,
            "L1 error 0.2578 > 0.25 (largest error 0.1328 at vertex 1)");
}

TEST(ComparePagerank, VerticesOffByMoreThanTheToleranceAreShown) {
  const Verdict verdict = compare_pagerank({0.5, 0.25, 0.25}, {0.5, 0.5625, 0.25}, 0.25, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.shown,
            (std::vector<std::string>{"vertex 1: expected 0.25, got 0.5625 (off by 0.3125)"}));
  EXPECT_EQ(verdict.summary,
            "L1 error 0.3125 > 0.25; 1 of 3 values are off by more than 0.25 "
            "(largest error 0.3125 at vertex 1)");
}

TEST(ComparePagerank, NanNeverPasses) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Verdict verdict = compare_pagerank({0.5, 0.5}, {0.5, nan}, 1.0, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.mismatches, 1u);
  EXPECT_EQ(verdict.shown,
            (std::vector<std::string>{"vertex 1: expected 0.5, got nan (off by nan)"}));
}

TEST(CompareSpmv, ToleranceScalesWithTheRowMagnitude) {
  // Row magnitudes 10 and 0: allowed errors 0.5 * 10 + 1e-6 and 1e-6.
  const SpmvResult expected{{4, 0}, {10, 0}};
  EXPECT_TRUE(compare_spmv(expected, {9, 0}, 0.5, kShowAll).passed);
  EXPECT_TRUE(compare_spmv(expected, {-1, 0.5e-6}, 0.5, kShowAll).passed);
  const Verdict verdict = compare_spmv(expected, {9.5, 2e-6}, 0.5, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.shown, (std::vector<std::string>{
                               "vertex 0: expected 4, got 9.5 (off by 5.5, allowed 5)",
                               "vertex 1: expected 0, got 2e-06 (off by 2e-06, allowed 1e-06)",
                           }));
  EXPECT_EQ(verdict.summary,
            "2 of 2 values are off by more than allowed (largest error 5.5 at vertex 0)");
}

TEST(CompareRelative, ToleranceIsRelativeAboveOneAndAbsoluteBelow) {
  // Tolerance 0.25: 8 may be off by 2, 0.5 and 0 by 0.25.
  EXPECT_TRUE(compare_relative({8, 0.5, 0}, {10, 0.75, 0.25}, 0.25, kShowAll).passed);
  const Verdict verdict = compare_relative({8, 0.5, 0}, {5, 0.8125, 0.25}, 0.25, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.shown, (std::vector<std::string>{
                               "vertex 0: expected 8, got 5 (off by 3)",
                               "vertex 1: expected 0.5, got 0.8125 (off by 0.3125)",
                           }));
  EXPECT_EQ(verdict.summary,
            "2 of 3 values are off by more than 0.25 * max(1, |expected|) "
            "(largest error 3 at vertex 0)");
}

TEST(CompareRelative, NegativeAndNanNeverPass) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Verdict verdict = compare_relative({0, 1, 2}, {-0.125, nan, 2}, 0.5, kShowAll);
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.shown, (std::vector<std::string>{
                               "vertex 0: expected 0, got -0.125 (negative, off by 0.125)",
                               "vertex 1: expected 1, got nan (off by nan)",
                           }));
  EXPECT_TRUE(compare_relative({0}, {-0.0}, 0.5, kShowAll).passed);
}

TEST(FormatError, FourSignificantDigits) {
  EXPECT_EQ(format_error(1e-4), "0.0001");
  EXPECT_EQ(format_error(1.8891346820204546e-12), "1.889e-12");
  EXPECT_EQ(format_error(2.125), "2.125");
}

TEST(FormatReal, ShortestRoundTrip) {
  EXPECT_EQ(format_real(0.1), "0.1");
  EXPECT_EQ(format_real(1e-7), "1e-07");
  EXPECT_EQ(format_real(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(format_real(std::numeric_limits<double>::infinity()), "inf");
}

}  // namespace
}  // namespace irgl::check
