// The target of irglc's multi-GPU programs (irgl/lang/cuda_parts.cuh).
#include "irgl/lang/cuda_parts.cuh"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "irgl/gpu/device_info.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
#include "irgl/graph/load.h"
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

// Each superstep's computation on the slowest part (the run's critical
// path: the others wait for it in the exchange that ends the superstep).
// Collective; every part has the same supersteps.
std::vector<double> slowest_computation(dist::Comm& comm,
                                        const std::vector<dist::Exchange::Superstep>& steps) {
  if (steps.empty()) return {};
  std::vector<uint64_t> nanoseconds;
  for (const dist::Exchange::Superstep& step : steps)
    nanoseconds.push_back(static_cast<uint64_t>(step.computation_ms * 1e6));
  gpu::DeviceBuffer<uint64_t> slowest(nanoseconds);
  comm.all_reduce(slowest.data(), slowest.data(), nanoseconds.size(), dist::Combine::max);
  std::vector<double> ms;
  for (const uint64_t ns : slowest.download()) ms.push_back(ns * 1e-6);
  return ms;
}

// The computation of a run averaged over the parts: against the slowest
// part's, how much of it is imbalance. Collective.
double mean_computation(dist::Comm& comm, const std::vector<dist::Exchange::Superstep>& steps) {
  double ms = 0;
  for (const dist::Exchange::Superstep& step : steps) ms += step.computation_ms;
  const uint64_t total_ns = comm.all_reduce(static_cast<uint64_t>(ms * 1e6), dist::Combine::sum);
  return total_ns * 1e-6 / comm.size();
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

void PartsTarget::join() {
  if (launch_) return;
  launch_ = dist::launch_from_environment();
  std::string why;
  if (!gpu::gpu_available(&why)) throw InputError::in("cuda", "no usable GPU: " + why);
  comm_ = std::make_unique<dist::Comm>(*launch_);
}

std::string PartsTarget::device_name() {
  join();
  return std::to_string(comm_->size()) + " x " + gpu::query_device().name;
}

void PartsTarget::check_policy() const {
  if (masters_need_out_edges_ && policy_ != PartitionPolicy::outgoing_edge_cut &&
      comm_->size() > 1)
    throw InputError::in("--partition",
                         std::string(to_string(policy_)) +
                             " splits a vertex's out-edges over GPUs, but a loop over every "
                             "vertex of this program reads them all at the vertex's master: "
                             "use --partition oec");
}

PartViewOptions PartsTarget::part_options() const {
  return {policy_, comm_->size(), comm_->rank(), in_edges_,
          /*global_degrees=*/comm_->size() > 1};
}

void PartsTarget::prepare(const CsrGraph& graph) {
  join();
  check_policy();
  prepare_part(build_part_view(graph, part_options()));
}

std::optional<GraphTotals> PartsTarget::load_share(const std::string& source,
                                                   const LoadOptions& options) {
  // The whole load refuses what a share would ignore (--header on a spec)
  // and keeps the original ids of --renumber.
  if (options.build.renumber || options.edge_list_header) return std::nullopt;
  join();
  LoadOptions first_reports = options;
  first_reports.show_progress = options.show_progress && comm_->rank() == 0;
  // The processes decide from the same files, and agree before the share's
  // collectives (a cache entry written meanwhile could split them); one
  // that fails still votes, so that the others stop rather than wait.
  std::unique_ptr<MappedCsrFile> file;
  std::exception_ptr failure;
  try {
    file = map_loaded_graph(source, first_reports);
  } catch (...) {
    failure = std::current_exception();
  }
  enum : uint64_t { kMapped, kNotMapped, kFailed };
  const uint64_t vote = failure ? kFailed : file ? kMapped : kNotMapped;
  const uint64_t outcome = comm_->all_reduce(vote, dist::Combine::max);
  if (failure) std::rethrow_exception(failure);
  if (outcome == kFailed)
    throw InputError::in(source, "another GPU's process could not load the graph (see its "
                                 "error above)");
  const bool mapped = outcome == kMapped;
  // One process holds the whole graph anyway: the whole load reads and
  // writes the cache.
  if (!mapped && (!is_generator_spec(source) || comm_->size() == 1)) return std::nullopt;
  check_policy();
  const PartCollectives collectives{
      [this](std::vector<uint64_t>& values) {
        gpu::DeviceBuffer<uint64_t> sums(values);
        comm_->all_reduce(sums.data(), sums.data(), values.size(), dist::Combine::sum);
        values = sums.download();
      },
      [this](uint64_t value) { return comm_->all_reduce(value, dist::Combine::max); }};
  if (mapped) {
    std::cout << "load: each GPU's process maps " << file->arrays().name
              << " and copies its part's edges\n";
    GraphArrays whole = file->arrays();
    whole.name = source;
    share_ = std::make_unique<PartShare>(part_share_of(whole, part_options(), collectives));
  } else {
    std::cout << "load: each GPU's process generates the graph and keeps its part's edges\n";
    share_ = std::make_unique<PartShare>(
        build_part_share(*edge_generator_from_spec(source), source, options.build, part_options(),
                         collectives, first_reports.show_progress));
  }
  return GraphTotals{share_->view.graph.num_vertices(), share_->edges,
                     share_->view.graph.weight_type, share_->largest_weight,
                     share_->negative_weight, share_->view.out_degrees};
}

void PartsTarget::prepare_share() {
  if (!share_) throw std::logic_error("PartsTarget::prepare_share without load_share");
  prepare_part(std::move(share_->view));
  share_.reset();
}

void PartsTarget::prepare_part(PartView&& part) {
  // g.out_degree() counts the whole graph's edges. The part lives on the
  // GPU from here on; its host copy goes at the end of this scope.
  const PartView view_of_part = std::move(part);
  part_edges_ = view_of_part.graph.num_edges();
  CudaTarget::prepare(view_of_part.graph);
  if (!view_of_part.out_degrees.empty())
    out_degrees_ = gpu::DeviceBuffer<uint32_t>(view_of_part.out_degrees);
  view().set_part(view_of_part.first_master, view_of_part.end_master, out_degrees_.data());
  exchange_ = std::make_unique<dist::Exchange>(*comm_, view_of_part);
  exchange_->set_out_offsets(view().out().offsets);
  run_options().parts = exchange_.get();
}

void PartsTarget::start_timing() {
  // Every part starts the run together, once its host is ready: a part
  // still busy on its host would count as another's computation.
  comm_->barrier();
  exchange_->start_run();
}

double PartsTarget::run() {
  const double ms = CudaTarget::run();  // synchronises the GPU
  last_run_ms_ = ms;
  last_exchange_ms_ = exchange_->exchange_ms();
  last_supersteps_ = exchange_->supersteps();
  slowest_computation_ = slowest_computation(*comm_, last_supersteps_);
  mean_computation_ms_ = mean_computation(*comm_, last_supersteps_);
  // Against one GPU's items (--outline=off): what the parts repeat (a
  // vertex active at several copies) and what they redo (a label seen a
  // round late).
  const uint64_t items = frontier_log().items();
  items_sum_ = comm_->all_reduce(items, dist::Combine::sum);
  items_max_ = comm_->all_reduce(items, dist::Combine::max);
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
       << exchange_->bytes_sent() << " bytes sent in all runs (" << exchange_->payloads_sent()
       << " payloads, " << exchange_->dense_payloads_sent() << " dense); exchanges "
       << exchange_->exchanges() << ", " << last_exchange_ms_ << " ms of the run's "
       << last_run_ms_ << " ms";
  // Paper 001's split per round: the totals, and each superstep's
  // computation/exchange ms (the first kListed).
  constexpr size_t kListed = 500;
  double computation = 0, exchange = 0;
  for (const dist::Exchange::Superstep& step : last_supersteps_) {
    computation += step.computation_ms;
    exchange += step.exchange_ms;
  }
  line << "\nsupersteps: " << last_supersteps_.size() << " (computation " << computation
       << " ms, exchange " << exchange << " ms); each computation/exchange ms:";
  line << std::setprecision(3);
  for (size_t i = 0; i < std::min(kListed, last_supersteps_.size()); ++i)
    line << ' ' << last_supersteps_[i].computation_ms << '/' << last_supersteps_[i].exchange_ms;
  if (last_supersteps_.size() > kListed) line << " ...";
  // Where the parts' computations differ, the exchange above includes
  // waiting for the slowest.
  double slowest = 0;
  for (const double ms : slowest_computation_) slowest += ms;
  line << std::setprecision(6) << "\nslowest part: computation " << slowest
       << " ms (the parts' mean " << mean_computation_ms_ << " ms); each superstep's:"
       << std::setprecision(3);
  for (size_t i = 0; i < std::min(kListed, slowest_computation_.size()); ++i)
    line << ' ' << slowest_computation_[i];
  if (slowest_computation_.size() > kListed) line << " ...";
  line << "\nparts' items: " << items_sum_ << " in the host rounds of all parts (the largest part's "
       << items_max_ << ")";
  return summary + (summary.empty() ? "" : "\n") + line.str();
}

}  // namespace irgl::lang
