// PathChoice (path_choice.h): the paths alternate over the trials, the one
// of the shorter best time is kept.
#include "irgl/gpu/schedule/path_choice.h"

#include <gtest/gtest.h>

namespace irgl::gpu::schedule {
namespace {

TEST(PathChoice, AlternatesTheTrialsThenKeepsTheBestTime) {
  PathChoice choice;
  int trial = -1;
  for (int t = 0; t < PathChoice::kTrials; ++t) {
    EXPECT_EQ(choice.next(&trial), t % 2);
    EXPECT_EQ(trial, t);
    EXPECT_TRUE(choice.waiting(t));
  }
  // The times have not arrived: path 0, no trial.
  EXPECT_EQ(choice.next(&trial), 0);
  EXPECT_EQ(trial, -1);
  // Path 1's first trial paid a one-time cost; its second is the best.
  choice.time(0, 1.0f);
  choice.time(1, 3.0f);
  choice.time(2, 1.1f);
  EXPECT_EQ(choice.chosen(), -1);
  EXPECT_FALSE(choice.waiting(2));
  EXPECT_TRUE(choice.waiting(3));
  choice.time(3, 0.5f);
  EXPECT_EQ(choice.chosen(), 1);
  EXPECT_FLOAT_EQ(choice.best(0), 1.0f);
  EXPECT_FLOAT_EQ(choice.best(1), 0.5f);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(choice.next(&trial), 1);
    EXPECT_EQ(trial, -1);
  }
}

TEST(PathChoice, TiesKeepPathZero) {
  PathChoice choice;
  int trial = -1;
  for (int t = 0; t < PathChoice::kTrials; ++t) choice.next(&trial);
  for (int t = 0; t < PathChoice::kTrials; ++t) choice.time(t, 1.0f);
  EXPECT_EQ(choice.chosen(), 0);
  EXPECT_EQ(choice.next(&trial), 0);
  EXPECT_EQ(trial, -1);
}

TEST(PathChoice, NothingWaitsBeforeItsLaunch) {
  PathChoice choice;
  for (int t = 0; t < PathChoice::kTrials; ++t) EXPECT_FALSE(choice.waiting(t));
  int trial = -1;
  choice.next(&trial);
  EXPECT_TRUE(choice.waiting(0));
  EXPECT_FALSE(choice.waiting(1));
  EXPECT_LT(choice.best(0), 0.0f);
}

}  // namespace
}  // namespace irgl::gpu::schedule
