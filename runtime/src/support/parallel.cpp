#include "irgl/support/parallel.h"

#include <cstdlib>

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

}  // namespace irgl
