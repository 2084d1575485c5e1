// summarize_energy (irgl/lang/program.h): the energy line of a program's
// report. NVML's counter moves in steps of tens of milliseconds, so runs
// that add up to less than kEnergyMinMilliseconds report no energy (an
// H200 run of RMAT 22 bfs, 7 runs of 1.8 ms, read 1,037 W and 0 W).
#include <gtest/gtest.h>

#include <vector>

#include "irgl/lang/program.h"

namespace irgl::lang {
namespace {

EnergyReading counter() {
  EnergyReading reading;
  reading.millijoules = 1.0;
  reading.source = "NVML total-energy counter";
  return reading;
}

TEST(EnergySummary, TotalOverTimeWhenTheRunsAreLongEnough) {
  const EnergySummary summary =
      summarize_energy(counter(), {30000, 50000}, {100, kEnergyMinMilliseconds});
  ASSERT_TRUE(summary.millijoules_per_run);
  EXPECT_DOUBLE_EQ(*summary.millijoules_per_run, 40000);
  EXPECT_DOUBLE_EQ(*summary.watts, 80000 / (100 + kEnergyMinMilliseconds));
  EXPECT_EQ(summary.source, "NVML total-energy counter");
  EXPECT_TRUE(summary.why_not.empty());
}

TEST(EnergySummary, ShortRunsAreNotMeasured) {
  const std::vector<double> times(7, 1.8), energies{0, 0, 12406, 0, 0, 0, 0};
  const EnergySummary summary = summarize_energy(counter(), energies, times);
  EXPECT_FALSE(summary.millijoules_per_run);
  EXPECT_FALSE(summary.watts);
  EXPECT_NE(summary.why_not.find("the timed runs took 12.6 ms in all"), std::string::npos)
      << summary.why_not;
  EXPECT_NE(summary.why_not.find("raise --runs"), std::string::npos) << summary.why_not;
}

TEST(EnergySummary, RunsWithoutAReadingSayWhy) {
  EnergyReading none;
  none.why_not = "libnvidia-ml.so.1: cannot open shared object file";
  const EnergySummary summary = summarize_energy(none, {}, {600, 700});
  EXPECT_FALSE(summary.millijoules_per_run);
  EXPECT_EQ(summary.why_not, none.why_not);
  EXPECT_EQ(summarize_energy(counter(), {1, 2}, {600}).why_not, "not every run was measured");
}

}  // namespace
}  // namespace irgl::lang
