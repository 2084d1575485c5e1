// The target of irglc's CUDA programs: uploads the graph once, then times
// each run of the driver with CUDA events.
#pragma once

#include <functional>
#include <vector>

#include "irgl/gpu/device_info.h"
#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/energy.h"
#include "irgl/gpu/timer.h"
#include "irgl/lang/cuda.cuh"
#include "irgl/lang/cuda_run.h"
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

// The options of a run, on the command line of a program for this target.
std::vector<TargetOption> cuda_run_options(CudaRun& run, const ProgramDescription& description,
                                           bool chooses_frontiers);

class CudaTarget : public ProgramTarget {
 public:
  // The driver, called once per run with the run's options.
  using Driver = std::function<void(const Graph&, const CudaRun&)>;
  // `records_load`: the kernels were generated with --instrument=load.
  CudaTarget(Driver driver, DeviceFootprint footprint, bool records_load = false)
      : driver_(std::move(driver)), footprint_(footprint), records_load_(records_load) {
    run_.load_log = records_load ? &load_log_ : nullptr;
    run_.frontier_log = &frontier_log_;
    run_.auto_log = &auto_log_;
    run_.pool_log = &pool_log_;
  }
  CudaTarget(const CudaTarget&) = delete;  // run_ points into it
  CudaTarget& operator=(const CudaTarget&) = delete;

  std::string device_name() override {
    std::string why;
    if (!gpu::gpu_available(&why)) throw InputError::in("cuda", "no usable GPU: " + why);
    return gpu::query_device().name;
  }

  void prepare(const CsrGraph& graph) override {
    gpu::UploadOptions options;
    options.reserve_bytes = footprint_.bytes(graph.num_vertices(), graph.num_edges());
    device_graph_ = gpu::DeviceGraph(graph, options);
    if (!energy_) energy_.emplace();
    const CudaRun shapes = run_for(device_graph_);
    run_.out_degrees = shapes.out_degrees;
    run_.in_degrees = shapes.in_degrees;
    view_ = view_of(device_graph_, run_);
  }

  double run() override {
    load_log_.clear();  // keep the last run's only
    frontier_log_.clear();
    auto_log_.clear();
    pool_log_.clear();
    start_timing();
    gpu::CudaEventTimer timer;
    timer.start();
    driver_(view_, run_);
    timer.stop();
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());
    return timer.elapsed_ms();
  }

  // NVML is read once on each side of many runs: its counter moves in
  // steps of tens of milliseconds, and a read costs up to milliseconds.
  void start_energy() override {
    if (!energy_ || !energy_->available()) return;
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());
    energy_->start();
  }
  EnergyReading stop_energy() override {
    if (!energy_) return {};
    if (!energy_->available()) return {std::nullopt, "", energy_->why_unavailable()};
    IRGL_CUDA_CHECK(cudaDeviceSynchronize());
    const double millijoules = energy_->stop();
    return {millijoules, std::string("NVML ") + energy_->source(), "", energy_->sm_clock_mhz(),
            energy_->temperature_c()};
  }
  bool repeats_runs_for_energy() const override { return true; }

  std::vector<TargetOption> options(const ProgramDescription& description) override {
    return cuda_run_options(run_, description, chooses_frontiers());
  }
  bool records_load() const override { return records_load_; }
  void write_load_report(std::ostream& out) const override {
    gpu::schedule::write_load_log(out, load_log_, frontier_log_.json());
  }
  // The frontier forms of the run's pipe rounds, what auto picked and
  // what the task pools ran, a line each.
  std::string run_summary() const override {
    std::string summary = chooses_frontiers() ? frontier_log_.summary(run_.frontier) : "";
    if (!auto_log_.empty()) summary += (summary.empty() ? "" : "\n") + auto_log_.summary();
    if (!pool_log_.empty()) summary += (summary.empty() ? "" : "\n") + pool_log_.summary();
    return summary;
  }

 protected:
  // Called right before the run's timer starts, after the host's own
  // preparations.
  virtual void start_timing() {}
  // For targets built on this one (cuda_parts.cuh): the driver's graph
  // view and the run's options.
  Graph& view() { return view_; }
  CudaRun& run_options() { return run_; }
  const gpu::FrontierLog& frontier_log() const { return frontier_log_; }

 private:
  bool chooses_frontiers() const { return footprint_.uses_pipe; }

  Driver driver_;
  DeviceFootprint footprint_;
  bool records_load_;
  CudaRun run_;
  gpu::schedule::LoadLog load_log_;
  gpu::FrontierLog frontier_log_;
  gpu::schedule::AutoLog auto_log_;
  gpu::tasks::PoolLog pool_log_;
  std::optional<gpu::EnergyMeter> energy_;  // made in prepare(), once the GPU is known
  gpu::DeviceGraph device_graph_;
  Graph view_;
};

}  // namespace irgl::lang
