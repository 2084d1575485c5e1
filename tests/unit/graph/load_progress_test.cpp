// Progress lines of loads (load_progress.h): after the first second a line at
// least about once a second whatever the phases, done lines for the phases
// shown (every phase with IRGL_PROGRESS=all), nothing with IRGL_NO_PROGRESS.
#include "load_progress.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace irgl::progress {
namespace {

// Sets or unsets an environment variable for the test's duration.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void sleep_for(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// The lines that name a phase and a share done, not a "done".
std::vector<std::string> periodic_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> periodic;
  for (const std::string& line : lines)
    if (line.find(": done (") == std::string::npos) periodic.push_back(line);
  return periodic;
}

TEST(LoadProgress, AllModeShowsEveryPhaseInOrder) {
  const ScopedEnv quiet("IRGL_NO_PROGRESS", nullptr);
  const ScopedEnv all("IRGL_PROGRESS", "all");
  ::testing::internal::CaptureStderr();
  {
    const Report report("g.txt", true);
    {
      const Phase reading("reading", 10);
      advance(10);
    }
    {
      const Phase outer("building", 0);
      const Phase inner("sorting", 5);
    }
  }
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  std::vector<std::string> done;
  for (const std::string& line : lines)
    if (line.find(": done (") != std::string::npos) done.push_back(line.substr(0, line.find(" (")));
  EXPECT_EQ(done, (std::vector<std::string>{"g.txt: reading: done", "g.txt: sorting: done",
                                            "g.txt: building: done", "g.txt: done"}))
      << ::testing::PrintToString(lines);
}

// Regression: a 25 s RMAT 22 load was silent for its last 12 s, when the
// phases after generation ran. Three phases of 0.6, 0.6 and 1.3 s, none
// advancing: lines still come about once a second after the first second.
TEST(LoadProgress, ALineAboutEverySecondWhateverThePhases) {
  const ScopedEnv quiet("IRGL_NO_PROGRESS", nullptr);
  const ScopedEnv all("IRGL_PROGRESS", nullptr);
  ::testing::internal::CaptureStderr();
  const auto start = std::chrono::steady_clock::now();
  {
    const Report report("rmat:22", true);
    for (const auto& [label, seconds] :
         std::vector<std::pair<const char*, double>>{{"a", 0.6}, {"b", 0.6}, {"c", 1.3}}) {
      const Phase phase(label, 100);
      sleep_for(seconds);
    }
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  const std::vector<std::string> periodic = periodic_lines(lines);
  // At about 1.0 and 2.0 s (later on a loaded machine, then perhaps fewer).
  EXPECT_GE(periodic.size(), elapsed < 2.9 ? 2u : 1u) << ::testing::PrintToString(lines);
  const std::regex shape(R"(rmat:22: [abc]:   0% \([0-9]+\.[0-9] s\))");
  for (const std::string& line : periodic) EXPECT_TRUE(std::regex_match(line, shape)) << line;
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().substr(0, 15), "rmat:22: done (");
  // A phase that was shown ends with its done line.
  for (const std::string& line : periodic) {
    const std::string done = line.substr(0, line.find(':', 9) + 1) + " done (";
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(),
                            [&](const std::string& l) { return l.rfind(done, 0) == 0; }))
        << done;
  }
}

TEST(LoadProgress, SharesDoneAndQuickLoadsStaySilent) {
  const ScopedEnv quiet("IRGL_NO_PROGRESS", nullptr);
  const ScopedEnv all("IRGL_PROGRESS", nullptr);
  ::testing::internal::CaptureStderr();
  {
    const Report report("g.csr", true);
    const Phase phase("reading", 200);
    advance(50);
    sleep_for(1.3);
  }
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0].substr(0, 23), "g.csr: reading:  25% (1");
  ::testing::internal::CaptureStderr();
  {
    const Report report("quick", true);
    const Phase phase("reading", 1);
    sleep_for(0.2);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST(LoadProgress, OffWithoutAReportOrWhenDisabled) {
  const ScopedEnv all("IRGL_PROGRESS", "all");
  ::testing::internal::CaptureStderr();
  {
    const Phase orphan("no report", 10);  // does nothing
    advance(5);
  }
  {
    const ScopedEnv quiet("IRGL_NO_PROGRESS", "1");
    const Report report("g", true);
    const Phase phase("reading", 1);
  }
  {
    const ScopedEnv quiet("IRGL_NO_PROGRESS", nullptr);
    const Report report("g", false);  // --quiet
    const Phase phase("reading", 1);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// A report made while another is current joins it (a cache write inside a
// load reports as a phase of the load).
TEST(LoadProgress, NestedReportsJoinTheCurrentOne) {
  const ScopedEnv quiet("IRGL_NO_PROGRESS", nullptr);
  const ScopedEnv all("IRGL_PROGRESS", "all");
  ::testing::internal::CaptureStderr();
  {
    const Report outer("load", true);
    const Report inner("write", true);
    const Phase phase("writing", 1);
  }
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  ASSERT_EQ(lines.size(), 2u) << ::testing::PrintToString(lines);
  EXPECT_EQ(lines[0].substr(0, 21), "load: writing: done (");
  EXPECT_EQ(lines[1].substr(0, 12), "load: done (");
}

}  // namespace
}  // namespace irgl::progress
