// Reference computations that check a device and an uploaded graph: used by
// irgl-gpu-selfcheck and the GPU tests. They favour obvious correctness over
// speed (thread-per-vertex, no load balancing).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "irgl/gpu/device_graph.h"
#include "irgl/graph/csr_graph.h"

namespace irgl::gpu {

// BFS level of a vertex the source does not reach.
inline constexpr uint32_t kUnreachedLevel = UINT32_MAX;

// Recomputes on the GPU the out-degree (and the in-degree, when uploaded) of
// every vertex from the device offsets and compares them with `host`.
// Returns an empty string when all match, else a description of the first
// mismatch and the number of mismatches. Synchronous.
std::string check_degrees_on_gpu(const DeviceGraph& device, const CsrGraph& host,
                                 cudaStream_t stream = 0);

struct GpuBfsResult {
  std::vector<uint32_t> levels;  // per vertex; kUnreachedLevel if unreached
  uint32_t rounds = 0;           // frontiers expanded (= depth + 1 when reached)
  uint64_t reached = 0;          // vertices with a level
  float milliseconds = 0;        // GPU time from the first round to the last
};

// Level-synchronous BFS over out-edges from `source` (< num_vertices) with a
// Pipe of vertex queues: each round expands the input frontier one thread
// per vertex, pushing newly visited neighbors with push_unique (a visited
// bitmap) and reading the next frontier's size back once. Synchronous.
GpuBfsResult bfs_levels_on_gpu(const DeviceGraph& graph, VertexId source, cudaStream_t stream = 0);

// The same levels computed on the host (sequential queue BFS).
std::vector<uint32_t> bfs_levels_on_cpu(const CsrGraph& graph, VertexId source);

// Empty when `actual` equals `expected`, else the first mismatching vertex
// with both values and the number of mismatches (or the size difference).
std::string compare_levels(const std::vector<uint32_t>& expected,
                           const std::vector<uint32_t>& actual);

}  // namespace irgl::gpu
