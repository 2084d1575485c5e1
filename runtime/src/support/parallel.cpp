#include "irgl/support/parallel.h"

#include <cstdlib>
#include <iostream>

namespace irgl {

unsigned host_threads() {
  static const unsigned threads = [] {
    if (const char* env = std::getenv("IRGL_THREADS")) {
      const long requested = std::strtol(env, nullptr, 10);
      if (requested > 0) return static_cast<unsigned>(requested);
    }
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  return threads;
}

namespace detail {

void warn_thread_refused(unsigned started, unsigned wanted, const std::system_error& error) {
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  std::cerr << "irgl: warning: the system refused a worker thread (" << error.what()
            << "); running on " << started + 1 << " of " << wanted + 1
            << " threads (lower IRGL_THREADS to avoid this)\n";
}

}  // namespace detail

}  // namespace irgl
