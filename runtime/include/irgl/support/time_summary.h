// The summary every timed run reports: median, min and max of its times
// (generated programs, tools/bench's baselines).
//
//   const TimeSummary summary = summarize_times(times_ms);
//   print_time_summary(summary, times_ms.size());  // "time: median ... ms, ..."
//
// The printed line is what tools/bench/irgl-bench reads.
#pragma once

#include <algorithm>
#include <cstdio>
#include <vector>

namespace irgl {

struct TimeSummary {
  double median = 0, min = 0, max = 0;
};

// Of at least one time; the median of an even count is the mean of the two
// middle times.
inline TimeSummary summarize_times(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  const double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  return {median, times.front(), times.back()};
}

inline void print_time_summary(const TimeSummary& summary, size_t runs) {
  std::printf("time: median %.3f ms, min %.3f ms, max %.3f ms over %zu run%s\n", summary.median,
              summary.min, summary.max, runs, runs == 1 ? "" : "s");
}

}  // namespace irgl
