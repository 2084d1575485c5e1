// A resident kernel that answers a stream of graph queries (bfs, sssp and
// k-hop from a source) while it runs: paper 004's host-fed queue
// (host_fed_queue.cuh, host_fed_rings.cuh) carries the queries in, and each
// query runs as a group of tasks that any block may take.
//
//   QueryEngine engine(device_graph, QueryEngineOptions{});  // the kernel starts
//   engine.submit(query);                  // while a slot is free (free_slots())
//   engine.poll(answers);                  // the answers that arrived, any order
//   engine.finish();                       // after the last answer: HALT, wait
//
// An engine runs on the GPU current when it is made; its calls switch to
// that GPU and back, so one host thread can drive an engine per GPU.
//
// A query holds one of `slots` working areas (a distance and a mark per
// vertex, two frontiers) from submit() until its answer arrives. It runs
// level by level: the frontier of a level is cut into chunks of
// kChunkVertices vertices, and a block takes a chunk with one
// fetch-and-add on the slot's work word (epoch | chunks | next chunk), so
// the blocks spread over every running query; a query never waits for
// another to finish. The block that finishes a level's last chunk starts
// the next level, or writes the answer into mapped host memory.
//
// Distances carry the query's generation in their high word, so a slot is
// never cleared between queries: a vertex whose tag is not the query's is
// unreached. bfs and k-hop relax with weight 1 (a vertex enters a frontier
// once); sssp relaxes with the edge's int32 weight, Bellman-Ford by
// levels, a vertex entering the next frontier once per level (its mark).
#pragma once

#include <cuda_runtime.h>

#include <cooperative_groups.h>
#include <cub/block/block_scan.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/tasks/host_fed_pool.cuh"
#include "irgl/gpu/tasks/host_fed_queue.cuh"
#include "irgl/gpu/tasks/host_fed_rings.cuh"
#include "irgl/gpu/tasks/query.h"

namespace irgl::gpu::tasks {

inline constexpr uint32_t kChunkVertices = 256;  // frontier vertices per task
inline constexpr uint32_t kMaxQuerySlots = 64;   // bits of the active mask

namespace query_detail {

// The work word of a slot: epoch (16 bits, for the parity of the frontier
// buffers) | chunks of the level (24) | next chunk to take (24). One
// fetch-and-add returns all three consistently. `next` passes `chunks`
// by at most the number of blocks (a block reads before it adds), and
// chunks < 2^23 (at most 2^31 vertices), so it never carries into chunks.
inline constexpr uint32_t kChunkBits = 24;
inline constexpr uint64_t kChunkMask = (uint64_t(1) << kChunkBits) - 1;
__host__ __device__ inline uint64_t pack_work(uint32_t epoch, uint32_t chunks) {
  return (uint64_t(epoch & 0xffffu) << (2 * kChunkBits)) | (uint64_t(chunks) << kChunkBits);
}
__host__ __device__ inline uint32_t work_epoch(uint64_t word) { return uint32_t(word >> (2 * kChunkBits)); }
__host__ __device__ inline uint32_t work_chunks(uint64_t word) {
  return uint32_t((word >> kChunkBits) & kChunkMask);
}
__host__ __device__ inline uint32_t work_next(uint64_t word) { return uint32_t(word & kChunkMask); }

// A tagged distance: the generation's tag high, the distance low. Newer
// generations tag smaller, so atomicMin replaces a stale value; storage
// starts as all ones, generation 0's unreached, older than every query.
__host__ __device__ inline uint64_t tagged(uint32_t generation, uint32_t distance) {
  return (uint64_t(0xffffffffu - generation) << 32) | distance;
}
__host__ __device__ inline bool current(uint64_t value, uint32_t generation) {
  return uint32_t(value >> 32) == 0xffffffffu - generation;
}

// A slot's control block, in device memory.
struct SlotControl {
  unsigned long long work;  // pack_work(epoch, chunks) + next
  unsigned int done[2];     // chunks finished, by epoch parity
  unsigned int size[2];     // frontier sizes, by epoch parity
  unsigned int level;       // distance of the frontier's vertices (sssp: round)
  unsigned int generation;  // of the query running in it
  unsigned long long reached;
  GraphQuery query;
};

// What every block reads: the graph, the slots' storage, the intake.
struct EngineView {
  GraphView graph;
  uint32_t slots;
  uint64_t vertices;
  SlotControl* control;        // per slot
  unsigned long long* dist;    // slot s: dist + s * vertices
  unsigned long long* mark;    // sssp's "queued for this level", same layout
  VertexId* frontier;          // slot s: two buffers of `vertices` from s * 2 * vertices
  HostFedQueueView<QueuedTask<GraphQuery>> intake;
  unsigned int* intake_lock;   // one consumer of the intake at a time
  unsigned int* halting;       // set by the HALT
  unsigned long long* active;  // bit s: slot s runs a query
  QueryAnswer* answers;        // mapped host memory, per slot
  unsigned long long* answered;  // mapped: per slot, the id + 1 of its last answer
};

// The job thread 0 found for its block.
struct Job {
  int32_t slot;  // -1: none; -2: halt
  uint32_t epoch;
  uint32_t chunk;
  uint32_t chunks;
};

using SystemWord = cuda::atomic_ref<unsigned long long, cuda::thread_scope_system>;
using DeviceWord = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

#if defined(__CUDACC__)
__device__ inline uint32_t chunks_of(uint32_t size) {
  return (size + kChunkVertices - 1) / kChunkVertices;
}

// Writes slot s's answer to the host: the record, then its sequence word.
// Field by field into mapped memory: no copy of the record in registers.
__device__ inline __noinline__ void answer(const EngineView& view, uint32_t s, uint32_t levels) {
  SlotControl& control = view.control[s];
  const GraphQuery& query = control.query;
  QueryAnswer& result = view.answers[s];
  result.id = query.id;
  result.reached = control.reached + 1;  // the source
  result.levels = levels;
  result.target_count = query.target_count;
  const unsigned long long* dist = view.dist + uint64_t(s) * view.vertices;
  for (uint32_t t = 0; t < query.target_count; ++t) {
    const uint64_t value = dist[query.targets[t]];
    result.distance[t] = current(value, control.generation) ? uint32_t(value) : kUnreached;
  }
  atomicExch(&control.work, (unsigned long long)pack_work(work_epoch(control.work), 0));
  atomicAnd(view.active, ~(1ull << s));
  SystemWord(view.answered[s]).store(query.id + 1, cuda::memory_order_release);
}

// Starts the query the intake gave: its source as the first frontier.
__device__ inline __noinline__ void install(const EngineView& view, const unsigned char* payload) {
  uint32_t slot;
  memcpy(&slot, payload + offsetof(GraphQuery, slot), sizeof slot);
  SlotControl& control = view.control[slot];
  memcpy(&control.query, payload, sizeof(GraphQuery));
  const GraphQuery& query = control.query;
  const uint32_t generation = ++control.generation;
  const uint32_t epoch = work_epoch(control.work) + 1;
  control.reached = 0;
  control.level = 0;
  control.size[epoch & 1] = 1;
  control.size[(epoch + 1) & 1] = 0;
  control.done[epoch & 1] = 0;
  view.dist[uint64_t(query.slot) * view.vertices + query.source] = tagged(generation, 0);
  view.frontier[(uint64_t(query.slot) * 2 + (epoch & 1)) * view.vertices] = query.source;
  if (query.hops == 0) return answer(view, slot, 0);
  __threadfence();
  atomicExch(&control.work, pack_work(epoch, 1));
  atomicOr(view.active, 1ull << slot);
}

// Thread 0: takes the intake's next query or HALT if one is there (never
// waits); whether it took one.
__device__ inline __noinline__ bool try_intake(const EngineView& view) {
  if (atomicCAS(view.intake_lock, 0u, 1u) != 0u) return false;
  __threadfence();  // the last holder's writes (the position, the slots it installed)
  DeviceWord next(*view.intake.next);
  const unsigned long long position = next.load(cuda::memory_order_relaxed);
  const bool ready = view.intake.ready(position);
  if (ready) {
    const QueuedTask<GraphQuery> task = view.intake.take(position);
    next.store(position + 1, cuda::memory_order_relaxed);
    if (task.halts()) atomicExch(view.halting, 1u);
    else install(view, task.payload);
  }
  __threadfence();
  atomicExch(view.intake_lock, 0u);
  return ready;
}

// Thread 0: a chunk of some running query's level, looking from slot
// `first` on. Only the slots the active mask names are read: one load per
// running query, not per slot.
__device__ inline Job find_chunk(const EngineView& view, uint32_t first) {
  const uint64_t active = DeviceWord(*view.active).load(cuda::memory_order_relaxed);
  const uint32_t turn = first % kMaxQuerySlots;  // blocks start at different slots
  uint64_t rotated = turn ? (active >> turn) | (active << (kMaxQuerySlots - turn)) : active;
  for (; rotated; rotated &= rotated - 1) {
    const uint32_t s = (uint32_t(__ffsll(rotated)) - 1 + turn) % kMaxQuerySlots;
    unsigned long long* word = &view.control[s].work;
    const uint64_t seen = DeviceWord(*word).load(cuda::memory_order_relaxed);
    if (work_next(seen) >= work_chunks(seen)) continue;
    const uint64_t taken = atomicAdd(word, 1ull);
    if (work_next(taken) >= work_chunks(taken)) continue;
    __threadfence();  // the level's frontier and sizes, published before the word
    return Job{int32_t(s), work_epoch(taken), work_next(taken), work_chunks(taken)};
  }
  return Job{-1, 0, 0, 0};
}

// Thread 0 of the block that finished a level's last chunk: the next
// level, or the answer.
__device__ inline void advance(const EngineView& view, uint32_t s, uint32_t epoch) {
  SlotControl& control = view.control[s];
  const uint32_t next_size = control.size[(epoch + 1) & 1];
  const uint32_t level = control.level;
  const GraphQuery& query = control.query;
  if (next_size == 0) return answer(view, s, query.kind == QueryKind::sssp ? level + 1 : level);
  if (query.kind != QueryKind::sssp && level + 1 >= query.hops) return answer(view, s, level + 1);
  control.size[epoch & 1] = 0;  // the level after next pushes here
  control.done[(epoch + 1) & 1] = 0;
  control.level = level + 1;
  __threadfence();
  atomicExch(&control.work, pack_work(epoch + 1, chunks_of(next_size)));
}

template <int BlockThreads>
struct QueryAgent {
  using Scan = cub::BlockScan<uint32_t, BlockThreads>;
  static_assert(BlockThreads == int(kChunkVertices), "a thread per frontier vertex of a chunk");

  struct TempStorage {
    typename Scan::TempStorage scan;
    uint32_t first_edge[BlockThreads + 1];  // of each chunk vertex, within the chunk's edges
    VertexId vertex[BlockThreads];
    uint32_t distance[BlockThreads];
    unsigned long long reached;
    Job job;
  };

  const EngineView& view;
  TempStorage& temp;

  // Every thread: relaxes the out-edges of the job's frontier chunk.
  __device__ void run_chunk(const Job& job) {
    const uint32_t s = uint32_t(job.slot);
    SlotControl& control = view.control[s];
    const uint32_t size = control.size[job.epoch & 1];
    const uint32_t generation = control.generation;
    const QueryKind kind = control.query.kind;
    const uint32_t level = control.level;
    const VertexId* frontier = view.frontier + (uint64_t(s) * 2 + (job.epoch & 1)) * view.vertices;
    VertexId* next = view.frontier + (uint64_t(s) * 2 + ((job.epoch + 1) & 1)) * view.vertices;
    unsigned long long* dist = view.dist + uint64_t(s) * view.vertices;

    const uint32_t index = job.chunk * kChunkVertices + threadIdx.x;
    uint32_t degree = 0;
    if (index < size) {
      const VertexId u = frontier[index];
      temp.vertex[threadIdx.x] = u;
      temp.distance[threadIdx.x] = kind == QueryKind::sssp ? uint32_t(dist[u]) : level;
      degree = uint32_t(view.graph.out.end(u) - view.graph.out.begin(u));
    }
    uint32_t edges = 0;
    Scan(temp.scan).ExclusiveSum(degree, temp.first_edge[threadIdx.x], edges);
    if (threadIdx.x == 0) {
      temp.first_edge[BlockThreads] = edges;
      temp.reached = 0;
    }
    __syncthreads();
    uint32_t reached = 0;
    for (uint32_t e = threadIdx.x; e < edges; e += BlockThreads) {
      const uint32_t owner = owner_of(e);
      const VertexId u = temp.vertex[owner];
      const uint64_t edge = view.graph.out.begin(u) + (e - temp.first_edge[owner]);
      const VertexId v = view.graph.out.neighbor(edge);
      const uint32_t weight =
          kind == QueryKind::sssp ? uint32_t(view.graph.out.weight<int32_t>(edge)) : 1u;
      const uint64_t candidate = tagged(generation, temp.distance[owner] + weight);
      if (DeviceWord(dist[v]).load(cuda::memory_order_relaxed) <= candidate)
        continue;  // reached as close already: a read spares the atomic
      const uint64_t old = atomicMin(&dist[v], (unsigned long long)candidate);
      if (old <= candidate) continue;
      reached += !current(old, generation);
      if (kind == QueryKind::sssp && !first_mark(s, v, generation, level)) continue;
      push(next, control.size[(job.epoch + 1) & 1], v);
    }
    if (reached) atomicAdd(&temp.reached, (unsigned long long)reached);
    __syncthreads();
    if (threadIdx.x == 0 && temp.reached) atomicAdd(&control.reached, temp.reached);
  }

 private:
  // The chunk vertex whose edges hold edge e: the last with first_edge <= e.
  __device__ uint32_t owner_of(uint32_t e) const {
    uint32_t low = 0, high = BlockThreads;  // first_edge[low] <= e < first_edge[high]
    while (high - low > 1) {
      const uint32_t middle = (low + high) / 2;
      if (temp.first_edge[middle] <= e) low = middle;
      else high = middle;
    }
    return low;
  }
  // sssp: whether this thread is the first to queue v for the next level.
  __device__ bool first_mark(uint32_t s, VertexId v, uint32_t generation, uint32_t level) const {
    const unsigned long long stamp = (uint64_t(generation) << 32) | (level + 1);
    return atomicExch(&view.mark[uint64_t(s) * view.vertices + v], stamp) != stamp;
  }
  // Appends v to the next frontier, one atomic per group of pushing lanes.
  __device__ static void push(VertexId* next, unsigned int& size, VertexId v) {
    const cooperative_groups::coalesced_group pushing = cooperative_groups::coalesced_threads();
    uint32_t base = 0;
    if (pushing.thread_rank() == 0) base = atomicAdd(&size, pushing.size());
    base = pushing.shfl(base, 0);
    next[base + pushing.thread_rank()] = v;
  }
};

// Six blocks of 256 threads per SM (40 registers): the relaxations wait on
// memory, so resident warps matter more than registers (78 unbounded:
// three blocks per SM).
inline constexpr int kEngineBlocksPerSm = 6;

// Each block: take the intake's queries (block 0 before every job, the
// others when idle) and chunks of any slot's level, until the HALT.
template <int BlockThreads>
__global__ void __launch_bounds__(BlockThreads, kEngineBlocksPerSm) query_engine_kernel(EngineView view) {
  using Agent = QueryAgent<BlockThreads>;
  __shared__ typename Agent::TempStorage temp;
  Agent agent{view, temp};
  uint32_t round = blockIdx.x;
  unsigned back_off_ns = 0;
  for (;;) {
    if (threadIdx.x == 0) {
      if (blockIdx.x == 0) try_intake(view);
      Job job = find_chunk(view, round++);
      if (job.slot < 0 && (blockIdx.x == 0 || !try_intake(view))) {
        if (*(volatile unsigned int*)view.halting) job.slot = -2;
      }
      temp.job = job;
    }
    __syncthreads();
    const Job job = temp.job;
    if (job.slot == -2) break;
    if (job.slot == -1) {
      __syncthreads();  // temp.job is rewritten next
      if (threadIdx.x == 0) {
        back_off_ns = back_off_ns ? min(back_off_ns * 2, 2048u) : 32u;
        __nanosleep(back_off_ns);
      }
      continue;
    }
    back_off_ns = 0;
    agent.run_chunk(job);
    if (threadIdx.x == 0) {
      __threadfence();  // this chunk's pushes and distances before its count
      SlotControl& control = view.control[job.slot];
      if (atomicAdd(&control.done[job.epoch & 1], 1u) + 1 == job.chunks) {
        __threadfence();
        advance(view, uint32_t(job.slot), job.epoch);
      }
    }
    __syncthreads();
  }
}
#endif

}  // namespace query_detail

struct QueryEngineOptions {
  unsigned slots = 0;   // queries running at once (at most 64); 0: up to 32, as memory allows
  unsigned blocks = 0;  // 0: as many as are resident
  HostFedPlacement placement = HostFedPlacement::device;
  double memory_fraction = 0.5;  // of the free memory the slots may take (slots = 0)
};

// Bytes of device memory one slot takes on a graph of `vertices`.
inline uint64_t query_slot_bytes(uint64_t vertices) {
  return vertices * (2 * sizeof(unsigned long long) + 2 * sizeof(VertexId));
}

class QueryEngine {
 public:
  static constexpr int kBlockThreads = int(kChunkVertices);

  QueryEngine(const DeviceGraph& graph, const QueryEngineOptions& options);
  ~QueryEngine();
  QueryEngine(const QueryEngine&) = delete;
  QueryEngine& operator=(const QueryEngine&) = delete;

  int device() const { return gpu_; }  // the GPU it runs on (the current one at construction)
  unsigned slots() const { return slots_; }
  unsigned blocks() const { return blocks_; }
  unsigned free_slots() const { return unsigned(free_.size()); }
  unsigned running() const { return slots_ - free_slots(); }

  // Sends `query` (its slot is set here); needs a free slot. Its id is
  // the caller's to choose (echoed in the answer; repeats allowed). The
  // caller checks the query against the graph (query_protocol.h does).
  void submit(GraphQuery query);
  // Appends the answers that arrived since the last call (never waits);
  // throws if the kernel ended early (a fault).
  void poll(std::vector<QueryAnswer>& answers);
  // Sends the HALT once every query is answered, then waits for the kernel.
  void finish();

 private:
  template <class F>
  decltype(auto) with_rings(F&& f) {
    return mapped_ ? f(*mapped_) : f(*device_);
  }
  void check_alive();
  void put(const QueuedTask<GraphQuery>& task);  // waits while the intake is full

  int gpu_ = 0;
  unsigned slots_ = 0;
  unsigned blocks_ = 0;
  uint64_t vertices_ = 0;
  cudaStream_t stream_ = nullptr;
  DeviceBuffer<query_detail::SlotControl> control_;
  DeviceBuffer<unsigned long long> dist_, mark_;
  DeviceBuffer<VertexId> frontier_;
  DeviceBuffer<unsigned int> flags_;              // intake lock, halting
  DeviceBuffer<unsigned long long> intake_next_;
  DeviceBuffer<unsigned long long> active_;      // the kernel's mask of running slots
  std::optional<MappedRings<QueuedTask<GraphQuery>>> mapped_;
  std::optional<DeviceRings<QueuedTask<GraphQuery>>> device_;
  QueryAnswer* answers_ = nullptr;                // mapped host memory
  unsigned long long* answered_ = nullptr;        // mapped host memory
  std::vector<unsigned long long> expected_;      // per slot: the id sent + 1; 0 when free
  std::vector<uint64_t> caller_ids_;              // per slot: the id the caller gave
  uint64_t sequence_ = 0;                         // the ids sent to the device
  std::vector<uint32_t> generations_;             // per slot: queries it ran (the device's tag)
  std::vector<uint32_t> free_;
  uint64_t submitted_ = 0;                        // positions written to the intake
  bool running_ = false;
};

}  // namespace irgl::gpu::tasks
