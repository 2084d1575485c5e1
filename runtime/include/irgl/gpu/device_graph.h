// A graph in device memory.
//
//   irgl::gpu::DeviceGraph device(host_graph);      // checks it fits, uploads
//   my_kernel<<<...>>>(device.view(), ...);          // GraphView by value
//
//   __global__ void my_kernel(irgl::gpu::GraphView g, ...) {
//     for (uint64_t e = g.out.begin(v); e < g.out.end(v); ++e) {
//       VertexId w = g.out.neighbor(e);
//       int32_t d = g.out.weight<int32_t>(e);
//       ...
//
// DeviceGraph owns the arrays (RAII, move-only); GraphView is a trivially
// copyable bundle of pointers and sizes for kernels, valid while its
// DeviceGraph lives. Layout mirrors irgl::CsrGraph: 64-bit offsets (n + 1),
// 32-bit neighbor ids, optional 32-bit weight words; the in-edges (CSC) are
// uploaded when the host graph has its transpose.
//
// The view types compile with a plain C++ compiler too, so host code may
// build them over host arrays (host_view()) and share code with kernels.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/schedule/auto_pick.h"
#include "irgl/graph/csr_graph.h"
#include "irgl/support/host_device.h"

namespace irgl::gpu {

// One direction of a graph: out-edges (CSR) or in-edges (CSC). An absent
// direction has null pointers and no vertices or edges.
struct CsrView {
  const uint64_t* offsets = nullptr;       // vertex_count + 1 entries
  const VertexId* neighbors = nullptr;     // edge_count: targets (out) / sources (in)
  const uint32_t* weight_words = nullptr;  // edge_count, or null when unweighted
  uint32_t vertex_count = 0;
  uint64_t edge_count = 0;

  IRGL_HD bool present() const { return offsets != nullptr; }
  IRGL_HD bool has_weights() const { return weight_words != nullptr; }
  IRGL_HD uint32_t num_vertices() const { return vertex_count; }
  IRGL_HD uint64_t num_edges() const { return edge_count; }

  // Edge ids of v: [begin(v), end(v)). Preconditions: v < num_vertices().
  IRGL_HD uint64_t begin(VertexId v) const { return offsets[v]; }
  IRGL_HD uint64_t end(VertexId v) const { return offsets[v + 1]; }
  IRGL_HD uint64_t degree(VertexId v) const { return offsets[v + 1] - offsets[v]; }
  // The other endpoint of edge e (< num_edges()).
  IRGL_HD VertexId neighbor(uint64_t e) const { return neighbors[e]; }

  // The weight of edge e: its 32-bit word reinterpreted as W (int32_t, float
  // or uint32_t). Precondition: has_weights(); the caller picks W to match
  // the graph's WeightType (DeviceGraph::weight_type()).
  template <class W>
  IRGL_HD W weight(uint64_t e) const {
    static_assert(
        std::is_same_v<W, int32_t> || std::is_same_v<W, float> || std::is_same_v<W, uint32_t>,
        "edge weights are 32-bit words: read them as int32_t, float or uint32_t");
    const uint32_t word = weight_words[e];
    W value;
    std::memcpy(&value, &word, sizeof value);  // compiles to a register move
    return value;
  }
};

// Both directions of a graph; `in` is absent unless the in-edges were uploaded.
struct GraphView {
  CsrView out;
  CsrView in;
  WeightType weight_type = WeightType::none;

  IRGL_HD uint32_t num_vertices() const { return out.vertex_count; }
  IRGL_HD uint64_t num_edges() const { return out.edge_count; }
  IRGL_HD bool has_in_edges() const { return in.present(); }
};

static_assert(std::is_trivially_copyable_v<GraphView>, "views are passed to kernels by value");

// A view of a host graph's arrays, for host code that shares view-based
// routines with kernels. Valid while `graph` is unchanged.
GraphView host_view(const CsrGraph& graph);

// What to upload.
struct UploadOptions {
  bool in_edges = true;  // the transpose, when the host graph has one
  bool weights = true;   // the weights, when the host graph has them
  // Device memory the caller will allocate after the upload (per-vertex
  // labels, worklists): counted in the fit check so that a graph that would
  // leave no room for its algorithm is refused up front.
  uint64_t reserve_bytes = 0;
  // Test hook: check the fit against this many free bytes instead of the
  // device's (cudaMemGetInfo). 0 means ask the device.
  uint64_t assume_free_bytes = 0;
};

// Free device memory kept back beyond the graph: room for the CUDA runtime's
// own allocations made later (module loading, CUB scratch, device-side
// printf/malloc heaps) and for small buffers callers do not count.
inline constexpr uint64_t kUploadMarginBytes = uint64_t{256} << 20;
// cudaMalloc hands out memory in pages of this size (on current GPUs), so
// each array costs its size rounded up to it.
inline constexpr uint64_t kAllocationGranularity = uint64_t{2} << 20;

// Device bytes the upload of `graph` with `options` will allocate: each array
// rounded up to kAllocationGranularity. Excludes reserve_bytes and the margin.
uint64_t estimate_upload_bytes(const CsrGraph& graph, const UploadOptions& options = {});

// Thrown when a graph does not fit in the device's free memory.
class DeviceMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DeviceGraph {
 public:
  DeviceGraph() = default;
  // Checks that estimate_upload_bytes + reserve_bytes + kUploadMarginBytes fit
  // in the free device memory (else throws DeviceMemoryError saying how much
  // is needed and how much the named GPU has free), then allocates and copies
  // every array on `stream` and waits for it. Copies come from pageable host
  // memory (the driver stages them). Throws CudaError on CUDA failures.
  explicit DeviceGraph(const CsrGraph& graph, const UploadOptions& options = {},
                       cudaStream_t stream = 0);

  DeviceGraph(DeviceGraph&&) noexcept = default;
  DeviceGraph& operator=(DeviceGraph&&) noexcept = default;

  GraphView view() const;

  uint32_t num_vertices() const { return num_vertices_; }
  uint64_t num_edges() const { return num_edges_; }
  WeightType weight_type() const { return weight_type_; }
  bool has_weights() const { return weight_type_ != WeightType::none; }
  bool has_in_edges() const { return !in_.offsets.empty(); }
  const std::string& name() const { return name_; }
  // Bytes of device memory held by the arrays (unrounded).
  uint64_t device_bytes() const;
  // The out- and in-degrees' shapes (what --schedule=auto picks by), taken
  // from the host arrays at upload so that every run on the graph has them
  // for free; the in-degrees' are unknown without in-edges.
  const schedule::GraphShape& out_degrees() const { return out_degrees_; }
  const schedule::GraphShape& in_degrees() const { return in_degrees_; }

  // Copies the graph back into a host CsrGraph (the uploaded parts, with the
  // host graph's name and flags). For tests and debugging; synchronous.
  CsrGraph download(cudaStream_t stream = 0) const;

 private:
  struct Direction {
    DeviceBuffer<uint64_t> offsets;
    DeviceBuffer<VertexId> neighbors;
    DeviceBuffer<uint32_t> weights;

    CsrView view(uint32_t num_vertices) const;
    uint64_t bytes() const { return offsets.bytes() + neighbors.bytes() + weights.bytes(); }
  };

  std::string name_;
  uint32_t num_vertices_ = 0;
  uint64_t num_edges_ = 0;
  WeightType weight_type_ = WeightType::none;
  bool symmetric_ = false;
  bool sorted_ = false;
  Direction out_;
  Direction in_;
  schedule::GraphShape out_degrees_, in_degrees_;
};

}  // namespace irgl::gpu
