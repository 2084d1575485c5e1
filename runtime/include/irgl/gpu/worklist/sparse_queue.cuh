// A sparse worklist: a device array of vertex ids and a push counter.
//
//   SparseQueue queue(capacity);
//   kernel<<<...>>>(queue.view(), ...);
//   __device__: queue.push(v);                 // any thread, any time
//   QueueStatus s = queue.status(stream);      // host: size + overflow
//
// Pushes reserve slots with atomicAdd on a 64-bit counter. The counter
// counts every attempted push, so it can exceed the capacity: items that do
// not fit are dropped (never written out of bounds) and the overflow flag is
// raised for the host to check. The stored size is min(pushed, capacity).
// Size the queue for the worst case (a vertex queue filled with push_unique
// never holds more than num_vertices items).
//
// Push variants, cheapest per item first:
//   BlockPush<N>::push   one atomic per thread block; every thread of the
//                        block must call it (it synchronizes the block)
//   BlockStage<S, C>     pushes staged in shared memory (C items per block),
//                        written out with one atomic per block when the
//                        block flushes (callable anywhere between begin and
//                        flush; a full stage falls back to push)
//   push                 one atomic per group of threads that call it
//                        together (warp-aggregated); callable anywhere
//   push_uncoalesced     one atomic per item (the baseline)
//   push_unique          push guarded by a DenseBitmap: once per vertex
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cub/block/block_scan.cuh>
#include <cub/util_type.cuh>
#include <type_traits>
#include <vector>

#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/graph/csr_graph.h"

namespace irgl::gpu {

// The device-side state of one queue, 16 bytes so that the host reads it (or
// both of a Pipe's) with one small copy.
struct QueueCounters {
  unsigned long long pushed;  // attempted pushes; 64-bit so it never wraps
  uint32_t overflow;          // nonzero once a push did not fit
  uint32_t reserved;          // padding, 0
};

// What the host learns about a queue.
struct QueueStatus {
  uint64_t size = 0;      // items stored: min(pushed, capacity)
  uint64_t pushed = 0;    // items pushed, including those dropped
  bool overflow = false;  // some push did not fit

  static QueueStatus of(const QueueCounters& counters, uint64_t capacity) {
    QueueStatus status;
    status.pushed = counters.pushed;
    status.size = counters.pushed < capacity ? counters.pushed : capacity;
    status.overflow = counters.overflow != 0;
    return status;
  }
};

// Trivially copyable handle to a queue, passed to kernels by value.
//
// Thread-safety: any number of threads may push concurrently. Reading items
// (size(), operator[]) is meaningful in a later kernel than the pushes (or
// after a grid-wide barrier); within one kernel a pushed slot may not be
// written yet.
struct SparseQueueView {
  VertexId* items = nullptr;
  uint64_t capacity = 0;
  QueueCounters* counters = nullptr;

#if defined(__CUDACC__)
  // Items stored, as of the last kernel that pushed. One load.
  __device__ __forceinline__ uint64_t size() const {
    const unsigned long long pushed = counters->pushed;
    return pushed < capacity ? pushed : capacity;
  }
  // Item i; precondition: i < size().
  __device__ __forceinline__ VertexId operator[](uint64_t i) const { return items[i]; }

  // Reserves `count` consecutive slots for the calling thread; returns the
  // first. One atomicAdd. Slots at or past capacity are not storage: write
  // them only through write(), which drops them. Raises the overflow flag
  // when the reservation does not fit. Counters in shared memory (a small
  // graph's loop on one block) count in their low word: shared memory has
  // no 64-bit atomic add (it would be a CAS loop), and a round there
  // pushes far fewer than 2^32 items.
  __device__ __forceinline__ uint64_t reserve(uint64_t count) const {
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "pushed's low word comes first");
    const uint64_t first =
        __isShared(counters)
            ? atomicAdd(reinterpret_cast<unsigned*>(&counters->pushed), static_cast<unsigned>(count))
            : atomicAdd(&counters->pushed, static_cast<unsigned long long>(count));
    if (first + count > capacity) counters->overflow = 1;  // benign race: all store 1
    return first;
  }
  // Stores v in a reserved slot; drops it when slot >= capacity.
  __device__ __forceinline__ void write(uint64_t slot, VertexId v) const {
    if (slot < capacity) items[slot] = v;
  }

  // Appends v. Warp-aggregated: the threads that call push together (the
  // active threads of a warp at this point, cooperative_groups::
  // coalesced_threads()) share one atomicAdd made by their leader, which
  // broadcasts the base slot; each thread writes base + its rank. Callable
  // under any divergence.
  __device__ __forceinline__ void push(VertexId v) const {
    namespace cg = cooperative_groups;
    const cg::coalesced_group group = cg::coalesced_threads();
    unsigned long long base = 0;
    if (group.thread_rank() == 0) base = reserve(group.size());
    base = group.shfl(base, 0);
    write(base + group.thread_rank(), v);
  }

  // Appends v with an atomic of its own (no aggregation): the baseline that
  // cooperative conversion (irglc --no-coop) falls back to.
  __device__ __forceinline__ void push_uncoalesced(VertexId v) const { write(reserve(1), v); }

  // Appends v unless it is already in `seen`; sets v's bit in `seen`.
  // Returns whether v was pushed. Across all threads and kernels that use
  // the same bitmap, each vertex is pushed at most once until its bit is
  // cleared. Cost: a bitmap load (plus an atomicOr when the bit was clear)
  // and, for new vertices, a warp-aggregated push.
  __device__ __forceinline__ bool push_unique(VertexId v, const DenseBitmapView& seen) const {
    if (!seen.test_and_set(v)) return false;
    push(v);
    return true;
  }
#endif
};

static_assert(std::is_trivially_copyable_v<SparseQueueView>,
              "views are passed to kernels by value");

#if defined(__CUDACC__)
// Block-aggregated push: one atomicAdd per thread block. CUB-style collective:
//
//   using Push = BlockPush<256>;
//   __shared__ typename Push::TempStorage push_storage;
//   Push(push_storage).push(queue, v, has_item);
//
// Preconditions: a 1D block of exactly BlockThreads threads, and EVERY thread
// of the block calls the same member function (it contains __syncthreads());
// threads without an item pass has_item = false / count = 0. The storage
// may be reused by the next call without an extra barrier. Cost: a block
// scan of the counts, two barriers and one atomicAdd (none if the block has
// no item). Items come out in thread order within the block.
template <int BlockThreads>
class BlockPush {
  using Scan = cub::BlockScan<uint32_t, BlockThreads>;
  struct Storage {
    typename Scan::TempStorage scan;
    unsigned long long base;
  };

 public:
  struct TempStorage : cub::Uninitialized<Storage> {};

  __device__ __forceinline__ explicit BlockPush(TempStorage& storage) : storage_(storage.Alias()) {}

  // Reserves `count` consecutive slots for each thread (the block's total
  // must stay below 2^32); returns the calling thread's first slot. Write
  // the items with queue.write(slot + i, v).
  __device__ __forceinline__ uint64_t reserve(const SparseQueueView& queue, uint32_t count) {
    uint32_t offset = 0;
    uint32_t total = 0;
    Scan(storage_.scan).ExclusiveSum(count, offset, total);
    if (threadIdx.x == 0) storage_.base = total != 0 ? queue.reserve(total) : 0;
    __syncthreads();
    const uint64_t base = storage_.base;
    // Everyone has read base before a later call may overwrite it.
    __syncthreads();
    return base + offset;
  }

  // Appends v for each thread whose has_item is true.
  __device__ __forceinline__ void push(const SparseQueueView& queue, VertexId v, bool has_item) {
    const uint64_t slot = reserve(queue, has_item ? 1u : 0u);
    if (has_item) queue.write(slot, v);
  }

 private:
  Storage& storage_;
};
#endif

#if defined(__CUDACC__)
// Block-staged pushes: each thread block collects its pushes in shared
// memory and writes them to the queue with ONE global atomic per block, in
// coalesced stores, when it flushes.
//
//   using Stage = BlockStage<0, 2048>;   // Slot: one stage per queue a kernel pushes to
//   Stage::begin<256>();                 // every thread, before any push
//   ... Stage::push(queue, v);           // any thread, under any divergence
//   Stage::flush<256>(queue);            // every thread, after its last push
//
// A push reserves its shared slot with one shared-memory atomic per group
// of threads pushing together; pushes that find the stage full go straight
// to the queue (warp-aggregated). flush() leaves the stage empty, so one
// kernel may flush several times (each step of a persistent kernel).
// Items come out in no particular order.
template <int Slot, int Capacity>
struct BlockStage {
  struct Storage {
    VertexId items[Capacity];
    unsigned count;
    unsigned long long base;
  };
  __device__ __forceinline__ static Storage& storage() {
    __shared__ Storage stage;
    return stage;
  }

  template <int BlockThreads>
  __device__ __forceinline__ static void begin() {
    if (threadIdx.x == 0) storage().count = 0;
    __syncthreads();
  }

  __device__ __forceinline__ static void push(const SparseQueueView& queue, VertexId v) {
    namespace cg = cooperative_groups;
    Storage& stage = storage();
    const cg::coalesced_group group = cg::coalesced_threads();
    unsigned first = 0;
    if (group.thread_rank() == 0) first = atomicAdd(&stage.count, group.size());
    const unsigned slot = group.shfl(first, 0) + group.thread_rank();
    if (slot < Capacity) stage.items[slot] = v;
    else queue.push(v);
  }

  template <int BlockThreads>
  __device__ __forceinline__ static void flush(const SparseQueueView& queue) {
    Storage& stage = storage();
    __syncthreads();
    const unsigned count = stage.count < Capacity ? stage.count : Capacity;
    if (threadIdx.x == 0) stage.base = count != 0 ? queue.reserve(count) : 0;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < count; i += BlockThreads)
      queue.write(stage.base + i, stage.items[i]);
    __syncthreads();
    if (threadIdx.x == 0) stage.count = 0;
    __syncthreads();
  }
};
#endif

namespace detail {

// The counters of `count` queues in one device allocation, with a pinned
// host mirror so that reading all of them costs one copy and one sync.
class CounterBlock {
 public:
  CounterBlock() = default;
  // All counters zero (asynchronous on `stream`).
  CounterBlock(size_t count, cudaStream_t stream);

  QueueCounters* device(size_t i) const { return const_cast<QueueCounters*>(device_.data()) + i; }
  // Empties queue i (pushed = 0, overflow = 0): one cudaMemsetAsync.
  void clear(size_t i, cudaStream_t stream);
  // Sets queue i's size to `size` with no overflow: one small host-to-device
  // copy from pageable memory, staged by CUDA, so it returns at once.
  void set_size(size_t i, uint64_t size, cudaStream_t stream);
  // Copies all counters to the pinned mirror, waits for `stream`, and
  // returns the mirror.
  const QueueCounters* read(cudaStream_t stream) const;

 private:
  DeviceBuffer<QueueCounters> device_;
  mutable PinnedBuffer<QueueCounters> host_;
};

// Host-side operations shared by SparseQueue and Pipe.
// Replaces the queue's contents by host items (synchronous on `stream`);
// throws std::length_error when they exceed the capacity.
void assign_queue(const SparseQueueView& queue, CounterBlock& counters, size_t index,
                  const VertexId* items, uint64_t count, cudaStream_t stream);
// The stored items [0, size), after waiting for `stream`.
std::vector<VertexId> download_queue(const SparseQueueView& queue, uint64_t size,
                                     cudaStream_t stream);

}  // namespace detail

// Owns a queue: items and counters in device memory. Move-only; not
// thread-safe. Host operations are asynchronous on `stream` unless they
// return data.
class SparseQueue {
 public:
  SparseQueue() = default;
  // An empty queue of `capacity` items.
  explicit SparseQueue(uint64_t capacity, cudaStream_t stream = 0);

  SparseQueueView view() const;
  uint64_t capacity() const { return items_.size(); }

  // Empties the queue and lowers the overflow flag: one cudaMemsetAsync.
  void clear(cudaStream_t stream = 0) { counters_.clear(0, stream); }
  // Replaces the contents by `items` (synchronous); std::length_error when
  // they do not fit.
  void assign(const std::vector<VertexId>& items, cudaStream_t stream = 0);
  // Size, pushes and overflow: one 16-byte copy to pinned memory and one
  // stream synchronization.
  QueueStatus status(cudaStream_t stream = 0) const;
  // The stored items in slot order: status() plus one copy.
  std::vector<VertexId> download(cudaStream_t stream = 0) const;

 private:
  DeviceBuffer<VertexId> items_;
  detail::CounterBlock counters_;
};

}  // namespace irgl::gpu
