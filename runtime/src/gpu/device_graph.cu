#include <vector>

#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"

namespace irgl::gpu {

namespace {

uint64_t rounded_allocation(uint64_t bytes) {
  return (bytes + kAllocationGranularity - 1) / kAllocationGranularity * kAllocationGranularity;
}

// The host arrays of one direction that an upload copies.
struct HostDirection {
  const std::vector<uint64_t>* offsets;
  const std::vector<VertexId>* neighbors;
  const std::vector<uint32_t>* weights;  // null when weights are not uploaded
};

bool uploads_weights(const CsrGraph& graph, const UploadOptions& options) {
  return options.weights && graph.has_weights();
}
bool uploads_in_edges(const CsrGraph& graph, const UploadOptions& options) {
  return options.in_edges && graph.has_transpose();
}

HostDirection out_arrays(const CsrGraph& graph, const UploadOptions& options) {
  return {&graph.out_offsets, &graph.out_targets,
          uploads_weights(graph, options) ? &graph.out_weights : nullptr};
}
HostDirection in_arrays(const CsrGraph& graph, const UploadOptions& options) {
  return {&graph.in_offsets, &graph.in_sources,
          uploads_weights(graph, options) ? &graph.in_weights : nullptr};
}

uint64_t estimate_direction(const HostDirection& arrays) {
  uint64_t bytes = rounded_allocation(arrays.offsets->size() * sizeof(uint64_t)) +
                   rounded_allocation(arrays.neighbors->size() * sizeof(VertexId));
  if (arrays.weights) bytes += rounded_allocation(arrays.weights->size() * sizeof(uint32_t));
  return bytes;
}

// Throws DeviceMemoryError unless the upload fits.
void check_fits(const CsrGraph& graph, const UploadOptions& options) {
  const uint64_t graph_bytes = estimate_upload_bytes(graph, options);
  const uint64_t needed = graph_bytes + options.reserve_bytes + kUploadMarginBytes;
  DeviceInfo device = query_device();
  if (options.assume_free_bytes == 0 && needed > device.free_memory) {
    // Memory the pool keeps for vertex data is free to the upload too; hand
    // it back only when it is needed, since it costs a device synchronisation.
    release_pooled_memory();
    device = query_device();
  }
  const uint64_t free_bytes =
      options.assume_free_bytes != 0 ? options.assume_free_bytes : device.free_memory;
  if (needed <= free_bytes) return;
  std::string message = "graph '" + graph.name + "' does not fit on the GPU: it needs " +
                        format_bytes(needed) + " (arrays " + format_bytes(graph_bytes);
  if (options.reserve_bytes != 0)
    message += " + " + format_bytes(options.reserve_bytes) + " reserved by the caller";
  message += " + " + format_bytes(kUploadMarginBytes) + " margin) but " + device.name + " has " +
             format_bytes(free_bytes) + " free";
  if (options.assume_free_bytes != 0) message += " (as assumed by the caller)";
  message += " of " + format_bytes(device.total_memory);
  throw DeviceMemoryError(message);
}

template <class T>
void upload_array(DeviceBuffer<T>& buffer, const std::vector<T>& host, cudaStream_t stream) {
  buffer.upload_async(host.data(), host.size(), stream);
}

template <class T>
void download_array(const DeviceBuffer<T>& buffer, std::vector<T>& host, cudaStream_t stream) {
  host.resize(buffer.size());
  buffer.download_async(host.data(), host.size(), stream);
}

}  // namespace

GraphView host_view(const CsrGraph& graph) {
  auto direction = [&graph](const Adjacency& adjacency, uint64_t edges) {
    CsrView view;
    view.offsets = adjacency.offsets;
    view.neighbors = adjacency.neighbors;
    view.weight_words = adjacency.weight_words;
    view.vertex_count = static_cast<uint32_t>(graph.num_vertices());
    view.edge_count = edges;
    return view;
  };
  GraphView view;
  view.out = direction(graph.out(), graph.num_edges());
  if (graph.has_transpose()) view.in = direction(graph.in(), graph.in_sources.size());
  view.weight_type = graph.weight_type;
  return view;
}

uint64_t estimate_upload_bytes(const CsrGraph& graph, const UploadOptions& options) {
  uint64_t bytes = estimate_direction(out_arrays(graph, options));
  if (uploads_in_edges(graph, options)) bytes += estimate_direction(in_arrays(graph, options));
  return bytes;
}

DeviceGraph::DeviceGraph(const CsrGraph& graph, const UploadOptions& options, cudaStream_t stream)
    : name_(graph.name),
      num_vertices_(static_cast<uint32_t>(graph.num_vertices())),
      num_edges_(graph.num_edges()),
      weight_type_(uploads_weights(graph, options) ? graph.weight_type : WeightType::none),
      symmetric_(graph.symmetric),
      sorted_(graph.sorted) {
  check_fits(graph, options);
  // Allocate everything before copying, so that running out of memory
  // wastes no transfer time.
  auto allocate = [](Direction& direction, const HostDirection& arrays) {
    direction.offsets.reset(arrays.offsets->size());
    direction.neighbors.reset(arrays.neighbors->size());
    if (arrays.weights) direction.weights.reset(arrays.weights->size());
  };
  auto copy = [stream](Direction& direction, const HostDirection& arrays) {
    upload_array(direction.offsets, *arrays.offsets, stream);
    upload_array(direction.neighbors, *arrays.neighbors, stream);
    if (arrays.weights) upload_array(direction.weights, *arrays.weights, stream);
  };
  const bool with_in_edges = uploads_in_edges(graph, options);
  allocate(out_, out_arrays(graph, options));
  if (with_in_edges) allocate(in_, in_arrays(graph, options));
  copy(out_, out_arrays(graph, options));
  if (with_in_edges) copy(in_, in_arrays(graph, options));
  // While the copies run: one pass over the host offsets.
  out_degrees_ = schedule::shape_of_degrees(out_arrays(graph, options).offsets->data(), num_vertices_);
  if (with_in_edges)
    in_degrees_ = schedule::shape_of_degrees(in_arrays(graph, options).offsets->data(), num_vertices_);
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
}

CsrView DeviceGraph::Direction::view(uint32_t num_vertices) const {
  CsrView view;
  if (offsets.empty()) return view;
  view.offsets = offsets.data();
  view.neighbors = neighbors.data();
  view.weight_words = weights.empty() ? nullptr : weights.data();
  view.vertex_count = num_vertices;
  view.edge_count = neighbors.size();
  return view;
}

GraphView DeviceGraph::view() const {
  GraphView view;
  view.out = out_.view(num_vertices_);
  view.in = in_.view(num_vertices_);
  view.weight_type = weight_type_;
  return view;
}

uint64_t DeviceGraph::device_bytes() const { return out_.bytes() + in_.bytes(); }

CsrGraph DeviceGraph::download(cudaStream_t stream) const {
  CsrGraph graph;
  graph.name = name_;
  graph.set_num_vertices(num_vertices_);
  graph.weight_type = weight_type_;
  graph.symmetric = symmetric_;
  graph.sorted = sorted_;
  download_array(out_.offsets, graph.out_offsets, stream);
  download_array(out_.neighbors, graph.out_targets, stream);
  download_array(out_.weights, graph.out_weights, stream);
  download_array(in_.offsets, graph.in_offsets, stream);
  download_array(in_.neighbors, graph.in_sources, stream);
  download_array(in_.weights, graph.in_weights, stream);
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return graph;
}

}  // namespace irgl::gpu
