// Paper 004's host-fed pool (irgl/gpu/tasks/host_fed_pool.cuh) on the GPU:
// the host submits tasks of two types into a small ring while the
// persistent kernel takes them, so host and device race on every slot;
// every task must run exactly once, with every thread of its block. The
// tests run with the rings in mapped host memory and in device memory
// (batches sent on a copy stream; small batches against small rings, so
// the host's snapshots of free slots race the kernel too).
#include <cuda/atomic>
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gpu_test.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/host_fed_pool.cuh"

namespace irgl::gpu::tasks {
namespace {

constexpr int kThreads = 128;

struct Visit {
  uint32_t id;
};
struct Query {
  uint64_t id;
  uint32_t weight;
};

// Counts, per task id, the blocks' threads that ran it (kThreads each)
// and, from thread 0, how often it ran (once) and its type's mark.
struct Recorder {
  unsigned* threads;
  unsigned* runs;
  unsigned* marks;
  __device__ void operator()(const Visit& visit) const { record(visit.id, 1); }
  __device__ void operator()(const Query& query) const { record(uint32_t(query.id), query.weight); }
  __device__ void record(uint32_t id, unsigned mark) const {
    atomicAdd(&threads[id], 1u);
    if (threadIdx.x == 0) {
      atomicAdd(&runs[id], 1u);
      atomicAdd(&marks[id], mark);
    }
  }
};

struct Counts {
  explicit Counts(size_t n) : threads(n), runs(n), marks(n) {
    threads.zero();
    runs.zero();
    marks.zero();
  }
  Recorder recorder() { return {threads.data(), runs.data(), marks.data()}; }
  DeviceBuffer<unsigned> threads, runs, marks;
};

void submit_all(HostFedPool<Visit, Query>& pool, uint32_t tasks, unsigned seed) {
  std::mt19937 random(seed);
  for (uint32_t id = 0; id < tasks; ++id) {
    if (id % 3 == 0) pool.submit(Query{id, 7});
    else pool.submit(Visit{id});
    if (random() % 64 == 0) std::this_thread::yield();  // let the GPU drain the ring now and then
  }
}

class HostFedPlacements : public ::testing::TestWithParam<HostFedPlacement> {
 protected:
  HostFedOptions placed() const {
    HostFedOptions options;
    options.placement = GetParam();
    options.batch = 5;  // device: a copy every 5 tasks, not a multiple of any capacity below
    return options;
  }
};

TEST_P(HostFedPlacements, EveryTaskRunsOnceWhileTheHostKeepsSubmitting) {
  IRGL_REQUIRE_GPU();
  constexpr uint32_t kTasks = 200000;
  HostFedOptions options = placed();
  options.capacity = 64;  // wraps about every 64 tasks: host and device race on each slot
  HostFedPool<Visit, Query> pool(options);
  Counts counts(kTasks);
  pool.start<kThreads>(counts.recorder());
  submit_all(pool, kTasks, 3);
  const HostFedStats stats = pool.finish();
  EXPECT_EQ(stats.tasks_run, kTasks);
  EXPECT_GT(stats.blocks, 0u);
  const std::vector<unsigned> threads = counts.threads.download(), runs = counts.runs.download(),
                              marks = counts.marks.download();
  uint64_t wrong = 0;
  for (uint32_t id = 0; id < kTasks; ++id)
    wrong += runs[id] != 1 || threads[id] != kThreads || marks[id] != (id % 3 == 0 ? 7u : 1u);
  EXPECT_EQ(wrong, 0u);
}

TEST_P(HostFedPlacements, RunsAgainAndFewBlocksTakeEveryTask) {
  IRGL_REQUIRE_GPU();
  HostFedOptions options = placed();
  options.capacity = 8;
  options.blocks = 3;
  HostFedPool<Visit, Query> pool(options);
  for (int round = 0; round < 2; ++round) {
    Counts counts(5000);
    pool.start<kThreads>(counts.recorder());
    submit_all(pool, 5000, round);
    const HostFedStats stats = pool.finish();
    EXPECT_EQ(stats.blocks, 3u);
    EXPECT_EQ(stats.tasks_run, 5000u);
    const std::vector<unsigned> runs = counts.runs.download();
    EXPECT_EQ(std::count(runs.begin(), runs.end(), 1u), 5000);
  }
}

TEST_P(HostFedPlacements, FourRingsFedByFourHostThreads) {
  IRGL_REQUIRE_GPU();
  constexpr uint32_t kPerThread = 50000;
  constexpr unsigned kQueues = 4;
  HostFedOptions options = placed();
  options.capacity = 32;
  options.queues = kQueues;
  HostFedPool<Visit, Query> pool(options);
  Counts counts(kPerThread * kQueues);
  pool.start<kThreads>(counts.recorder());
  std::vector<std::thread> producers;
  for (unsigned q = 0; q < kQueues; ++q)
    producers.emplace_back([&, q] {
      for (uint32_t i = 0; i < kPerThread; ++i) {
        const uint32_t id = q * kPerThread + i;
        if (id % 3 == 0) pool.submit(Query{id, 7}, q);
        else pool.submit(Visit{id}, q);
      }
    });
  for (std::thread& producer : producers) producer.join();
  const HostFedStats stats = pool.finish();
  EXPECT_EQ(stats.tasks_run, uint64_t(kPerThread) * kQueues);
  const std::vector<unsigned> runs = counts.runs.download(), marks = counts.marks.download();
  uint64_t wrong = 0;
  for (uint32_t id = 0; id < kPerThread * kQueues; ++id)
    wrong += runs[id] != 1 || marks[id] != (id % 3 == 0 ? 7u : 1u);
  EXPECT_EQ(wrong, 0u);
}

// A processor that reports the last task it ran to the host through mapped
// memory, while the kernel runs.
struct Reporter {
  unsigned* last;  // mapped
  __device__ void operator()(const Visit& visit) const {
    if (threadIdx.x == 0) cuda::atomic_ref<unsigned, cuda::thread_scope_system>(*last).store(visit.id);
  }
  __device__ void operator()(const Query&) const {}
};

// Waits up to 10 s for the kernel to report `id`.
bool reported(const volatile unsigned* last, unsigned id) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (*last != id)
    if (std::chrono::steady_clock::now() > deadline) return false;
  return true;
}

// A query answered while the kernel runs: with the rings in device memory
// a task waits for its batch, and flush() sends it at once.
TEST_P(HostFedPlacements, AFlushedTaskRunsBeforeItsBatchIsFull) {
  IRGL_REQUIRE_GPU();
  HostFedOptions options = placed();
  options.batch = 1000;
  unsigned* last = nullptr;
  IRGL_CUDA_CHECK(cudaHostAlloc(&last, sizeof(unsigned), cudaHostAllocMapped));
  *last = 0;
  unsigned* device_last = nullptr;
  IRGL_CUDA_CHECK(cudaHostGetDevicePointer(&device_last, last, 0));
  HostFedPool<Visit, Query> pool(options);
  pool.start<kThreads>(Reporter{device_last});
  for (unsigned id = 1; id <= 3; ++id) {
    pool.submit(Visit{id});
    pool.flush();
    EXPECT_TRUE(reported(last, id)) << "task " << id << " did not run after flush()";
  }
  EXPECT_EQ(pool.finish().tasks_run, 3u);
  cudaFreeHost(last);
}

INSTANTIATE_TEST_SUITE_P(Rings, HostFedPlacements,
                         ::testing::Values(HostFedPlacement::mapped, HostFedPlacement::device),
                         [](const ::testing::TestParamInfo<HostFedPlacement>& info) {
                           return info.param == HostFedPlacement::mapped ? "Mapped" : "Device";
                         });

TEST_P(HostFedPlacements, PreloadedTasksRunOnceAfterTheLaunch) {
  IRGL_REQUIRE_GPU();
  HostFedOptions options = placed();
  options.capacity = 4096;
  options.blocks = 7;
  options.queues = 2;
  HostFedPool<Visit, Query> pool(options);
  for (int round = 0; round < 2; ++round) {  // preloaded, then started as usual
    constexpr uint32_t kTasks = 4000;
    Counts counts(kTasks);
    if (round == 0) {
      pool.open();
      for (uint32_t id = 0; id < kTasks; ++id) pool.submit(Visit{id}, id % 2);
      pool.submit_halts();
      pool.launch<kThreads>(counts.recorder());
    } else {
      pool.start<kThreads>(counts.recorder());
      for (uint32_t id = 0; id < kTasks; ++id) pool.submit(Visit{id}, id % 2);
    }
    const HostFedStats stats = pool.finish();
    EXPECT_EQ(stats.tasks_run, kTasks) << "round " << round;
    EXPECT_EQ(stats.blocks, 7u);
    const std::vector<unsigned> runs = counts.runs.download();
    EXPECT_EQ(std::count(runs.begin(), runs.end(), 1u), kTasks) << "round " << round;
  }
}

TEST(HostFedPool, RejectsMisuse) {
  IRGL_REQUIRE_GPU();
  HostFedOptions options;
  HostFedPool<Visit, Query> pool(options);
  EXPECT_THROW(pool.submit(Visit{1}), std::logic_error);
  EXPECT_THROW(pool.finish(), std::logic_error);
  options.capacity = 0;
  EXPECT_THROW((HostFedPool<Visit, Query>(options)), std::invalid_argument);
  options.capacity = 8;
  options.queues = 4;
  options.blocks = 2;  // two rings would have no reader
  EXPECT_THROW((HostFedPool<Visit, Query>(options)), std::invalid_argument);
  options.blocks = 0;
  options.batch = 0;
  EXPECT_THROW((HostFedPool<Visit, Query>(options)), std::invalid_argument);
  options.batch = 32;
  HostFedPool<Visit, Query> four(options);
  four.start<kThreads>(Recorder{nullptr, nullptr, nullptr});
  EXPECT_THROW(four.submit(Visit{0}, 4), std::invalid_argument);
  EXPECT_THROW(four.flush(4), std::invalid_argument);
  EXPECT_EQ(four.finish().tasks_run, 0u);

  // Before a launch nothing frees a slot: a full ring is an error, not a
  // wait; HALTs need the block count; a second set of HALTs is refused.
  options.queues = 1;
  options.capacity = 4;
  HostFedPool<Visit, Query> small(options);
  small.open();
  EXPECT_THROW(small.submit_halts(), std::logic_error);  // options.blocks is 0
  for (uint32_t id = 0; id < 4; ++id) small.submit(Visit{id});
  EXPECT_THROW(small.submit(Visit{4}), std::length_error);
  options.blocks = 2;
  HostFedPool<Visit, Query> halted(options);
  halted.open();
  halted.submit_halts();
  EXPECT_THROW(halted.submit_halts(), std::logic_error);
  halted.launch<kThreads>(Recorder{nullptr, nullptr, nullptr});
  EXPECT_EQ(halted.finish().tasks_run, 0u);
}

}  // namespace
}  // namespace irgl::gpu::tasks
