// The target of irglc's CUDA programs: uploads the graph once, then times
// each run of the driver with CUDA events.
#pragma once

#include <functional>

#include "irgl/gpu/device_info.h"
#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/schedule/outline.cuh"
#include "irgl/gpu/timer.h"
#include "irgl/lang/cuda.cuh"
#include "irgl/lang/program.h"
#include "irgl/support/error.h"

namespace irgl::lang {

// What a program allocates on the GPU besides the graph, so that a graph
// that would leave no room for it is refused before uploading.
struct DeviceFootprint {
  uint64_t bytes_per_vertex = 0;  // all NodeData together
  bool uses_pipe = false;         // two worklists of |E| + |V| items, two bitmaps
  uint64_t bytes(uint64_t vertices, uint64_t edges) const {
    return bytes_per_vertex * vertices +
           (uses_pipe ? 2 * 4 * (edges + vertices) + 2 * (vertices / 8 + 4) : 0);
  }
};

class CudaTarget : public ProgramTarget {
 public:
  // `records_load`: the kernels were generated with --instrument=load.
  CudaTarget(std::function<void(const Graph&)> driver, DeviceFootprint footprint,
             bool records_load = false)
      : driver_(std::move(driver)), footprint_(footprint), records_load_(records_load) {}

  std::string device_name() override {
    std::string why;
    if (!gpu::gpu_available(&why)) throw InputError::in("cuda", "no usable GPU: " + why);
    return gpu::query_device().name;
  }

  void prepare(const CsrGraph& graph) override {
    gpu::UploadOptions options;
    options.reserve_bytes = footprint_.bytes(graph.num_vertices(), graph.num_edges());
    device_graph_ = gpu::DeviceGraph(graph, options);
    view_ = view_of(device_graph_);
  }

  double run() override {
    gpu::schedule::global_load_log().clear();  // keep the last run's only
    gpu::global_frontier_log().clear();
    gpu::CudaEventTimer timer;
    timer.start();
    driver_(view_);
    timer.stop();
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());
    return timer.elapsed_ms();
  }

  bool records_load() const override { return records_load_; }
  bool tunes_alb() const override { return true; }
  void tune_alb(std::optional<uint64_t> threshold, std::optional<bool> blocked,
                std::optional<std::string> row_tiles) override {
    using gpu::schedule::RowTiles;
    auto& overrides = gpu::schedule::alb_overrides();
    overrides.threshold = threshold;
    overrides.row_tiles.reset();
    if (row_tiles)
      overrides.row_tiles = *row_tiles == "on"    ? RowTiles::on
                            : *row_tiles == "off" ? RowTiles::off
                                                  : RowTiles::automatic;
    if (blocked)
      overrides.distribution =
          *blocked ? gpu::schedule::Distribution::blocked : gpu::schedule::Distribution::cyclic;
  }
  bool set_outline_mode(const std::string& mode) override {
    return gpu::schedule::parse_outline_mode(mode, gpu::schedule::outline_mode());
  }
  void write_load_report(std::ostream& out) const override {
    gpu::schedule::write_load_log(out, gpu::schedule::global_load_log(),
                                  gpu::global_frontier_log().json());
  }
  bool chooses_frontiers() const override { return footprint_.uses_pipe; }
  bool set_frontier_mode(const std::string& mode) override {
    const std::optional<gpu::FrontierMode> parsed = gpu::parse_frontier_mode(mode);
    if (parsed) gpu::frontier_mode() = *parsed;
    return parsed.has_value();
  }
  std::string run_summary() const override {
    if (!chooses_frontiers()) return {};
    return gpu::global_frontier_log().summary();
  }

 private:
  std::function<void(const Graph&)> driver_;
  DeviceFootprint footprint_;
  bool records_load_;
  gpu::DeviceGraph device_graph_;
  Graph view_;
};

}  // namespace irgl::lang
