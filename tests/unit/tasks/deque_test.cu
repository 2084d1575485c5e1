// The work-stealing deque (irgl/gpu/tasks/deque.cuh) under real
// concurrency, on host threads (its operations compile for the host): an
// owner pushes and pops at the tail of a small deque, so it empties and
// resets to slot 0 often (the ABA case), while thieves steal at the head;
// every task must be taken exactly once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "irgl/gpu/tasks/deque.cuh"

namespace irgl::gpu::tasks {
namespace {

struct HostDeque {
  explicit HostDeque(uint32_t capacity) : slots(capacity) {
    view = {&head, &tail, slots.data(), capacity};
  }
  alignas(8) unsigned long long head = 0;
  alignas(4) uint32_t tail = 0;
  std::vector<uint64_t> slots;
  TaskDeque<uint64_t> view;
};

// Owner: takes tasks as a block does: one with pop(), or with `batch` > 0
// up to that many with pop_many() (a block of a task per thread).
bool take(const TaskDeque<uint64_t>& deque, uint32_t batch, std::vector<uint64_t>& taken) {
  if (batch == 0) {
    uint64_t task = 0;
    if (!deque.pop(task)) return false;
    taken.push_back(task);
    return true;
  }
  uint32_t first = 0;
  const uint32_t count = deque.pop_many(batch, first);
  for (uint32_t i = 0; i < count; ++i) taken.push_back(deque.slots[first + i]);
  return count > 0;
}

// Every this many pushes the owner waits for a thief to steal, so that
// stealing is exercised even where the OS runs the owner alone for long
// stretches (a loaded two-core machine).
constexpr uint64_t kPushesPerRendezvous = 50000;

// Owner: pushes 1 to 3 tasks (fresh ids) when there is room, takes
// otherwise or at random; drains the deque at the end. At each rendezvous
// it stops taking until `steals` grows: the deque holds the tasks just
// pushed, so a spinning thief takes one (or all, which also counts).
std::vector<uint64_t> own(const TaskDeque<uint64_t>& deque, uint64_t tasks, uint64_t& pushed,
                          unsigned seed, uint32_t batch, const std::atomic<uint64_t>& steals) {
  std::mt19937 random(seed);
  std::vector<uint64_t> taken;
  uint64_t next_rendezvous = 0;
  while (pushed < tasks) {
    const uint32_t count = 1 + random() % 3;
    const uint32_t tail = deque.owner_tail();
    if (tail + count <= deque.capacity && random() % 3 != 0) {
      uint32_t written = 0;
      for (; written < count && pushed < tasks; ++written) deque.slots[tail + written] = pushed++;
      const uint64_t seen = steals.load();
      deque.publish(written);
      if (pushed >= next_rendezvous) {
        next_rendezvous += kPushesPerRendezvous;
        while (steals.load() == seen) std::this_thread::yield();
      }
    } else {
      take(deque, batch, taken);
    }
  }
  while (take(deque, batch, taken)) {}
  return taken;
}

// Stealing against an owner that pops one task (0) or up to 2, 3 or 8.
class TaskDequeStress : public testing::TestWithParam<uint32_t> {};

TEST_P(TaskDequeStress, EveryTaskIsTakenOnceUnderStealing) {
  constexpr uint64_t kTasks = 400000;
  constexpr int kThieves = 3;
  HostDeque deque(8);
  uint64_t pushed = 0;
  std::atomic<bool> owner_done{false};
  std::atomic<uint64_t> steal_count{0};
  std::vector<std::vector<uint64_t>> stolen(kThieves);
  std::vector<std::thread> thieves;
  for (int t = 0; t < kThieves; ++t)
    thieves.emplace_back([&, t] {
      uint64_t task = 0;
      for (;;) {
        if (deque.view.steal(task)) {
          stolen[t].push_back(task);
          ++steal_count;
        } else if (owner_done.load() && deque.view.looks_empty()) break;
      }
    });
  const std::vector<uint64_t> popped = own(deque.view, kTasks, pushed, 7, GetParam(), steal_count);
  owner_done = true;
  for (std::thread& thief : thieves) thief.join();

  std::vector<int> times(kTasks, 0);
  uint64_t steals = 0;
  for (uint64_t task : popped) ++times[task];
  for (const std::vector<uint64_t>& mine : stolen) {
    steals += mine.size();
    for (uint64_t task : mine) ++times[task];
  }
  uint64_t wrong = 0;
  for (uint64_t task = 0; task < kTasks; ++task) wrong += times[task] != 1;
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(popped.size() + steals, kTasks);
  EXPECT_GE(steals, kTasks / kPushesPerRendezvous);
  EXPECT_GT(popped.size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(OwnerBatches, TaskDequeStress, testing::Values(0u, 2u, 3u, 8u));

TEST(TaskDeque, OwnerIsLastInFirstOutAndThievesFirstInFirstOut) {
  HostDeque deque(8);
  for (uint64_t task = 0; task < 4; ++task) deque.view.slots[task] = 10 + task;
  deque.view.publish(4);
  uint64_t task = 0;
  ASSERT_TRUE(deque.view.steal(task));
  EXPECT_EQ(task, 10u);  // the oldest
  ASSERT_TRUE(deque.view.pop(task));
  EXPECT_EQ(task, 13u);  // the newest
  ASSERT_TRUE(deque.view.pop(task));
  EXPECT_EQ(task, 12u);
  ASSERT_TRUE(deque.view.pop(task));  // the last one: head and tail reset
  EXPECT_EQ(task, 11u);
  EXPECT_FALSE(deque.view.pop(task));
  EXPECT_FALSE(deque.view.steal(task));
  EXPECT_EQ(deque.tail, 0u);
  EXPECT_EQ(DequeHead::index(deque.head), 0u);
  EXPECT_EQ(DequeHead::counter(deque.head), 1u);  // one reset: a stale head cannot match
}

TEST(TaskDeque, PopManyTakesTheNewestTasksAndResetsAtTheHead) {
  HostDeque deque(8);
  for (uint64_t task = 0; task < 6; ++task) deque.view.slots[task] = 10 + task;
  deque.view.publish(6);
  uint64_t task = 0;
  ASSERT_TRUE(deque.view.steal(task));  // 10: the head moves to slot 1
  uint32_t first = 0;
  EXPECT_EQ(deque.view.pop_many(2, first), 2u);  // 14, 15: tasks remain below
  EXPECT_EQ(first, 4u);
  EXPECT_EQ(deque.tail, 4u);
  EXPECT_EQ(deque.view.pop_many(8, first), 3u);  // 11..13: reaches the head
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(deque.tail, 0u);
  EXPECT_EQ(DequeHead::index(deque.head), 0u);
  EXPECT_EQ(DequeHead::counter(deque.head), 1u);
  EXPECT_EQ(deque.view.pop_many(8, first), 0u);
  EXPECT_FALSE(deque.view.steal(task));
}

}  // namespace
}  // namespace irgl::gpu::tasks
