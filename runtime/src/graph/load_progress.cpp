#include "load_progress.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>

namespace irgl::progress {

using Clock = std::chrono::steady_clock;

struct PhaseState {
  std::string label;
  uint64_t total = 0;
  std::atomic<uint64_t> done{0};
  Clock::time_point start = Clock::now();
  bool shown = false;          // a line named it
  PhaseState* outer = nullptr;  // the phase it is nested in
};

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

// The current report: its phase stack, and a thread that prints a line
// about once a second after the first second.
class Reporter {
 public:
  Reporter(std::string name, bool all)
      : name_(std::move(name)), all_(all), terminal_(isatty(STDERR_FILENO) != 0) {
    try {
      ticker_ = std::thread([this] { tick(); });
    } catch (const std::system_error&) {
      // No thread to spare (IRGL_THREADS over a limit): phase ends still
      // print, periodic lines do not.
    }
  }

  ~Reporter() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (ticker_.joinable()) ticker_.join();
    if (printed_ || all_) print(name_ + ": done (" + format_seconds(seconds_since(start_)) + ")", true);
  }

  void push(PhaseState* phase) {
    std::lock_guard<std::mutex> lock(mutex_);
    phase->outer = top_.load(std::memory_order_relaxed);
    top_.store(phase, std::memory_order_release);
  }

  void pop(PhaseState* phase) {
    std::lock_guard<std::mutex> lock(mutex_);
    top_.store(phase->outer, std::memory_order_release);
    if (phase->shown || all_)
      print(name_ + ": " + phase->label + ": done (" + format_seconds(seconds_since(phase->start)) +
                ")",
            true);
  }

  void advance(uint64_t amount) {
    if (PhaseState* phase = top_.load(std::memory_order_acquire))
      phase->done.fetch_add(amount, std::memory_order_relaxed);
  }

 private:
  static std::string format_seconds(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", seconds);
    return text;
  }

  // Every 100 ms: after the first second, a line for the innermost phase
  // when none was printed for a second.
  void tick() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, std::chrono::milliseconds(100));
      if (stopping_) break;
      const auto now = Clock::now();
      if (now - start_ < std::chrono::seconds(1)) continue;
      if (printed_ && now - last_print_ < std::chrono::seconds(1)) continue;
      PhaseState* phase = top_.load(std::memory_order_relaxed);
      if (!phase) continue;
      std::string line = name_ + ": " + phase->label + ": ";
      if (phase->total != 0) {
        const double fraction =
            std::min(1.0, double(phase->done.load(std::memory_order_relaxed)) / phase->total);
        char percent[16];
        std::snprintf(percent, sizeof percent, "%3.0f%% ", 100.0 * fraction);
        line += percent;
      }
      line += "(" + format_seconds(seconds_since(start_)) + ")";
      phase->shown = true;
      print(line, false);
    }
  }

  // Prints under mutex_. On a terminal, periodic lines (`final` false)
  // rewrite one line in place; elsewhere every line stands alone.
  void print(const std::string& line, bool final) {
    if (terminal_)
      std::fprintf(stderr, "\r%s\033[K%s", line.c_str(), final ? "\n" : "");
    else
      std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    printed_ = true;
    last_print_ = Clock::now();
  }

  const std::string name_;
  const bool all_;
  const bool terminal_;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point last_print_ = start_;
  bool printed_ = false;
  std::atomic<PhaseState*> top_{nullptr};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread ticker_;
};

namespace {
std::atomic<Reporter*> current{nullptr};
}  // namespace

Report::Report(const std::string& name, bool enabled) {
  if (!enabled || std::getenv("IRGL_NO_PROGRESS") != nullptr ||
      current.load(std::memory_order_acquire) != nullptr)
    return;
  const char* mode = std::getenv("IRGL_PROGRESS");
  reporter_ = new Reporter(name, mode != nullptr && std::strcmp(mode, "all") == 0);
  current.store(reporter_, std::memory_order_release);
}

Report::~Report() {
  if (!reporter_) return;
  current.store(nullptr, std::memory_order_release);
  delete reporter_;
}

Phase::Phase(const std::string& label, uint64_t total) {
  reporter_ = current.load(std::memory_order_acquire);
  if (!reporter_) return;
  state_ = new PhaseState;
  state_->label = label;
  state_->total = total;
  reporter_->push(state_);
}

Phase::~Phase() {
  if (!reporter_) return;
  reporter_->pop(state_);
  delete state_;
}

void advance(uint64_t amount) {
  if (Reporter* reporter = current.load(std::memory_order_acquire)) reporter->advance(amount);
}

}  // namespace irgl::progress
