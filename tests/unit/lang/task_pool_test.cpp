// The CPU target's task pool (irgl.h): the oracle runs tasks oldest first,
// so a traversal written as tasks visits breadth first and relaxes a vertex
// about once (newest first relaxed the Moscow roads' vertices again and
// again: a bfs that took minutes).
#include <gtest/gtest.h>

#include <vector>

#include "irgl/lang/irgl.h"

namespace irgl::lang {
namespace {

struct Job {
  uint32_t id;
};

TEST(CpuTaskPool, RunsTheOldestTaskFirst) {
  TaskPool<Job> pool;
  for (uint32_t id = 0; id < 3; ++id) pool.push(Job{id});
  std::vector<uint32_t> order;
  while (!pool.empty()) {
    const Job job = pool.pop();
    order.push_back(job.id);
    if (job.id < 2) pool.push(Job{job.id + 10});  // a task's child waits its turn
  }
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 1, 2, 10, 11}));
}

}  // namespace
}  // namespace irgl::lang
