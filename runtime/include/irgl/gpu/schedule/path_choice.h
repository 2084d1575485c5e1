// PathChoice: picks the faster of two equivalent paths of one launch site by
// timing each (ALB's TWC and row tiles, schedules.cuh: Alb). Host code only;
// the caller measures (CUDA events read without waiting) and reports.
#pragma once

namespace irgl::gpu::schedule {

// The first kTrials launches alternate the paths (0, 1, 0, 1), each timed;
// the times arrive later, and from the first launch after all arrived on,
// the path of the shorter best time runs for good (ties: path 0). Launches
// in between run path 0 untimed. Each path's best of two: its first launch
// pays one-time costs (module loading, cold caches; the row tiles' cut),
// which once made spmv on ego-twitter keep TWC at 2.3x the row tiles' time.
class PathChoice {
 public:
  static constexpr int kTrials = 4;

  // The path the next launch runs; *trial: the trial it is (time it and
  // report time()), or -1.
  int next(int* trial) {
    *trial = chosen_ < 0 && launched_ < kTrials ? launched_++ : -1;
    if (*trial >= 0) return path_of(*trial);
    return chosen_ < 0 ? 0 : chosen_;
  }
  // Trial `trial` took `ms`.
  void time(int trial, float ms) {
    ms_[trial] = ms;
    for (int t = 0; t < kTrials; ++t)
      if (ms_[t] < 0) return;
    chosen_ = best(1) < best(0) ? 1 : 0;
  }
  // Trial `trial` ran and its time has not arrived.
  bool waiting(int trial) const { return launched_ > trial && ms_[trial] < 0; }
  // The path chosen, or -1 while undecided.
  int chosen() const { return chosen_; }
  // The best time of `path`'s trials so far (negative: none).
  float best(int path) const {
    float best = -1;
    for (int t = path; t < kTrials; t += 2)
      if (ms_[t] >= 0 && (best < 0 || ms_[t] < best)) best = ms_[t];
    return best;
  }
  static int path_of(int trial) { return trial % 2; }

 private:
  int launched_ = 0;  // trials launched so far
  float ms_[kTrials] = {-1, -1, -1, -1};
  int chosen_ = -1;
};

}  // namespace irgl::gpu::schedule
