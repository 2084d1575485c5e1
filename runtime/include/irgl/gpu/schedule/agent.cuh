// What every schedule's agent shares: the block-level helpers (broadcasts
// and reductions of closures and accumulators, the Body's set-up and flush)
// and the one kernel wrapper that runs an agent over the grid.
//
// An agent is the block-level work of one phase of a schedule (CUB's
// agent/dispatch split): a class template over the block size, the Body and
// the load counters, with a TempStorage type for its shared memory, which
// the caller provides, and a run() whose threads together cover the
// frontier with grid strides. Every thread of the block calls run().
//
//   template <int B, class Body, class Counters>
//   struct MyAgent : AgentBase<B, Body, Counters> {
//     struct TempStorage { ... };                 // shared memory, or empty
//     __device__ MyAgent(TempStorage& temp, Body& body, Counters& counters);
//     template <class Frontier> __device__ void run(const Frontier& frontier);
//   };
//
// agent_kernel<Agent> launches one; a schedule's persistent form
// (InGrid<Policy>, grid.cuh) declares the storage and calls run() itself.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "irgl/gpu/schedule/body.h"
#include "irgl/gpu/schedule/frontier.cuh"
#include "irgl/gpu/schedule/index.h"
#include "irgl/gpu/schedule/instrument.cuh"

namespace irgl::gpu::schedule {

namespace cg = cooperative_groups;

// An agent's block size, Body and load counters, and the references to the
// Body and counters of the kernel that runs it.
template <int BlockThreads, class BodyT, class CountersT>
struct AgentBase {
  static constexpr int kBlockThreads = BlockThreads;
  using Body = BodyT;
  using Counters = CountersT;
  using Closure = typename Body::Closure;
  using Accum = typename Body::Accum;

  Body& body;
  Counters& counters;
};

// The shared memory of an agent that needs none.
struct NoTempStorage {};

#if defined(__CUDACC__)

// Combines accumulators (for cooperative_groups::reduce and CUB). Two
// template parameters, because cooperative_groups::reduce treats a
// one-parameter template functor as one of its own operators.
template <class Body, class Accum = typename Body::Accum>
struct CombineAccum {
  __device__ typename Body::Accum operator()(const typename Body::Accum& a,
                                             const typename Body::Accum& b) const {
    typename Body::Accum result = a;
    Body::combine(result, b);
    return result;
  }
};

// Applies `shuffle` (a shuffle of one 32-bit word) to every word of a
// trivially copyable value: cooperative groups' shuffles stop at 32 bytes.
template <class T, class Shuffle>
__device__ T shuffle_words(const T& value, Shuffle&& shuffle) {
  constexpr unsigned kWords = (sizeof(T) + 3) / 4;
  unsigned words[kWords] = {};
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (unsigned w = 0; w < kWords; ++w) words[w] = shuffle(words[w]);
  T result;
  memcpy(&result, words, sizeof(T));
  return result;
}

// Broadcasts a value of any size from lane `source` of a tile of at most 32
// threads.
template <class Tile, class T>
__device__ T shfl_any(const Tile& tile, const T& value, unsigned source) {
  if constexpr (sizeof(T) <= 32) return tile.shfl(value, source);
  else return shuffle_words(value, [&](unsigned word) { return tile.shfl(word, source); });
}

// A virtual warp (Hong et al.; paper 002): `width` consecutive lanes of a
// warp, width a power of two from 2 to 32 known only at run time, with the
// operations of a cooperative-groups tile that the group schedules use.
// Shuffles carry values of any trivially copyable type word by word; each
// operation involves only this virtual warp's lanes, so the warp's other
// virtual warps may be elsewhere in the code. Blocks of whole warps only.
struct VirtualWarpTile {
  unsigned width = 32;
  unsigned rank = 0;     // this thread's lane in the virtual warp
  unsigned mask = ~0u;   // the virtual warp's lanes in the warp

  __device__ static VirtualWarpTile of_this_thread(unsigned width) {
    const unsigned lane = threadIdx.x % 32;
    VirtualWarpTile group;
    group.width = width;
    group.rank = lane & (width - 1);
    group.mask = width == 32 ? ~0u : ((1u << width) - 1) << (lane & ~(width - 1));
    return group;
  }
  __device__ unsigned thread_rank() const { return rank; }
  __device__ unsigned num_threads() const { return width; }
  __device__ unsigned size() const { return width; }
  __device__ bool any(bool predicate) const { return (__ballot_sync(mask, predicate) & mask) != 0; }
  __device__ void sync() const { __syncwarp(mask); }
  template <class T>
  __device__ T shfl(const T& value, unsigned source) const {
    return shuffle_words(value, [&](unsigned word) { return __shfl_sync(mask, word, source, width); });
  }
  template <class T>
  __device__ T shfl_down(const T& value, unsigned offset) const {
    return shuffle_words(value,
                         [&](unsigned word) { return __shfl_down_sync(mask, word, offset, width); });
  }
};

// A whole block of B threads as a tile for run_edges_strided: its vote is
// a block-wide barrier, so every thread of the block must take part.
template <int B>
struct BlockTile {
  __device__ unsigned thread_rank() const { return threadIdx.x; }
  __device__ unsigned num_threads() const { return B; }
  __device__ bool any(bool predicate) const { return __syncthreads_or(predicate) != 0; }
};

// Combines every lane's accumulator over a tile of at most 32 threads; all
// lanes get the total.
template <class Body, class Tile, class Accum = typename Body::Accum>
__device__ Accum reduce_any(const Tile& tile, Accum value) {
  if constexpr (sizeof(Accum) <= 32 && !std::is_same_v<Tile, VirtualWarpTile>) {
    return cg::reduce(tile, value, CombineAccum<Body>());
  } else {
    for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2)
      Body::combine(value, shuffle_words(value, [&](unsigned word) {
                      return tile.shfl_down(word, offset);
                    }));
    return shfl_any(tile, value, 0);
  }
}

// Bodies may define `template <int B> __device__ void begin()`: block-level
// set-up every thread runs before the Body's code (e.g. emptying a
// shared-memory push buffer). Optional, detected here.
template <class Body, int BlockThreads, class = void>
struct HasBegin : std::false_type {};
template <class Body, int BlockThreads>
struct HasBegin<Body, BlockThreads,
                std::void_t<decltype(std::declval<Body&>().template begin<BlockThreads>())>>
    : std::true_type {};

template <int BlockThreads, class Body>
__device__ void begin_body(Body& body) {
  if constexpr (HasBegin<Body, BlockThreads>::value) body.template begin<BlockThreads>();
}

// The end of every kernel (and of every step of a persistent kernel): the
// Body's reductions and pushes and the load counters, flushed per block.
template <int BlockThreads, class Body, class Counters>
__device__ void finish_body(Body& body, Counters& counters) {
  body.template flush<BlockThreads>();
  counters.template flush<BlockThreads>();
}

__device__ inline uint64_t global_thread() { return uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ inline uint64_t grid_threads() { return uint64_t(gridDim.x) * blockDim.x; }

// A vertex's whole edge loop run sequentially by the calling thread (a
// settling body's until it settles).
template <class Body, class Counters>
__device__ void run_edges_sequentially(Body& body, VertexId v, const typename Body::Closure& closure,
                                       Counters& counters) {
  typename Body::Accum accum = Body::identity();
  const uint64_t begin = body.edges_begin(v), end = body.edges_end(v);
  uint64_t e = begin;
  for (; e < end; ++e) {
    body.edge(v, e, closure, accum);
    if constexpr (kBodySettles<Body>)
      if (Body::settled(accum)) {
        ++e;
        break;
      }
  }
  counters.edges(e - begin);
  body.post(v, closure, accum);
}

// Edges [begin, end) of vertex v strided over a tile's threads, combined
// into each thread's `accum`; a settling body's tile stops once any
// thread's partial settles (a vote per stride, so every thread leaves
// together).
template <class Body, class Tile, class Counters>
__device__ void run_edges_strided(const Tile& tile, Body& body, VertexId v,
                                  const typename Body::Closure& closure, uint64_t begin,
                                  uint64_t end, typename Body::Accum& accum, Counters& counters) {
  const unsigned rank = tile.thread_rank(), size = tile.num_threads();
  if constexpr (!kBodySettles<Body>) {
    for (uint64_t e = begin + rank; e < end; e += size) {
      body.edge(v, e, closure, accum);
      counters.edges(1);
    }
  } else {
    for (uint64_t base = begin; base < end; base += size) {
      if (base + rank < end) {
        body.edge(v, base + rank, closure, accum);
        counters.edges(1);
      }
      if (tile.any(Body::settled(accum))) break;
    }
  }
}

// The kernel of every schedule: Agent's run(args...) over the grid between
// the Body's block set-up and its flush, with the agent's shared memory.
template <class Agent, class... Args>
__global__ void __launch_bounds__(Agent::kBlockThreads)
    agent_kernel(typename Agent::Body body, typename Agent::Counters counters, Args... args) {
  __shared__ typename Agent::TempStorage temp;
  begin_body<Agent::kBlockThreads>(body);
  Agent(temp, body, counters).run(args...);
  finish_body<Agent::kBlockThreads>(body, counters);
}

#endif  // __CUDACC__

}  // namespace irgl::gpu::schedule
