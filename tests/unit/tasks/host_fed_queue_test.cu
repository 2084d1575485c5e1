// Paper 004's host-fed queue (irgl/gpu/tasks/host_fed_queue.cuh) under
// real concurrency, on host threads (its operations compile for the
// host): one producer fills a ring of 8 slots, so it wraps around about
// every 8 tasks, while consumer threads claim positions with
// fetch-and-add and wait for them; every task must be taken exactly once
// and every consumer must end on a HALT.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "irgl/gpu/tasks/host_fed_queue.cuh"
#include "irgl/gpu/tasks/host_fed_rings.cuh"

namespace irgl::gpu::tasks {
namespace {

struct Visit {
  uint32_t vertex;
  uint32_t level;
};
struct Query {
  uint64_t id;
};
using Task = QueuedTask<Visit, Query>;

struct HostQueue {
  explicit HostQueue(uint64_t capacity) : slots(capacity), sequence(capacity) {
    reset_sequence(sequence.data(), capacity);
    view = {slots.data(), sequence.data(), &next, capacity};
  }
  std::vector<Task> slots;
  std::vector<unsigned long long> sequence;
  alignas(8) unsigned long long next = 0;
  HostFedQueueView<Task> view;
};

// A wait that never comes true is a broken protocol: after 10 s the test
// gives up (and fails) rather than hang.
std::atomic<bool> stuck{false};
template <class Condition>
bool wait_for(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (stuck || std::chrono::steady_clock::now() > deadline) {
      stuck = true;
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

// Producer: writes position p once its slot is free.
void produce(const HostFedQueueView<Task>& queue, unsigned long long& position, const Task& task) {
  if (wait_for([&] { return queue.writable(position); })) queue.put(position++, task);
}

// What a consumer saw: the ids of the Query tasks and the vertices of the
// Visit tasks it took, and whether it ended on a HALT.
struct Taken {
  std::vector<uint64_t> ids;
  std::vector<uint32_t> vertices;
  bool halted = false;
  void operator()(const Query& query) { ids.push_back(query.id); }
  void operator()(const Visit& visit) { vertices.push_back(visit.vertex); }
};

void consume(const HostFedQueueView<Task>& queue, Taken& taken) {
  for (;;) {
    const unsigned long long position = queue.claim();
    if (!wait_for([&] { return queue.ready(position); })) return;
    const Task task = queue.take(position);
    if (task.halts()) {
      taken.halted = true;
      return;
    }
    task.dispatch(taken);
  }
}

TEST(HostFedQueue, EveryTaskIsTakenOnceAndEveryConsumerHalts) {
  constexpr uint64_t kTasks = 100000;
  constexpr int kConsumers = 3;
  HostQueue queue(8);
  std::vector<Taken> taken(kConsumers);
  std::vector<std::thread> consumers;
  for (int c = 0; c < kConsumers; ++c)
    consumers.emplace_back([&, c] { consume(queue.view, taken[c]); });
  // Bursts of 1 to 20 tasks, alternating types, pauses between them.
  std::mt19937 random(11);
  unsigned long long position = 0;
  for (uint64_t task = 0; task < kTasks;) {
    const uint64_t burst = 1 + random() % 20;
    for (uint64_t i = 0; i < burst && task < kTasks; ++i, ++task)
      produce(queue.view, position,
              task % 2 ? Task::make(Query{task}) : Task::make(Visit{uint32_t(task), 1}));
    if (random() % 4 == 0) std::this_thread::yield();
  }
  for (int c = 0; c < kConsumers; ++c) produce(queue.view, position, Task::halt());
  for (std::thread& consumer : consumers) consumer.join();
  ASSERT_FALSE(stuck) << "a producer or consumer waited 10 s for a slot";

  std::vector<int> times(kTasks, 0);
  for (const Taken& mine : taken) {
    EXPECT_TRUE(mine.halted);
    for (uint64_t id : mine.ids) {
      EXPECT_EQ(id % 2, 1u);
      ++times[id];
    }
    for (uint32_t vertex : mine.vertices) {
      EXPECT_EQ(vertex % 2, 0u);
      ++times[vertex];
    }
  }
  uint64_t wrong = 0;
  for (uint64_t task = 0; task < kTasks; ++task) wrong += times[task] != 1;
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(queue.next, kTasks + kConsumers);  // one claim per task and per HALT
}

TEST(HostFedQueue, SequenceNumbersTrackEachSlotsLap) {
  HostQueue queue(4);
  EXPECT_TRUE(queue.view.writable(0));
  EXPECT_FALSE(queue.view.writable(4));  // slot 0's second lap: not before the first is taken
  queue.view.put(0, Task::make(Query{7}));
  EXPECT_FALSE(queue.view.writable(0));
  EXPECT_FALSE(queue.view.ready(1));
  const unsigned long long position = queue.view.claim();
  ASSERT_EQ(position, 0u);
  ASSERT_TRUE(queue.view.ready(0));
  Taken taken;
  queue.view.take(0).dispatch(taken);
  ASSERT_EQ(taken.ids.size(), 1u);
  EXPECT_EQ(taken.ids[0], 7u);
  EXPECT_TRUE(queue.view.writable(4));  // freed for the next lap
  EXPECT_FALSE(queue.view.ready(0));
}

// Regression: the pool reset its rings as one long ring, so ring 1's first
// slot waited for position 4 and the host's first submit to it forever.
TEST(HostFedQueue, EachRingStartsFreeForItsFirstPositions) {
  constexpr uint64_t kCapacity = 4;
  std::vector<unsigned long long> sequence(3 * kCapacity);
  reset_rings(sequence.data(), kCapacity, 3);
  for (unsigned q = 0; q < 3; ++q) {
    const HostFedQueueView<Task> ring{nullptr, sequence.data() + q * kCapacity, nullptr, kCapacity};
    for (uint64_t p = 0; p < kCapacity; ++p) EXPECT_TRUE(ring.writable(p)) << "ring " << q;
    EXPECT_FALSE(ring.writable(kCapacity)) << "ring " << q;
  }
}

TEST(QueuedTask, DispatchesEachTypeAndHalts) {
  Taken taken;
  Task::make(Visit{3, 4}).dispatch(taken);
  Task::make(Query{99}).dispatch(taken);
  EXPECT_EQ(taken.vertices, std::vector<uint32_t>{3});
  EXPECT_EQ(taken.ids, std::vector<uint64_t>{99});
  EXPECT_TRUE(Task::halt().halts());
  EXPECT_FALSE(Task::make(Query{1}).halts());
  Task::halt().dispatch(taken);  // nothing to call
  EXPECT_EQ(taken.ids.size() + taken.vertices.size(), 2u);
}

}  // namespace
}  // namespace irgl::gpu::tasks
