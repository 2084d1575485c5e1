// The target of irglc's multi-GPU programs (irgl/lang/cuda_parts.cuh).
#include "irgl/lang/cuda_parts.cuh"

#include <cstdlib>
#include <sstream>

#include "irgl/gpu/device_info.h"
#include "irgl/support/error.h"

namespace irgl::lang {

namespace {

// Only the first process prints: the others' standard output goes nowhere
// (their errors still reach standard error).
void quiet_unless_first(const dist::Launch& launch) {
  if (launch.rank != 0 && !std::freopen("/dev/null", "w", stdout))
    throw std::runtime_error("cannot silence the standard output of rank " +
                             std::to_string(launch.rank));
}

}  // namespace

dist::Exchange& exchange_of(const CudaRun& run) {
  if (!run.parts) throw std::logic_error("a multi-GPU driver ran without its parts");
  return *static_cast<dist::Exchange*>(run.parts);
}

PartsTarget::PartsTarget(Driver driver, DeviceFootprint footprint, bool in_edges,
                         bool masters_need_out_edges)
    : CudaTarget(std::move(driver), footprint), in_edges_(in_edges),
      masters_need_out_edges_(masters_need_out_edges) {
  // Every process parses the same command line: only the first prints what
  // it applied. A launch the environment cannot describe is reported when
  // the device is named.
  try {
    quiet_unless_first(dist::launch_from_environment());
  } catch (const InputError&) {
  }
}

std::string PartsTarget::device_name() {
  if (!launch_) {
    launch_ = dist::launch_from_environment();
    std::string why;
    if (!gpu::gpu_available(&why)) throw InputError::in("cuda", "no usable GPU: " + why);
    comm_ = std::make_unique<dist::Comm>(*launch_);
  }
  return std::to_string(comm_->size()) + " x " + gpu::query_device().name;
}

void PartsTarget::prepare(const CsrGraph& graph) {
  if (masters_need_out_edges_ && policy_ != PartitionPolicy::outgoing_edge_cut &&
      comm_->size() > 1)
    throw InputError::in("--partition",
                         std::string(to_string(policy_)) +
                             " splits a vertex's out-edges over GPUs, but a loop over every "
                             "vertex of this program reads them all at the vertex's master: "
                             "use --partition oec");
  // g.out_degree() counts the whole graph's edges. The part lives on the
  // GPU from here on; its host copy goes at the end of this scope.
  const PartView part = build_part_view(graph, {policy_, comm_->size(), comm_->rank(), in_edges_,
                                                /*global_degrees=*/comm_->size() > 1});
  part_edges_ = part.graph.num_edges();
  CudaTarget::prepare(part.graph);
  if (!part.out_degrees.empty()) out_degrees_ = gpu::DeviceBuffer<uint32_t>(part.out_degrees);
  view().set_part(part.first_master, part.end_master, out_degrees_.data());
  exchange_ = std::make_unique<dist::Exchange>(*comm_, part);
  exchange_->set_out_offsets(view().out().offsets);
  run_options().parts = exchange_.get();
}

double PartsTarget::run() {
  comm_->barrier();  // every part starts the run together
  exchange_->start_run();
  const double ms = CudaTarget::run();  // synchronises the GPU
  last_run_ms_ = ms;
  last_exchange_ms_ = exchange_->exchange_ms();
  comm_->barrier();
  return ms;
}

std::vector<TargetOption> PartsTarget::options(const ProgramDescription& description) {
  std::vector<TargetOption> options;
  // A part runs each round as a launch of its own (the exchange comes
  // between rounds): no outlining.
  for (TargetOption& option : CudaTarget::options(description))
    if (option.name != "outline") options.push_back(std::move(option));
  options.push_back({"partition",
                     "how the graph's edges are split over the GPUs: " + partition_policy_names() +
                         " (default oec; docs/multi-gpu.md)",
                     [this](const std::string& value) {
                       policy_ = parse_partition_policy(value, "--partition");
                       return std::string("partition: ") + to_string(policy_);
                     }});
  return options;
}

std::string PartsTarget::run_summary() const {
  std::string summary = CudaTarget::run_summary();
  if (!exchange_) return summary;
  std::ostringstream line;
  line << "parts: " << exchange_->parts() << " (" << to_string(policy_) << "), this part "
       << part_edges_ << " edges, " << exchange_->mirror_entries() << " mirrors, "
       << exchange_->bytes_sent() << " bytes sent in all runs; exchanges "
       << exchange_->exchanges() << ", " << last_exchange_ms_ << " ms of the run's "
       << last_run_ms_ << " ms";
  return summary + (summary.empty() ? "" : "\n") + line.str();
}

}  // namespace irgl::lang
