// A progress indicator for long host operations (loading, generating).
//
// Silent for operations that finish within a second; after that it prints
// "<label>: 37% (1.2 s)" to stderr about once a second, on one rewritten line
// when stderr is a terminal and as separate lines otherwise, and a final line
// when done. Disabled entirely when IRGL_NO_PROGRESS is set.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace irgl {

class Progress {
 public:
  // `total` is in whatever unit the caller advances by (bytes, edges...).
  Progress(std::string label, uint64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Adds `amount` units of work done; cheap, callable from several threads.
  void advance(uint64_t amount);
  // Sets the number of units done (for callers that track it themselves).
  void set(uint64_t done);

 private:
  void maybe_print();

  std::string label_;
  uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
  std::mutex print_mutex_;
  bool printed_ = false;
  bool enabled_ = true;
  bool terminal_ = false;
};

}  // namespace irgl
