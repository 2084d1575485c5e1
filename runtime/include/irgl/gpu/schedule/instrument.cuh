// Load instrumentation of the schedule kernels (irglc --instrument=load).
//
// Kernels take an instrumentation policy: NoLoadCounters (the default:
// every call compiles to nothing) or LoadCounters, which counts the edges
// each thread block processes and how many vertices took each path. Counts
// are kept per thread (edges) and per block in shared memory (paths), and
// flushed with one atomic per block and counter at the end of the kernel.
#pragma once

#include <cstdint>

namespace irgl::gpu::schedule {

// How a vertex's edges were processed.
enum class LoadPath : uint8_t {
  thread = 0,  // by the thread that owns the vertex (thread-mapped)
  group = 1,   // by a group (warp/block/group-mapped)
  block = 2,   // TWC's block bin
  warp = 3,    // TWC's warp bin
  fine = 4,    // TWC's fine-grained bin (edges packed over the block)
  huge = 5,    // ALB's huge-vertex path (edges spread over the grid)
  edge = 6,    // LB / merge-path: edges spread over the grid
  row = 7,     // ALB's row tiles (topology-driven loops that accumulate)
};
inline constexpr int kLoadPaths = 8;
inline const char* to_string(LoadPath path) {
  constexpr const char* names[kLoadPaths] = {"thread", "group", "block", "warp",
                                             "fine", "huge", "edge", "row"};
  return names[static_cast<int>(path)];
}

struct NoLoadCounters {
#if defined(__CUDACC__)
  __device__ void edges(uint64_t) {}
  __device__ void vertex(LoadPath) {}
  template <int BlockThreads>
  __device__ void flush() {}
#endif
};

// Device side of the counters of one kernel launch: block_edges[b] receives
// the edges block b processed; path_vertices[p] the vertices of path p.
struct LoadCounters {
  unsigned long long* block_edges = nullptr;   // gridDim.x entries
  unsigned long long* path_vertices = nullptr; // kLoadPaths entries
  unsigned long long edge_count = 0;           // this thread's edges

#if defined(__CUDACC__)
  __device__ void edges(uint64_t count) { edge_count += count; }
  __device__ void vertex(LoadPath path) {
    atomicAdd(&path_vertices[static_cast<int>(path)], 1ull);
  }
  template <int BlockThreads>
  __device__ void flush() {
    __shared__ unsigned long long block_total;
    if (threadIdx.x == 0) block_total = 0;
    __syncthreads();
    if (edge_count) atomicAdd(&block_total, edge_count);
    __syncthreads();
    if (threadIdx.x == 0 && block_total) atomicAdd(&block_edges[blockIdx.x], block_total);
  }
#endif
};

}  // namespace irgl::gpu::schedule
