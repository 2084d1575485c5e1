// Synchronisation of vertex data between the parts of a multi-GPU run
// (docs/multi-gpu.md), as Gluon does it for D-IrGL (paper 001): after a
// kernel, the copies of a vertex that several parts hold are reduced to its
// master (min, max or add) and the master's value is broadcast back; only
// the entries whose value changed since the last sync travel, as (list
// position, value) pairs over NCCL, or, where most of a peer's list
// changed, as a dense payload (every entry's value and a flag byte).
//
//   Exchange parts(comm, view);             // collective: the lists
//   FieldCopies<uint32_t> level_copies;      // one per synchronised field
//   level_copies.reset(parts);               // every run, with the field
//   parts.sync(level.view().data, level_copies, SyncOp::min,
//              /*reduce=*/true, /*broadcast=*/true);
//
// Mirror lists: the vertices this part holds whose master is in part q
// (PartView::mirrors[q]); master lists: this part's masters that part q
// holds, received from q when the Exchange is built. Entry i of q's mirror
// list here and entry i of this part's master list there are one vertex.
#pragma once

#include <cuda_runtime.h>

#include <cooperative_groups.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "irgl/dist/comm.h"
#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/graph/part_view.h"
#include "irgl/lang/cuda_atomics.cuh"
#include "irgl/lang/part_exchange.h"

namespace irgl::dist {

// How the copies of a field combine at its master: the reduction of the
// kernel's writes (min, max, add), or none (assign: only masters write it).
enum class SyncOp { min, max, add, assign };

// Where a kernel's writes (and pushes) may land at a copy: anywhere, or
// only at destinations of the part's out-edges. An incoming-edge cut keeps
// every edge with its destination's master, so there the kernel writes no
// mirror and the reduce is skipped (Gluon's structural invariants).
enum class WriteSites { anywhere, out_edge_destinations };

// The values each list entry of a field held at the last sync, so that a
// sync sends only the entries that changed.
template <class T>
struct FieldCopies {
  gpu::DeviceBuffer<T> mirror_seen, master_seen;
  // Every copy of a field starts at zero (the field is zeroed at each
  // run's start): so do the values last seen.
  template <class Parts>
  void reset(const Parts& parts) {
    if (mirror_seen.size() != parts.mirror_entries())
      mirror_seen = gpu::DeviceBuffer<T>(parts.mirror_entries());
    if (master_seen.size() != parts.master_entries())
      master_seen = gpu::DeviceBuffer<T>(parts.master_entries());
    mirror_seen.zero();
    master_seen.zero();
  }
};

namespace detail {

// The device side of one list direction: entries begin[q] .. begin[q+1]-1
// are the vertices shared with part q.
struct ListView {
  const VertexId* ids = nullptr;
  const uint64_t* begin = nullptr;  // parts + 1
};

// A sent entry's position in its list, with this bit set when the vertex
// was pushed this round (lists are shorter than 2^31: Exchange checks).
constexpr uint32_t kPushedBit = 1u << 31;

// The round's pushes while they travel with a sync: a pushed vertex is
// marked on every part that holds it, and joins the output there once (at a
// mirror only where the mirror holds out-edges to run).
struct PushShare {
  lang::PushedVertices vertices;  // bits null: no pushes travel
  __device__ bool pushed(VertexId v) const {
    return vertices.bits.words != nullptr && vertices.bits.test(v);
  }
  // `offsets`: the part's out-edge offsets at a mirror, null at a master.
  __device__ void activate(VertexId v, const uint64_t* offsets) const {
    if (offsets && offsets[v + 1] == offsets[v]) return;
    if (vertices.bits.test_and_set(v) && !vertices.bits_only) vertices.queue.push(v);
  }
};

// A value's bits, so that a float's change is seen even between NaNs.
template <class T>
__device__ __forceinline__ bool same_bits(const T& a, const T& b) {
  using Word = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  static_assert(sizeof(T) == sizeof(Word), "vertex data of 4 or 8 bytes");
  Word x, y;
  memcpy(&x, &a, sizeof(T));
  memcpy(&y, &b, sizeof(T));
  return x == y;
}

// Appends entry `entry` of part q's list with `value` to q's region of the
// send buffers: one atomic per group of threads appending together (a
// list's changes may number 10^8).
template <class V>
__device__ __forceinline__ void append(unsigned q, uint64_t entry, bool pushed,
                                       const ListView& list, const V& value, uint32_t* index,
                                       V* values, unsigned long long* counts) {
  const cooperative_groups::coalesced_group group = cooperative_groups::coalesced_threads();
  unsigned long long first = 0;
  if (group.thread_rank() == 0) first = atomicAdd(&counts[q], group.size());
  const unsigned long long slot = group.shfl(first, 0) + group.thread_rank();
  const auto position = static_cast<uint32_t>(entry - list.begin[q]);
  index[list.begin[q] + slot] = position | (pushed ? kPushedBit : 0u);
  values[list.begin[q] + slot] = value;
}

// blockIdx.y is the peer; threads stride over its entries. select(entry,
// vertex, value, pushed) says whether the entry travels.
template <class Select, class V>
__global__ void select_entries(Select select, ListView list, uint32_t* index, V* values,
                               unsigned long long* counts) {
  const unsigned q = blockIdx.y;
  const uint64_t first = list.begin[q], last = list.begin[q + 1];
  for (uint64_t entry = first + blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; entry < last;
       entry += uint64_t(gridDim.x) * blockDim.x) {
    V value;
    bool pushed = false;
    if (select(entry, list.ids[entry], value, pushed))
      append(q, entry, pushed, list, value, index, values, counts);
  }
}

// A dense payload (Exchange::pays_dense): every entry of a peer's list at
// its position, with a flag byte saying whether it was sent and pushed.
constexpr uint8_t kSentFlag = 1, kPushedFlag = 2;
struct DensePayload {
  const uint8_t* peers = nullptr;  // per peer: whether its payload is dense
  uint8_t* flags = nullptr;        // per list entry
};

// The selected pairs of the dense peers spread to their positions (the
// peers' flags zeroed before).
template <class V>
__global__ void spread_dense(ListView list, const uint32_t* index, const V* values,
                             const unsigned long long* counts, DensePayload dense,
                             V* dense_values) {
  const unsigned q = blockIdx.y;
  if (!dense.peers[q]) return;
  const uint64_t first = list.begin[q];
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < counts[q];
       i += uint64_t(gridDim.x) * blockDim.x) {
    const uint32_t sent = index[first + i];
    const uint64_t entry = first + (sent & ~kPushedBit);
    dense_values[entry] = values[first + i];
    dense.flags[entry] = kSentFlag | ((sent & kPushedBit) ? kPushedFlag : 0);
  }
}

// Applies what each peer sent: its pairs, or its dense payload's sent
// entries.
template <class Apply, class V>
__global__ void apply_entries(Apply apply, ListView list, const uint32_t* index, const V* values,
                              const unsigned long long* counts, DensePayload dense,
                              const V* dense_values) {
  const unsigned q = blockIdx.y;
  const uint64_t first = list.begin[q];
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  const uint64_t thread = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (dense.peers[q]) {
    for (uint64_t entry = first + thread; entry < list.begin[q + 1]; entry += stride)
      if (dense.flags[entry] & kSentFlag)
        apply(entry, list.ids[entry], dense_values[entry], (dense.flags[entry] & kPushedFlag) != 0);
    return;
  }
  for (uint64_t i = thread; i < counts[q]; i += stride) {
    const uint32_t sent = index[first + i];
    const uint64_t entry = first + (sent & ~kPushedBit);
    apply(entry, list.ids[entry], values[first + i], (sent & kPushedBit) != 0);
  }
}

// Entries whose value moved since the last sync (add sends the change), or
// whose vertex was pushed.
template <class T>
struct SelectChanged {
  T* field;
  T* seen;
  bool delta;
  PushShare pushes;
  __device__ bool operator()(uint64_t entry, VertexId v, T& out, bool& pushed) const {
    const T value = field[v];
    pushed = pushes.pushed(v);
    const bool changed = !same_bits(value, seen[entry]);
    if (!pushed && !changed) return false;
    // An unchanged add-field sends 0, not value - value (NaN at infinity).
    out = !delta ? value : changed ? T(value - seen[entry]) : T{};
    seen[entry] = value;
    return true;
  }
};

template <class T, class Op>
struct CombineAtMaster {
  T* field;
  PushShare pushes;
  __device__ void operator()(uint64_t, VertexId v, const T& value, bool pushed) const {
    irgl::detail::atomic_update<Op>(field[v], value);
    if (pushed) pushes.activate(v, nullptr);
  }
};

template <class T>
struct AssignAtMirror {
  T* field;
  T* seen;
  PushShare pushes;
  const uint64_t* offsets;
  __device__ void operator()(uint64_t entry, VertexId v, const T& value, bool pushed) const {
    field[v] = value;
    seen[entry] = value;
    if (pushed) pushes.activate(v, offsets);
  }
};

// seen[entry] = field[ids[entry]] over a list (blockIdx.y: the peer).
template <class T>
__global__ void record_seen(const T* field, ListView list, T* seen) {
  const unsigned q = blockIdx.y;
  for (uint64_t entry = list.begin[q] + blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
       entry < list.begin[q + 1]; entry += uint64_t(gridDim.x) * blockDim.x)
    seen[entry] = field[list.ids[entry]];
}

// Pushes alone, without a field.
struct SelectPushed {
  PushShare pushes;
  __device__ bool operator()(uint64_t, VertexId v, uint8_t& out, bool& pushed) const {
    out = 0;
    pushed = pushes.pushed(v);
    return pushed;
  }
};

struct ActivatePushed {
  PushShare pushes;
  const uint64_t* offsets;  // null at masters
  __device__ void operator()(uint64_t, VertexId v, uint8_t, bool) const {
    pushes.activate(v, offsets);
  }
};

}  // namespace detail

class Exchange : public lang::PartExchange {
 public:
  // Collective: every rank builds its Exchange with its own part.
  Exchange(Comm& comm, const PartView& view);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  unsigned part() const { return comm_.rank(); }
  unsigned parts() const { return comm_.size(); }
  Comm& comm() { return comm_; }
  uint64_t mirror_entries() const { return mirrors_.host_begin.back(); }
  uint64_t master_entries() const { return masters_.host_begin.back(); }
  // The part's out-edge offsets on the GPU: a pushed vertex reaches a
  // mirror only where the mirror holds out-edges to run.
  void set_out_offsets(const uint64_t* offsets) { local_out_offsets_ = offsets; }

  // After a kernel that wrote `field`: the mirrors' changes combined into
  // the masters with `op` (reduce; add sends the change; none for assign),
  // then the masters' changes sent to the mirrors (broadcast). A sync in
  // both directions also carries the pushes expect_pushes announced: a
  // pushed vertex is a changed one. `sites`: where the kernel wrote.
  // Collective.
  template <class T>
  void sync(T* field, FieldCopies<T>& copies, SyncOp op, bool reduce, bool broadcast,
            WriteSites sites = WriteSites::anywhere);
  // Whether a kernel that writes at `sites` leaves every mirror as it was.
  bool mirrors_unwritten(WriteSites sites) const {
    return sites == WriteSites::out_edge_destinations &&
           policy_ == PartitionPolicy::incoming_edge_cut;
  }
  // After a kernel that wrote `field` at every copy with the same value
  // there (irglc's copies-agree): records its values as the last synced,
  // so the next sync sends only later changes. Local; nothing travels.
  template <class T>
  void mark_synced(const T* field, FieldCopies<T>& copies);
  // Every part's masters of a field, in one array of every vertex on every
  // rank (collective).
  template <class T>
  std::vector<T> gather(const T* field);

  void expect_pushes(const lang::PushedVertices& pushed) override;
  void share_pushes(const lang::PushedVertices& pushed) override;
  void start_total(const gpu::SparseQueueView& in) override;
  uint64_t total() override;
  uint64_t sum(uint64_t local) override;

  // A reduction's value over the parts (a kernel's Sum, Min, Max), timed as
  // an exchange. Collective.
  template <class T>
  T all_reduce(T value, Combine combine) {
    if (parts() == 1) return value;
    const Timed timed(*this, /*ends_superstep=*/true);
    return comm_.all_reduce(value, combine);
  }

  // Bytes sent by this part since construction (payload, not counts).
  uint64_t bytes_sent() const { return bytes_sent_; }
  // Payloads (one per peer and move that sent anything) since construction,
  // and how many of them went in the dense form.
  uint64_t payloads_sent() const { return payloads_sent_; }
  uint64_t dense_payloads_sent() const { return dense_payloads_sent_; }

  // The GPU time of the exchanges since start_run(): every sync, share of
  // pushes, sum of sizes and reduction, from its first kernel to its last
  // operation (CUDA events on the stream; read once the run has
  // synchronised). The rest of a run is computation (paper 001's
  // compute/communication split). A run that left a pipe before its swap
  // (a break, an exception) leaves no pushes pending for the next.
  void start_run();
  double exchange_ms() const;
  size_t exchanges() const { return intervals_used_; }
  // The run's supersteps: the stretches that end where the host reads a
  // value of every part (a worklist's size, a reduction), which the parts
  // reach together. Each one's computation and exchange time, in order;
  // what follows the last is not one. Read once the run has synchronised.
  struct Superstep {
    double computation_ms = 0, exchange_ms = 0;
  };
  std::vector<Superstep> supersteps() const;

 private:
  struct Lists {
    gpu::DeviceBuffer<VertexId> ids;
    gpu::DeviceBuffer<uint64_t> begin;
    std::vector<uint64_t> host_begin;
    detail::ListView view() const { return {ids.data(), begin.data()}; }
  };

  template <class T>
  void reduce(T* field, FieldCopies<T>& copies, SyncOp op, const detail::PushShare& pushes);
  template <class T>
  void broadcast(T* field, FieldCopies<T>& copies, const detail::PushShare& pushes);
  // The pushes of the one pipe that announced them, marked, for a sync to
  // carry; none (words null) when no pipe or several did.
  detail::PushShare take_pending_pushes();
  std::vector<lang::PushedVertices>::iterator pending_of(const lang::PushedVertices& pushed);
  // Marks a queue's pushes in their bitmap, which stays marked until the
  // pipe's swap; the share of them.
  detail::PushShare mark(const lang::PushedVertices& pushed);
  // Pushes alone: mirrors to masters, then masters to mirrors.
  void move_pushes(const detail::PushShare& pushes);

  // Runs select over `from`'s entries, sends what it picked to the peers,
  // receives theirs into `to`'s entries and runs apply on them.
  template <class V, class Select, class Apply>
  void move(const Lists& from, Select select, const Lists& to, Apply apply);
  // The send counts (device) to the peers, their counts back to the host.
  void exchange_counts();
  // Whether `count` of a list segment's `length` entries travel smaller as
  // a dense payload (a value and a flag byte per entry) than as pairs.
  static bool pays_dense(uint64_t count, uint64_t length, size_t value_bytes) {
    return count * (sizeof(uint32_t) + value_bytes) > length * (value_bytes + 1);
  }
  // Picks each peer's form from the counts (the same choice on both ends:
  // entry i of one's list is entry i of the other's) and clears the flags
  // of the dense peers' send segments.
  struct DenseSides {
    detail::DensePayload send, receive;
    bool any_send = false;
  };
  DenseSides choose_dense(const Lists& from, const Lists& to, size_t value_bytes);
  void send_payload(const Lists& from, const Lists& to, const void* values_out, void* values_in,
                    size_t value_bytes);
  dim3 grid() const;

  // Records an interval's start and end on the stream (events reused run
  // after run); one nested in another (a share's moves) is the outer's.
  class Timed {
   public:
    explicit Timed(Exchange& exchange, bool ends_superstep = false);
    ~Timed();

   private:
    Exchange& exchange_;
  };
  friend class Timed;
  struct Interval {
    cudaEvent_t start, stop;
    bool ends_superstep;
  };
  float elapsed_ms(cudaEvent_t from, cudaEvent_t to) const;

  Comm& comm_;
  PartitionPolicy policy_;
  cudaEvent_t run_start_ = nullptr;
  std::vector<Interval> intervals_;
  size_t intervals_used_ = 0;
  int timing_depth_ = 0;
  std::vector<VertexId> first_masters_;
  Lists mirrors_, masters_;
  gpu::DeviceBuffer<uint32_t> send_index_, receive_index_;
  gpu::DeviceBuffer<uint64_t> send_values_, receive_values_;  // 8 bytes per entry
  // Dense payloads (allocated at their first use): values and flags per
  // entry, and each peer's form (send[parts], then receive[parts]).
  gpu::DeviceBuffer<uint64_t> send_dense_, receive_dense_;
  gpu::DeviceBuffer<uint8_t> send_flags_, receive_flags_, dense_peers_;
  gpu::PinnedBuffer<uint8_t> host_dense_peers_;
  gpu::DeviceBuffer<unsigned long long> counts_;  // send[parts], then receive[parts]
  gpu::PinnedBuffer<unsigned long long> host_counts_;
  const uint64_t* local_out_offsets_ = nullptr;
  uint64_t bytes_sent_ = 0, payloads_sent_ = 0, dense_payloads_sent_ = 0;
  // Pipes whose pushes no sync has carried yet, and marks bitmaps that hold
  // marks until their pipe's swap.
  std::vector<lang::PushedVertices> pending_pushes_;
  std::vector<uint32_t*> marked_;
  gpu::DeviceBuffer<uint64_t> total_;  // start_total's sum
  gpu::PinnedBuffer<uint64_t> host_total_;
};

template <class V, class Select, class Apply>
void Exchange::move(const Lists& from, Select select, const Lists& to, Apply apply) {
  static_assert(sizeof(V) <= sizeof(uint64_t), "values of up to 8 bytes");
  const Timed timed(*this);
  IRGL_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, 2 * parts() * sizeof(unsigned long long), 0));
  V* out = reinterpret_cast<V*>(send_values_.data());
  V* in = reinterpret_cast<V*>(receive_values_.data());
  detail::select_entries<<<grid(), 256>>>(select, from.view(), send_index_.data(), out,
                                          counts_.data());
  IRGL_CUDA_CHECK_LAUNCH();
  exchange_counts();
  const DenseSides dense = choose_dense(from, to, sizeof(V));
  if (dense.any_send) {
    detail::spread_dense<<<grid(), 256>>>(from.view(), send_index_.data(), out, counts_.data(),
                                          dense.send, reinterpret_cast<V*>(send_dense_.data()));
    IRGL_CUDA_CHECK_LAUNCH();
  }
  send_payload(from, to, out, in, sizeof(V));
  detail::apply_entries<<<grid(), 256>>>(apply, to.view(), receive_index_.data(), in,
                                         counts_.data() + parts(), dense.receive,
                                         reinterpret_cast<const V*>(receive_dense_.data()));
  IRGL_CUDA_CHECK_LAUNCH();
}

template <class T>
void Exchange::sync(T* field, FieldCopies<T>& copies, SyncOp op, bool reduce_copies,
                    bool broadcast_masters, WriteSites sites) {
  if (parts() == 1) return;
  reduce_copies = reduce_copies && op != SyncOp::assign;
  const detail::PushShare pushes =
      reduce_copies && broadcast_masters ? take_pending_pushes() : detail::PushShare{};
  if (reduce_copies && !mirrors_unwritten(sites)) reduce(field, copies, op, pushes);
  if (broadcast_masters) broadcast(field, copies, pushes);
}

template <class T>
void Exchange::reduce(T* field, FieldCopies<T>& copies, SyncOp op,
                      const detail::PushShare& pushes) {
  const detail::SelectChanged<T> changed{field, copies.mirror_seen.data(), op == SyncOp::add,
                                         pushes};
  switch (op) {
    case SyncOp::min:
      move<T>(mirrors_, changed, masters_, detail::CombineAtMaster<T, lang::MinOp>{field, pushes});
      break;
    case SyncOp::max:
      move<T>(mirrors_, changed, masters_, detail::CombineAtMaster<T, lang::MaxOp>{field, pushes});
      break;
    case SyncOp::add:
      move<T>(mirrors_, changed, masters_, detail::CombineAtMaster<T, lang::SumOp>{field, pushes});
      break;
    case SyncOp::assign: break;
  }
}

template <class T>
void Exchange::broadcast(T* field, FieldCopies<T>& copies, const detail::PushShare& pushes) {
  move<T>(masters_, detail::SelectChanged<T>{field, copies.master_seen.data(), false, pushes},
          mirrors_,
          detail::AssignAtMirror<T>{field, copies.mirror_seen.data(), pushes, local_out_offsets_});
}

template <class T>
void Exchange::mark_synced(const T* field, FieldCopies<T>& copies) {
  if (parts() == 1) return;
  detail::record_seen<<<grid(), 256>>>(field, mirrors_.view(), copies.mirror_seen.data());
  IRGL_CUDA_CHECK_LAUNCH();
  detail::record_seen<<<grid(), 256>>>(field, masters_.view(), copies.master_seen.data());
  IRGL_CUDA_CHECK_LAUNCH();
}

template <class T>
std::vector<T> Exchange::gather(const T* field) {
  const uint64_t n = first_masters_.back();
  gpu::DeviceBuffer<T> whole(n);
  IRGL_NCCL_CHECK(ncclGroupStart());
  for (unsigned r = 0; r < parts(); ++r) {
    const uint64_t first = first_masters_[r], count = first_masters_[r + 1] - first;
    IRGL_NCCL_CHECK(ncclBroadcast(field + first, whole.data() + first, count * sizeof(T), ncclUint8,
                                  static_cast<int>(r), comm_.nccl(), 0));
  }
  IRGL_NCCL_CHECK(ncclGroupEnd());
  return whole.download();
}

}  // namespace irgl::dist
