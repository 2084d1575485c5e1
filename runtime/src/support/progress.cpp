#include "irgl/support/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace irgl {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}
}  // namespace

Progress::Progress(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {
  enabled_ = std::getenv("IRGL_NO_PROGRESS") == nullptr;
  terminal_ = isatty(STDERR_FILENO) != 0;
}

Progress::~Progress() {
  if (!printed_) return;
  std::fprintf(stderr, "%s%s: done (%.1f s)\n", terminal_ ? "\r" : "",
               label_.c_str(), seconds_since(start_));
}

void Progress::advance(uint64_t amount) {
  done_.fetch_add(amount, std::memory_order_relaxed);
  maybe_print();
}

void Progress::set(uint64_t done) {
  done_.store(done, std::memory_order_relaxed);
  maybe_print();
}

void Progress::maybe_print() {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1) ||
      now - last_print_ < std::chrono::seconds(1))
    return;
  std::unique_lock<std::mutex> lock(print_mutex_, std::try_to_lock);
  if (!lock.owns_lock() || now - last_print_ < std::chrono::seconds(1)) return;
  last_print_ = now;
  printed_ = true;
  const double fraction =
      total_ ? static_cast<double>(done_.load(std::memory_order_relaxed)) / total_
             : 0.0;
  std::fprintf(stderr, "%s%s: %3.0f%% (%.1f s)%s", terminal_ ? "\r" : "",
               label_.c_str(), 100.0 * std::min(fraction, 1.0),
               seconds_since(start_), terminal_ ? "" : "\n");
  std::fflush(stderr);
}

}  // namespace irgl
