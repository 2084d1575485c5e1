// The task pools (irgl/gpu/tasks/task_pool.cuh), every scheme alike (work
// stealing, the static two-array rounds, the shared queues): a stress test in which irregular trees of
// tasks spawn their children from many threads of a block, and every
// spawned task must run exactly once, whatever the number of blocks, roots
// and slots; a processor that synchronizes its block; overflow reported as
// an error (and the pool usable after it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/tasks/task_pool.cuh"

namespace irgl::gpu::tasks {
namespace {

constexpr int kThreads = 128;

struct TreeTask {
  uint32_t seed;
  uint32_t depth;
  uint32_t id;
};

__host__ __device__ uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// The tree's shape: `least` to `fanout` children by the task's seed, none
// below `depth` levels; independent of the ids, which the run hands out.
struct TreeShape {
  uint32_t depth;
  uint32_t fanout;
  uint32_t least = 0;

  __host__ __device__ uint32_t children(const TreeTask& task) const {
    return task.depth >= depth ? 0 : least + mix(task.seed) % (fanout - least + 1);
  }
  __host__ __device__ static uint32_t child_seed(uint32_t seed, uint32_t k) {
    return mix(seed * 31u + k + 1u);
  }
};

// The tasks a forest of `roots` has, and its widest level (the most tasks
// a static round holds), counted on the host.
struct ForestSize {
  uint64_t tasks = 0;
  uint64_t widest = 0;
  uint64_t levels = 0;  // non-empty: a static run's rounds
};
ForestSize tree_size(const TreeShape& shape, const std::vector<TreeTask>& roots) {
  std::vector<TreeTask> stack(roots);
  std::vector<uint64_t> per_level(shape.depth + 1, 0);
  ForestSize size;
  while (!stack.empty()) {
    const TreeTask task = stack.back();
    stack.pop_back();
    ++size.tasks;
    ++per_level[task.depth];
    for (uint32_t k = 0; k < shape.children(task); ++k)
      stack.push_back({TreeShape::child_seed(task.seed, k), task.depth + 1, 0});
  }
  size.widest = *std::max_element(per_level.begin(), per_level.end());
  size.levels = std::count_if(per_level.begin(), per_level.end(), [](uint64_t n) { return n > 0; });
  return size;
}

// Counts each task's runs by its id and spawns its children, one per
// thread (a block-wide loop); the block synchronizes once per task, as a
// processor that cooperates would.
struct TreeProcessor {
  TreeShape shape;
  uint32_t* runs;
  uint32_t* next_id;
  uint32_t id_capacity;
  uint32_t* barrier_faults;

  __device__ void operator()(const TreeTask& task, const TaskSpawner<TreeTask>& spawn) const {
    __shared__ uint32_t arrived;
    if (threadIdx.x == 0) {
      arrived = 0;
      if (task.id < id_capacity) atomicAdd(&runs[task.id], 1u);
    }
    __syncthreads();
    atomicAdd(&arrived, 1u);
    __syncthreads();
    if (threadIdx.x == 0 && arrived != blockDim.x) atomicAdd(barrier_faults, 1u);
    const uint32_t children = shape.children(task);
    for (uint32_t k = threadIdx.x; k < children; k += blockDim.x) {
      const uint32_t id = atomicAdd(next_id, 1u);
      spawn(TreeTask{TreeShape::child_seed(task.seed, k), task.depth + 1, id});
    }
  }
};

struct TreeRun {
  PoolStats stats;
  uint64_t expected = 0;
  uint64_t widest = 0;
  uint64_t levels = 0;
  std::vector<uint32_t> runs;
  uint32_t ids = 0;
  uint32_t barrier_faults = 0;
};

// Runs a tree of `root_count` roots in `pool`; ids are capped at
// `id_capacity` (runs beyond it are not recorded).
TreeRun run_tree(TaskPool<TreeTask>& pool, const TreeShape& shape, uint32_t root_count,
                 uint32_t id_capacity = 1u << 22) {
  std::vector<TreeTask> roots;
  for (uint32_t r = 0; r < root_count; ++r) roots.push_back({mix(r + 12345u), 0, r});
  TreeRun result;
  const ForestSize size = tree_size(shape, roots);
  result.expected = size.tasks;
  result.widest = size.widest;
  result.levels = size.levels;
  DeviceBuffer<uint32_t> runs(id_capacity), next_id(1), faults(1);
  runs.zero();
  next_id.upload(std::vector<uint32_t>{root_count});
  faults.zero();
  const TreeProcessor processor{shape, runs.data(), next_id.data(), id_capacity, faults.data()};
  result.stats = pool.run<kThreads>(roots, processor);
  result.ids = next_id.download()[0];
  result.runs = runs.download_prefix(std::min<uint64_t>(result.ids, id_capacity));
  result.barrier_faults = faults.download()[0];
  return result;
}

// Every task spawned ran exactly once, and the counts agree.
void expect_each_task_once(const TreeRun& run) {
  EXPECT_EQ(run.stats.tasks_run, run.expected);
  EXPECT_EQ(run.ids, run.expected);
  ASSERT_EQ(run.runs.size(), run.expected);
  uint64_t wrong = 0, first_wrong = 0;
  for (uint64_t id = 0; id < run.runs.size(); ++id)
    if (run.runs[id] != 1 && wrong++ == 0) first_wrong = id;
  EXPECT_EQ(wrong, 0u) << "first: task " << first_wrong << " ran " << run.runs[first_wrong]
                       << " times";
  EXPECT_EQ(run.barrier_faults, 0u);
}

// `run` must stop with the overflow error of a pool of 4 slots per block.
template <class Run>
void expect_overflow(PoolScheme scheme, Run&& run) {
  try {
    run();
    FAIL() << "expected an overflow";
  } catch (const PoolOverflow& error) {  // its own type: not a CUDA error
    const std::string what = error.what();
    EXPECT_NE(what.find("(4 task slots per block); raise the slots per block"), std::string::npos)
        << what;
    EXPECT_NE(what.find(to_string(scheme)), std::string::npos) << what;
  }
}

// Every scheme; the static one gets room for the widest level (a round),
// the queues for twice that (a level and the start of the next).
constexpr PoolScheme kSchemes[] = {PoolScheme::work_stealing, PoolScheme::static_rounds,
                                   PoolScheme::blocking_queue, PoolScheme::nonblocking_queue};

bool is_queue(PoolScheme scheme) {
  return scheme == PoolScheme::blocking_queue || scheme == PoolScheme::nonblocking_queue;
}

// Slots per block for a forest whose widest level has `widest` tasks on
// `blocks` blocks: `stealing` for a deque, else room for a level (static)
// or two (queues), at least `least`.
uint32_t slots_for(PoolScheme scheme, uint64_t widest, unsigned blocks, uint32_t stealing,
                   uint32_t least = 0) {
  if (scheme == PoolScheme::work_stealing) return stealing;
  const uint64_t needed = is_queue(scheme) ? 2 * widest : widest;
  return std::max<uint32_t>(least, uint32_t((needed + blocks - 1) / blocks));
}

PoolOptions options_for(PoolScheme scheme, uint32_t slots, unsigned blocks = 0) {
  PoolOptions options;
  options.scheme = scheme;
  options.slots_per_block = slots;
  options.blocks = blocks;
  return options;
}

TEST(TaskPools, EveryTaskOfOneRootRunsOnceAndOthersSteal) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes) {
    SCOPED_TRACE(to_string(scheme));
    // Static: each array holds blocks x 4096 tasks, more than the widest
    // level; a queue's ring, 64 x 65536, more than two. The queues pass
    // every task through one head: 64 blocks, not the resident grid, keep
    // the test's time bounded.
    const bool stealing = scheme == PoolScheme::work_stealing;
    const bool queue = is_queue(scheme);
    TaskPool<TreeTask> pool(
        options_for(scheme, stealing ? 256 : queue ? 65536 : 4096, queue ? 64 : 0));
    const TreeRun run = run_tree(pool, TreeShape{11, 7}, 1);
    ASSERT_GT(run.expected, 100000u);
    expect_each_task_once(run);
    if (stealing) {
      EXPECT_GT(run.stats.steals, 0u);  // one deque held the root: the others stole
      EXPECT_LE(run.stats.most_slots_used, 256u);
      EXPECT_EQ(run.stats.launches, 1u);
    } else if (queue) {
      EXPECT_GE(run.stats.most_slots_used, run.widest / 2);  // FIFO: about a level at a time
      EXPECT_EQ(run.stats.launches, 1u);
    } else {
      EXPECT_EQ(run.stats.most_slots_used, run.widest);  // a round is a level
      EXPECT_EQ(run.stats.launches, run.levels);
    }
  }
}

TEST(TaskPools, ManyRootsAndFewBlocksReuseTheirSlots) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes) {
    for (unsigned blocks : {1u, 2u, 3u, 17u}) {
      SCOPED_TRACE(std::string(to_string(scheme)) + ", blocks " + std::to_string(blocks));
      // Stealing: 600 slots a deque. Static: arrays of exactly the widest
      // level, counted on the host; queues: a ring of twice that.
      const TreeShape shape{6, 5};
      std::vector<TreeTask> roots;
      for (uint32_t r = 0; r < 500; ++r) roots.push_back({mix(r + 12345u), 0, r});
      const uint64_t widest = tree_size(shape, roots).widest;
      TaskPool<TreeTask> pool(options_for(scheme, slots_for(scheme, widest, blocks, 600), blocks));
      const TreeRun run = run_tree(pool, shape, 500);
      expect_each_task_once(run);
      EXPECT_EQ(run.stats.blocks, blocks);
      if (blocks == 1) EXPECT_EQ(run.stats.steals, 0u);
    }
  }
}

// The same pool runs again and again; each run starts from its own tasks.
TEST(TaskPools, RunsRepeatAndAnEmptyPoolEndsAtOnce) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes) {
    SCOPED_TRACE(to_string(scheme));
    // A queue's ring (64 x 4096 tasks) holds two levels of about 5 x 3^8.
    TaskPool<TreeTask> pool(
        is_queue(scheme) ? options_for(scheme, 4096, 64) : options_for(scheme, 128));
    for (int repeat = 0; repeat < 3; ++repeat)
      expect_each_task_once(run_tree(pool, TreeShape{8, 6}, 5));
    const TreeRun empty = run_tree(pool, TreeShape{8, 6}, 0);
    EXPECT_EQ(empty.stats.tasks_run, 0u);
    EXPECT_EQ(empty.stats.launches, 0u);
    EXPECT_EQ(empty.ids, 0u);
  }
}

// Too many spawns: the run stops with an error naming the slots (no task
// lost silently, no hang), and the pool still works after.
TEST(TaskPools, OverflowIsAnErrorAndThePoolRecovers) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes) {
    SCOPED_TRACE(to_string(scheme));
    TaskPool<TreeTask> pool(options_for(scheme, 4, 8));
    // 16 children each: a deque of 4 slots (or a block's 4 staging slots
    // in a queue) overflows at the root, the static arrays of 32 tasks at
    // the second level (256 tasks).
    expect_overflow(scheme, [&] { run_tree(pool, TreeShape{2, 16, 16}, 1); });
    expect_each_task_once(run_tree(pool, TreeShape{1, 3}, 1));  // at most 3 children: fits
  }
}

TEST(TaskPools, InitialTasksThatDoNotFitAreRefused) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes) {
    SCOPED_TRACE(to_string(scheme));
    TaskPool<TreeTask> pool(options_for(scheme, 2, 2));  // 4 tasks in all
    EXPECT_THROW(run_tree(pool, TreeShape{0, 0}, 5), PoolOverflow);
    expect_each_task_once(run_tree(pool, TreeShape{0, 0}, 4));
  }
}

// A task per thread (TaskWidth::thread): each thread runs its own task and
// spawns its children itself; it counts its tasks in a register, which the
// pool's flush hook adds up when the block ends (as the language's
// reductions do).
struct ThreadTreeProcessor {
  TreeShape shape;
  uint32_t* runs;
  uint32_t id_capacity;
  uint32_t* next_id;
  unsigned long long* flushed;
  unsigned long long counted = 0;

  __device__ void operator()(const TreeTask& task, const TaskSpawner<TreeTask>& spawn) {
    if (task.id < id_capacity) atomicAdd(&runs[task.id], 1u);
    ++counted;
    for (uint32_t k = 0; k < shape.children(task); ++k)
      spawn(TreeTask{TreeShape::child_seed(task.seed, k), task.depth + 1, atomicAdd(next_id, 1u)});
  }
  template <int BlockThreads>
  __device__ void flush() {
    atomicAdd(flushed, counted);
    counted = 0;
  }
};

// Runs a forest of `root_count` roots with a task per thread on `blocks`
// blocks (0: resident) and checks that every task ran once, and that the
// processors' flushed counts add up to the tasks.
TreeRun run_thread_tree(PoolScheme scheme, const TreeShape& shape, uint32_t root_count,
                        unsigned blocks, unsigned chain = 1) {
  std::vector<TreeTask> roots;
  for (uint32_t r = 0; r < root_count; ++r) roots.push_back({mix(r + 12345u), 0, r});
  TreeRun run;
  const ForestSize size = tree_size(shape, roots);
  run.expected = size.tasks;
  DeviceBuffer<uint32_t> runs(size.tasks), next_id(1);
  DeviceBuffer<unsigned long long> flushed(1);
  runs.zero();
  flushed.zero();
  next_id.upload(std::vector<uint32_t>{root_count});
  // Stealing: a block pops up to kThreads tasks and holds their children;
  // static and queues: room for the widest level (or two).
  const uint32_t slots = blocks ? slots_for(scheme, size.widest, blocks, 8192, 4096)
                                : (scheme == PoolScheme::work_stealing ? 8192 : 4096);
  PoolOptions options = options_for(scheme, slots, blocks);
  options.chain = chain;
  TaskPool<TreeTask> pool(options);
  run.stats = pool.run<kThreads, TaskWidth::thread>(
      roots, ThreadTreeProcessor{shape, runs.data(), uint32_t(size.tasks), next_id.data(),
                                 flushed.data()});
  run.ids = next_id.download()[0];
  run.runs = runs.download_prefix(std::min<uint64_t>(run.ids, size.tasks));
  expect_each_task_once(run);
  EXPECT_EQ(flushed.download()[0], run.expected);
  return run;
}

TEST(TaskPools, ATaskPerThreadRunsEveryTaskOfOneRootOnce) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes) {
    SCOPED_TRACE(to_string(scheme));
    const TreeRun run = run_thread_tree(scheme, TreeShape{11, 7}, 1, 0);
    ASSERT_GT(run.expected, 100000u);
    run_thread_tree(scheme, TreeShape{11, 7}, 1, 0, 4);
    if (scheme == PoolScheme::work_stealing) EXPECT_GT(run.stats.steals, 0u);
  }
}

// Chains (PoolOptions::chain: a thread runs its task's first child next)
// change who runs a task, never whether: each still runs once.
TEST(TaskPools, ATaskPerThreadRunsManyRootsOnFewBlocks) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes)
    for (unsigned blocks : {1u, 3u, 17u})
      for (unsigned chain : {1u, 8u}) {
        SCOPED_TRACE(std::string(to_string(scheme)) + ", blocks " + std::to_string(blocks) +
                     ", chain " + std::to_string(chain));
        const TreeRun run = run_thread_tree(scheme, TreeShape{5, 4}, 200, blocks, chain);
        EXPECT_EQ(run.stats.blocks, blocks);
        if (blocks == 1) EXPECT_EQ(run.stats.steals, 0u);
      }
}

TEST(TaskPools, ATaskPerThreadOverflowIsAnError) {
  IRGL_REQUIRE_GPU();
  for (PoolScheme scheme : kSchemes) {
    SCOPED_TRACE(to_string(scheme));
    TaskPool<TreeTask> pool(options_for(scheme, 4, 8));  // stealing: a group of 32 per block
    DeviceBuffer<uint32_t> runs(1024), next_id(1);
    DeviceBuffer<unsigned long long> flushed(1);
    next_id.upload(std::vector<uint32_t>{1});
    // 16 children each: the root's overflow a queue's 4 staging slots, the
    // second level (256 tasks) the others.
    const ThreadTreeProcessor processor{TreeShape{2, 16, 16}, runs.data(), 1024, next_id.data(),
                                        flushed.data()};
    const std::vector<TreeTask> root{{mix(12345u), 0, 0}};
    expect_overflow(scheme, [&] { pool.run<kThreads, TaskWidth::thread>(root, processor); });
  }
}

TEST(TaskPools, AZeroSlotPoolIsRefused) {
  EXPECT_THROW(TaskPool<TreeTask>(PoolOptions{0}), std::invalid_argument);
}

}  // namespace
}  // namespace irgl::gpu::tasks
