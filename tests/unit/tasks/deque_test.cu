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

// Owner: pushes 1 to 3 tasks (fresh ids) when there is room, pops one
// otherwise or at random; drains the deque at the end.
std::vector<uint64_t> own(const TaskDeque<uint64_t>& deque, uint64_t tasks, uint64_t& pushed,
                          unsigned seed) {
  std::mt19937 random(seed);
  std::vector<uint64_t> taken;
  uint64_t task = 0;
  while (pushed < tasks) {
    const uint32_t count = 1 + random() % 3;
    const uint32_t tail = deque.owner_tail();
    if (tail + count <= deque.capacity && random() % 3 != 0) {
      uint32_t written = 0;
      for (; written < count && pushed < tasks; ++written) deque.slots[tail + written] = pushed++;
      deque.publish(written);
    } else if (deque.pop(task)) {
      taken.push_back(task);
    }
  }
  while (deque.pop(task)) taken.push_back(task);
  return taken;
}

TEST(TaskDeque, EveryTaskIsTakenOnceUnderStealing) {
  constexpr uint64_t kTasks = 400000;
  constexpr int kThieves = 3;
  HostDeque deque(8);
  uint64_t pushed = 0;
  std::atomic<bool> owner_done{false};
  std::vector<std::vector<uint64_t>> stolen(kThieves);
  std::vector<std::thread> thieves;
  for (int t = 0; t < kThieves; ++t)
    thieves.emplace_back([&, t] {
      uint64_t task = 0;
      for (;;) {
        if (deque.view.steal(task)) stolen[t].push_back(task);
        else if (owner_done.load() && deque.view.looks_empty()) break;
      }
    });
  const std::vector<uint64_t> popped = own(deque.view, kTasks, pushed, 7);
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
  EXPECT_GT(steals, 0u);
  EXPECT_GT(popped.size(), 0u);
}

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

}  // namespace
}  // namespace irgl::gpu::tasks
