// The ledger of a simulated schedule: a stand-in Body that records which
// thread of which kernel launch ran pre(), edge() and post() for what, and
// the barriers each thread passed, then checks the Body contract (body.h):
// pre() once per frontier item; edge() once per edge of each vertex whose
// pre() returned true, by an expected thread and path; post() once for that
// vertex, ordered after all its edges, with the accumulator of exactly those
// edges; nothing for other vertices.
//
// Ordering follows the kernels' synchronization: a post() is after an edge()
// when the same thread did both in that order, when a later kernel did it, or
// when a barrier both threads take (a block barrier, or a group collective
// within their group) lies between them. Barriers are counted per thread, as
// on the GPU (sm_70 and later count arrivals per thread); each block barrier
// also names its call site, so a block whose threads reach different
// __syncthreads() (undefined behaviour in CUDA) is reported.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "irgl/gpu/schedule/instrument.cuh"
#include "workload.h"

namespace irgl::gpu::schedule::sim {

// The simulated Body's accumulator: how many edges were combined and the sum
// of their ids, so post() can tell whether it got exactly its vertex's edges.
struct Accum {
  uint64_t edges = 0;
  uint64_t id_sum = 0;
};
inline void combine(Accum& into, const Accum& from) {
  into.edges += from.edges;
  into.id_sum += from.id_sum;
}

// What the simulated Body declares (Body::kHasAccum): without an
// accumulator, the kernels skip their reductions, and with them the
// synchronization those imply.
struct BodyTraits {
  bool has_accum = true;
};

// A launch: `blocks` blocks of `block_threads` threads.
struct Grid {
  uint64_t blocks = 1;
  uint32_t block_threads = 256;
  uint64_t threads() const { return blocks * block_threads; }
};

// Where an edge ran, for a test's expectation of which thread should have.
struct EdgeRun {
  VertexId vertex;
  uint64_t item;    // the vertex's frontier position
  uint64_t edge;    // its global edge id
  uint64_t thread;  // the global thread that ran it
  uint64_t kernel;  // launches before the one that ran it
  Grid grid;        // of that launch
};

struct Expectations {
  // The path each active frontier vertex's edges and post() must take.
  std::function<LoadPath(VertexId vertex, uint64_t item)> path;
  // Whether the thread that ran an edge is one that may (by default: any).
  std::function<bool(const EdgeRun&)> thread_ok;
};

class Ledger {
 public:
  Ledger(const Workload& work, BodyTraits traits = {});

  const Workload& work() const { return work_; }
  const BodyTraits& traits() const { return traits_; }

  // A kernel launch; later launches are ordered after everything before.
  void launch(const Grid& grid);
  // All threads of `block` pass the barrier at `site` together.
  void block_barrier(uint64_t block, const char* site);
  // One thread passes the barrier at `site` (for kernels simulated thread by
  // thread; the block's threads must all pass the same sites in order).
  void thread_arrives(uint64_t thread, const char* site);
  // A collective of `size` consecutive threads from `first` (shuffle,
  // reduce, ballot): orders what they did before it for what they do after.
  void group_sync(uint64_t first, uint32_t size);

  // The Body's functions, run by global thread `thread` of the current launch.
  bool pre(uint64_t thread, uint64_t item, VertexId vertex);
  void edge(uint64_t thread, VertexId vertex, uint64_t edge, LoadPath path, Accum& accum);
  void post(uint64_t thread, VertexId vertex, LoadPath path, const Accum& accum);

  // A problem a simulation found itself (e.g. lanes of a group disagreeing).
  void report(std::string text);

  // Problems with the Body contract: empty when every check passed (the
  // first few are described, then a count). Call once, after the last launch.
  std::vector<std::string> problems(const Expectations& expect = {});
  // Blocks whose threads reached different barriers (see above).
  std::vector<std::string> barrier_problems();

  // Counters for tests of the simulations themselves.
  uint64_t edges_run() const { return edges_run_; }
  uint64_t posts_run() const { return posts_run_; }

 private:
  struct Stamp {
    uint64_t thread = 0;
    uint32_t kernel = 0;
    uint32_t block_syncs = 0;  // block barriers the thread had passed
    uint32_t group_syncs = 0;  // group collectives the thread had passed
    uint64_t step = 0;         // the thread's own program order
  };
  struct ThreadState {
    uint32_t block_syncs = 0;
    uint32_t group_syncs = 0;
    uint64_t steps = 0;
    uint64_t site_hash = 0;      // of the block barrier sites, in order
    uint64_t group_first = 0;    // the last collective's group
    uint32_t group_size = 1;
  };

  Stamp stamp(uint64_t thread);
  bool ordered(const Stamp& before, const Stamp& after) const;
  void check_barrier_sites();

  const Workload& work_;
  BodyTraits traits_;
  std::vector<uint64_t> item_of_;  // per vertex, ~0 outside the frontier
  Grid grid_;
  uint32_t kernel_ = 0;
  bool launched_ = false;
  bool sites_unchecked_ = false;  // the current launch's barrier sites
  std::vector<ThreadState> threads_;

  std::vector<uint32_t> pre_count_;  // per item
  std::vector<uint8_t> edge_count_;  // per edge id (saturating)
  std::vector<Stamp> edge_stamp_;
  std::vector<LoadPath> edge_path_;
  std::vector<Grid> kernel_grid_;    // per launch
  std::vector<uint32_t> post_count_;  // per vertex
  std::vector<LoadPath> post_path_;

  std::vector<std::string> problems_;
  uint64_t problem_count_ = 0;
  std::vector<std::string> barrier_problems_;
  uint64_t edges_run_ = 0, posts_run_ = 0;
};

}  // namespace irgl::gpu::schedule::sim
