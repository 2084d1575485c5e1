// Minimal host-side data parallelism on std::thread (no OpenMP runtime to ship
// with binaries that travel to other machines). When the system refuses a
// thread (IRGL_THREADS above a pids or memory limit), the work runs on the
// threads that did start, after one warning on stderr.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

namespace irgl {

// Number of worker threads host loops use: IRGL_THREADS if set, otherwise the
// hardware concurrency (at least 1).
unsigned host_threads();

namespace detail {

// Reports, once per process, that the system refused a worker thread.
void warn_thread_refused(unsigned started, unsigned wanted, const std::system_error& error);

// Worker threads, joined when this goes out of scope (even when the calling
// thread's own share of the work throws).
class Workers {
 public:
  explicit Workers(unsigned capacity) { threads_.reserve(capacity); }
  ~Workers() {
    for (std::thread& thread : threads_) thread.join();
  }
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  // Runs work(w) on a new thread for each w in [first, last), stopping at
  // the first thread the system refuses (a memory, pids or ulimit limit);
  // returns the first w that got no thread, so that the caller can do it.
  template <class Work>
  unsigned start(unsigned first, unsigned last, Work& work) {
    unsigned w = first;
    try {
      for (; w < last; ++w) threads_.emplace_back([&work, w] { work(w); });
    } catch (const std::system_error& error) {
      warn_thread_refused(w - first, last - first, error);
    }
    return w;
  }

 private:
  std::vector<std::thread> threads_;
};

}  // namespace detail

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
  auto chunk = [&body, begin, total, workers](unsigned w) {
    body(begin + total * w / workers, begin + total * (w + 1) / workers, w);
  };
  detail::Workers threads(workers);
  unsigned w = threads.start(0, workers, chunk);
  for (; w < workers; ++w) chunk(w);  // the chunks no thread could be started for
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
  detail::Workers threads(workers - 1);
  threads.start(1, workers, work);
  work(0);  // with however many threads started: the tasks are shared
}

}  // namespace irgl
