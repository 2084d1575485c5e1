// What a schedule runs: a Body, the per-vertex and per-edge code of one
// vertex loop with its edge loop. irglc generates one Body struct per kernel;
// hand-written CUDA can define its own (see runtime/examples/spmv_schedules.cu).
//
//   struct Body {
//     using Closure = ...;  // values the edge code needs from the vertex code
//     using Accum = ...;    // values the edge code combines per vertex
//     static constexpr bool kHasEdges;   // false: a vertex loop without edges
//     static constexpr bool kHasAccum;   // Accum has fields to combine
//     static constexpr bool kHasPost;    // post() does something
//
//     // The vertex code before the edge loop: fills the closure; false when
//     // the vertex does nothing more (a guard failed, or it continued).
//     __device__ bool pre(Node v, Closure& closure);
//     // The vertex's edges: [edges_begin(v), edges_end(v)).
//     __device__ uint64_t edges_begin(Node v) const;
//     __device__ uint64_t edges_end(Node v) const;
//     // The largest degree any vertex has in this direction (lets ALB skip
//     // its inspection on graphs where no vertex can be huge).
//     IRGL_HD uint64_t max_degree() const;
//     // One edge; combines its contribution into `accum` (a partial value).
//     __device__ void edge(Node v, Edge e, const Closure& closure, Accum& accum);
//     // The vertex code after the edge loop, once all of v's edges are done,
//     // with the combined accumulators.
//     __device__ void post(Node v, const Closure& closure, const Accum& accum);
//     IRGL_HD static Accum identity();
//     __device__ static void combine(Accum& into, const Accum& from);
//     // Combines into memory other threads update too (global or shared).
//     __device__ static void atomic_combine(Accum* into, const Accum& from);
//     // Flushes the reductions the code combined into (every thread of the
//     // block calls it once, at the end of every kernel that ran the code).
//     template <int BlockThreads> __device__ void flush();
//
//     // Optional: each vertex's edges follow the previous vertex's
//     // (edges_end(v) == edges_begin(v + 1), a CSR or CSC graph), their
//     // number, and an address that identifies the layout (the offsets
//     // array). ALB then runs loops over all vertices that accumulate as
//     // row tiles (alb.cuh: RowTilesAgent), cut once per layout. irglc's
//     // bodies declare all three.
//     static constexpr bool kContiguousEdges = true;
//     IRGL_HD uint64_t edge_count() const;
//     __host__ const void* edge_layout() const;
//
//     // Optional: the edge loop may stop early (a pull bfs's "found a
//     // parent"). settled(partial) is true once a partial accumulator fixes
//     // the combined one whatever the remaining edges add (an OR flag that
//     // is set, an AND at zero), and edge() has no effect but its
//     // accumulation.
//     static constexpr bool kSettles = true;
//     __device__ static bool settled(const Accum& partial);
//
//     // Optional: the loop's pushes may chain (ChainsPushes below): points
//     // the worklist it pushes to at `slot` (null: none), where the first
//     // push that finds the slot empty (kNoChainedVertex) stays for the
//     // pushing group to process next, in the same round
//     // (lang/cuda.cuh: Worklist::chain; group_mapped.cuh). Only for loops
//     // whose pushes follow a successful atomic_min on the pushed vertex's
//     // label: such a loop tolerates a vertex processed ahead of its turn.
//     __device__ void chain_pushes(Node* slot);
//   };
//
// Every schedule calls pre() exactly once per frontier item (per member of a
// swept frontier, frontier.cuh), edge() exactly once per edge of each vertex
// whose pre() returned true (or, for a settling body, at least until its
// threads' partial accumulators settle), and then post() exactly once for
// that vertex; it differs only in which threads do it. thread, warp,
// group:N (N up to 32) and TWC's bins (ALB's too; its small vertices then
// run a thread each) stop early.
// Closure and Accum must be trivially copyable: schedules copy them through
// shuffles, shared memory and global memory.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace irgl::gpu::schedule {

// The Accum of bodies that combine nothing.
struct NoAccum {};

// An empty chain slot (a VertexId no graph has).
inline constexpr uint32_t kNoChainedVertex = ~uint32_t{0};

// Whether Body declares chain_pushes (its pushes may chain).
template <class Body, class = void>
struct ChainsPushes : std::false_type {};
template <class Body>
struct ChainsPushes<Body, std::void_t<decltype(std::declval<Body&>().chain_pushes(
                              std::declval<uint32_t*>()))>> : std::true_type {};

// Whether Body declares kSettles (its edge loops may stop early).
template <class Body, class = void>
struct BodySettles : std::false_type {};
template <class Body>
struct BodySettles<Body, std::void_t<decltype(Body::kSettles)>>
    : std::bool_constant<Body::kSettles> {};
template <class Body>
inline constexpr bool kBodySettles = BodySettles<Body>::value;

template <class Body>
constexpr void check_body() {
  static_assert(std::is_trivially_copyable_v<typename Body::Closure>,
                "a Body's Closure must be trivially copyable");
  static_assert(std::is_trivially_copyable_v<typename Body::Accum>,
                "a Body's Accum must be trivially copyable");
}

}  // namespace irgl::gpu::schedule
