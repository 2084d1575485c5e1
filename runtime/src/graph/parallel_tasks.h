// Dynamic scheduling of independent tasks over the host threads (internal to
// the graph library), for work whose pieces differ widely in cost.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "irgl/support/parallel.h"

namespace irgl {

// Calls body(task, worker) once for every task in [0, count); host_threads()
// workers take the next task as they finish one. worker < host_threads().
template <class Body>
void parallel_tasks(uint64_t count, Body&& body) {
  const unsigned workers =
      static_cast<unsigned>(std::min<uint64_t>(host_threads(), std::max<uint64_t>(count, 1)));
  std::atomic<uint64_t> next{0};
  auto work = [&](unsigned worker) {
    for (uint64_t task; (task = next.fetch_add(1, std::memory_order_relaxed)) < count;)
      body(task, worker);
  };
  if (workers == 1) {
    work(0);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, w);
  work(0);
  for (auto& thread : threads) thread.join();
}

}  // namespace irgl
