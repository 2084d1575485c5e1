// Minimal host-side data parallelism on std::thread (no OpenMP runtime to ship
// with binaries that travel to other machines).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace irgl {

// Number of worker threads host loops use: IRGL_THREADS if set, otherwise the
// hardware concurrency (at least 1).
unsigned host_threads();

// Calls body(chunk_begin, chunk_end, worker) for disjoint chunks covering
// [begin, end), one chunk per worker, workers in [0, host_threads()).
// Chunks are contiguous and in worker order, so per-worker partial results
// can be combined in order (e.g. for a prefix sum).
template <class Body>
void parallel_chunks(uint64_t begin, uint64_t end, Body&& body) {
  const uint64_t total = end > begin ? end - begin : 0;
  const unsigned workers = static_cast<unsigned>(
      std::max<uint64_t>(1, std::min<uint64_t>(host_threads(), total / 4096 + 1)));
  if (workers == 1) {
    body(begin, end, 0u);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(workers);
  for (unsigned w = 0; w < workers; ++w) {
    const uint64_t lo = begin + total * w / workers;
    const uint64_t hi = begin + total * (w + 1) / workers;
    threads.emplace_back([&body, lo, hi, w] { body(lo, hi, w); });
  }
  for (auto& thread : threads) thread.join();
}

// The number of chunks parallel_chunks(begin, end, ...) will use.
inline unsigned parallel_chunk_count(uint64_t begin, uint64_t end) {
  const uint64_t total = end > begin ? end - begin : 0;
  return static_cast<unsigned>(
      std::max<uint64_t>(1, std::min<uint64_t>(host_threads(), total / 4096 + 1)));
}

// Calls body(i) for every i in [begin, end), in parallel.
template <class Body>
void parallel_for(uint64_t begin, uint64_t end, Body&& body) {
  parallel_chunks(begin, end, [&body](uint64_t lo, uint64_t hi, unsigned) {
    for (uint64_t i = lo; i < hi; ++i) body(i);
  });
}

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
