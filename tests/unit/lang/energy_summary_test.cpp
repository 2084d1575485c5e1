// summarize_energy (irgl/lang/program.h): the energy line of a program's
// report. NVML's counter moves in steps of tens of milliseconds, so an
// interval shorter than kEnergyMinMilliseconds reports no energy (an H200
// run of RMAT 22 bfs, 7 runs of 1.8 ms, read 1,037 W and 0 W), and a run's
// share is the interval's power times the run's time.
#include <gtest/gtest.h>

#include <vector>

#include "irgl/lang/program.h"

namespace irgl::lang {
namespace {

EnergyReading counter(double millijoules) {
  EnergyReading reading;
  reading.millijoules = millijoules;
  reading.source = "NVML total-energy counter";
  return reading;
}

TEST(EnergySummary, PowerOverTheIntervalTimesTheMeanRun) {
  // 400 runs of 2 or 3 ms in 1,010 ms (10 ms of host work between them)
  // drawing 303 J: 300 W, and a run of 2.5 ms on average 750 mJ.
  std::vector<double> times(200, 2.0);
  times.resize(400, 3.0);
  const EnergySummary summary = summarize_energy(counter(303000), times, 1010);
  ASSERT_TRUE(summary.millijoules_per_run);
  EXPECT_DOUBLE_EQ(*summary.watts, 300);
  EXPECT_DOUBLE_EQ(*summary.millijoules_per_run, 750);
  EXPECT_EQ(summary.source, "NVML total-energy counter");
  EXPECT_TRUE(summary.why_not.empty());
}

TEST(EnergySummary, ShortIntervalsAreNotMeasured) {
  const std::vector<double> times(7, 1.8);
  const EnergySummary summary = summarize_energy(counter(12406), times, 12.6);
  EXPECT_FALSE(summary.millijoules_per_run);
  EXPECT_FALSE(summary.watts);
  EXPECT_NE(summary.why_not.find("the runs took 12.6 ms in all"), std::string::npos)
      << summary.why_not;
  EXPECT_NE(summary.why_not.find("--energy-ms"), std::string::npos) << summary.why_not;
  EXPECT_TRUE(summarize_energy(counter(1), {1.0}, kEnergyMinMilliseconds).millijoules_per_run);
}

TEST(EnergySummary, ReadingsWithoutEnergySayWhy) {
  EnergyReading none;
  none.why_not = "libnvidia-ml.so.1: cannot open shared object file";
  const EnergySummary summary = summarize_energy(none, {600, 700}, 1300);
  EXPECT_FALSE(summary.millijoules_per_run);
  EXPECT_EQ(summary.why_not, none.why_not);
  EXPECT_EQ(summarize_energy(counter(5), {}, 1000).why_not, "no run was measured");
}

}  // namespace
}  // namespace irgl::lang
