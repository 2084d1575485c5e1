// The Python module irgl._cuda: graphs uploaded to a GPU and the examples'
// GPU programs (irglc --emit=library, CUDA) on them, with results as numpy
// arrays. irgl/__init__.py picks between this module and irgl._core; the
// host graph is checked against each program's require() there (by the CPU
// build's check_graph), since a GPU run cannot read the edges to check.
#include <cuda_runtime_api.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "bc.h"
#include "bfs.h"
#include "cc.h"
#include "coloring.h"
#include "irgl/gpu/check.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "jaccard.h"
#include "louvain.h"
#include "kcore.h"
#include "mis.h"
#include "numpy_results.h"
#include "pr.h"
#include "scc.h"
#include "sssp.h"
#include "sssp_real.h"
#include "tc.h"
#include "tc_per_vertex.h"

namespace nb = nanobind;
using irgl::python::to_numpy;

namespace {

// A graph's copy on one GPU (its buffers free themselves on that GPU,
// whichever is current when Python collects the copy).
class UploadedGraph {
 public:
  UploadedGraph(const irgl::CsrGraph& graph, int device, bool in_edges) : device_(device) {
    use_device();
    irgl::gpu::UploadOptions options;
    options.in_edges = in_edges;
    graph_ = irgl::gpu::DeviceGraph(graph, options);
  }

  void use_device() const { IRGL_CUDA_CHECK(cudaSetDevice(device_)); }
  const irgl::gpu::DeviceGraph& graph() const { return graph_; }
  int device() const { return device_; }

 private:
  int device_;
  irgl::gpu::DeviceGraph graph_;
};

using Uploaded = std::shared_ptr<UploadedGraph>;

// Runs `program` on the graph's GPU without the GIL.
template <class Program>
auto on_gpu(const Uploaded& uploaded, Program program) {
  return irgl::python::without_gil([&] {
    uploaded->use_device();
    return program(uploaded->graph());
  });
}

// A device buffer as a 1-d array on its GPU that owns it (__dlpack__), for
// cupy.from_dlpack, torch.from_dlpack, jax.dlpack.
template <class T>
using GpuArray = nb::ndarray<nb::array_api, T, nb::ndim<1>, nb::device::cuda>;

template <class T>
GpuArray<T> to_dlpack(irgl::gpu::DeviceBuffer<T>&& buffer, int device) {
  using Buffer = irgl::gpu::DeviceBuffer<T>;
  auto owned = std::make_unique<Buffer>(std::move(buffer));
  const size_t shape[1] = {owned->size()};
  T* data = owned->data();
  // Freeing waits for the GPU (DeviceBuffer): a consumer may still read it.
  nb::capsule owner(owned.get(), [](void* p) noexcept { delete static_cast<Buffer*>(p); });
  owned.release();  // the capsule owns it now
  return {data, 1, shape, owner, nullptr, nb::dtype<T>(), nb::device::cuda::value, device};
}

// A vertex output taken from a run on the GPU, in host memory: written by
// the copy alone (HostValues), on the graph's GPU without the GIL.
template <class T>
irgl::python::HostValues<T> to_host(irgl::gpu::DeviceBuffer<T>&& on_gpu) {
  irgl::python::HostValues<T> host(on_gpu.size());
  on_gpu.download(host.data(), host.size());
  return host;
}

// A program's vertex output, left on the GPU (on_device) or copied to a
// numpy array: `run_on_device` runs the program and returns the output's
// device buffer.
template <class RunOnDevice>
nb::object vertex_output(const Uploaded& graph, bool on_device, RunOnDevice run_on_device) {
  if (on_device) return nb::cast(to_dlpack(on_gpu(graph, run_on_device), graph->device()));
  auto copied = [&](const auto& g) { return to_host(run_on_device(g)); };
  return nb::cast(to_numpy(on_gpu(graph, copied)));
}

// Binds a program with one vertex output as name(graph, parameters...,
// on_device): its run_on_device() leaves the output on the GPU, handed to
// DLPack or copied to numpy.
template <auto RunOnDevice, auto DeviceOutput, class... Parameters>
void def_vertex_program(nb::module_& m, const char* name) {
  m.def(name, [](const Uploaded& graph, Parameters... parameters, bool on_device) {
    return vertex_output(graph, on_device, [&](const auto& g) {
      return std::move(RunOnDevice(g, parameters...).*DeviceOutput);
    });
  });
}

int device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// Why no program can run on `device` ("" when one can): no driver or
// device, or an architecture this build was not compiled for.
std::string unusable_reason(int device) {
  const int count = device_count();
  std::string why;
  if (count == 0 && !irgl::gpu::gpu_available(&why)) return why;  // the driver's reason
  if (device < 0 || device >= count)
    return "there is no CUDA device " + std::to_string(device) + " (this machine has " +
           std::to_string(count) + ")";
  if (cudaSetDevice(device) != cudaSuccess) return "CUDA device " + std::to_string(device) + " cannot be used";
  return irgl::gpu::gpu_available(&why) ? "" : why;
}

std::string device_summary(int device) {
  IRGL_CUDA_CHECK(cudaSetDevice(device));
  return irgl::gpu::query_device().summary();
}

}  // namespace

NB_MODULE(_cuda, m) {
  m.doc() = "graphs on a GPU and the examples' GPU programs (see irgl/__init__.py)";
  irgl::python::register_input_errors();
  nb::class_<UploadedGraph>(m, "UploadedGraph")
      .def_prop_ro("device", &UploadedGraph::device)
      .def_prop_ro("has_in_edges", [](const UploadedGraph& u) { return u.graph().has_in_edges(); });

  m.def("device_count", &device_count);
  m.def("unusable_reason", &unusable_reason, nb::arg("device"));
  m.def("device_summary", &device_summary, nb::arg("device"));
  m.def("compiled_architectures", &irgl::gpu::compiled_architectures);
  // irgl.compile()'s GPU programs take the copy's DeviceGraph by address.
  m.def("graph_address", [](const Uploaded& g) { return reinterpret_cast<uintptr_t>(&g->graph()); });
  m.def("upload", [](const std::shared_ptr<irgl::CsrGraph>& graph, int device, bool in_edges) {
    nb::gil_scoped_release unlocked;
    return std::make_shared<UploadedGraph>(*graph, device, in_edges);
  }, nb::arg("graph"), nb::arg("device"), nb::arg("in_edges"));

  // The programs with a vertex output: name(graph, parameters..., on_device).
  def_vertex_program<irglc_bfs::run_on_device, &irglc_bfs::DeviceResult::level, uint32_t>(m, "bfs");
  def_vertex_program<irglc_sssp::run_on_device, &irglc_sssp::DeviceResult::dist,
                     uint32_t>(m, "sssp");
  def_vertex_program<irglc_sssp_real::run_on_device, &irglc_sssp_real::DeviceResult::dist,
                     uint32_t>(m, "sssp_real");
  def_vertex_program<irglc_cc::run_on_device, &irglc_cc::DeviceResult::component>(m, "cc");
  def_vertex_program<irglc_pr::run_on_device, &irglc_pr::DeviceResult::rank, float,
                     int>(m, "pr");
  def_vertex_program<irglc_kcore::run_on_device, &irglc_kcore::DeviceResult::in_core,
                     uint32_t>(m, "kcore");
  def_vertex_program<irglc_scc::run_on_device, &irglc_scc::DeviceResult::component>(m, "scc");
  def_vertex_program<irglc_mis::run_on_device, &irglc_mis::DeviceResult::in_set>(m, "mis");
  def_vertex_program<irglc_coloring::run_on_device, &irglc_coloring::DeviceResult::color,
                     bool>(m, "coloring");
  def_vertex_program<irglc_tc_per_vertex::run_on_device,
                     &irglc_tc_per_vertex::DeviceResult::triangles>(m, "tc_per_vertex");
  def_vertex_program<irglc_bc::run_on_device, &irglc_bc::DeviceResult::centrality, uint32_t,
                     uint32_t, bool>(m, "bc");
  def_vertex_program<irglc_jaccard::run_on_device, &irglc_jaccard::DeviceResult::similarity,
                     uint32_t>(m, "jaccard");
  m.def("tc", [](const Uploaded& g) {
    return on_gpu(g, [](const auto& graph) { return irglc_tc::run(graph); }).triangles;
  });
  // louvain: (each vertex's community, their modularity).
  m.def("louvain", [](const Uploaded& g, double resolution, double threshold, uint32_t max_levels,
                      uint32_t max_iterations, bool on_device) {
    double modularity = 0;
    nb::object labels = vertex_output(g, on_device, [&](const auto& graph) {
      irglc_louvain::DeviceResult result =
          irglc_louvain::run_on_device(graph, resolution, threshold, max_levels, max_iterations);
      modularity = result.modularity;
      return std::move(result.label);
    });
    return nb::make_tuple(labels, modularity);
  });
}
