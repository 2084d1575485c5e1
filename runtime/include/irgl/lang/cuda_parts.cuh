// The target of irglc's multi-GPU programs (irglc --gpus=many): one
// process per GPU, each running the driver on its part of the graph
// (irgl/graph/part_view.h), the parts kept consistent by the
// synchronisation irglc emits after each kernel (irgl/dist/exchange.cuh).
// See docs/multi-gpu.md.
//
//   $ tools/irgl-launch -n 4 ./bfs graph.gr --partition cvc --output levels.txt
//
// Every process computes every output; the first (rank 0) prints and
// writes the results.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>

#include "irgl/dist/comm.h"
#include "irgl/dist/exchange.cuh"
#include "irgl/graph/part_share.h"
#include "irgl/graph/part_view.h"
#include "irgl/lang/cuda_target.cuh"

namespace irgl::lang {

class PartsTarget : public CudaTarget {
 public:
  // `in_edges`: the kernels read in-edges (kept whole at masters);
  // `masters_need_out_edges`: a loop over every vertex reads its out-edges,
  // which only the outgoing-edge cut keeps whole at the masters.
  PartsTarget(Driver driver, DeviceFootprint footprint, bool in_edges,
              bool masters_need_out_edges);

  std::string device_name() override;
  void prepare(const CsrGraph& graph) override;
  // A binary CSR holding the graph (a load-cache entry, a .csr input) that
  // each process maps and copies its part from, else a generator spec that
  // each process runs and keeps its part of (irgl/graph/part_share.h).
  std::optional<GraphTotals> load_share(const std::string& source,
                                        const LoadOptions& options) override;
  void prepare_share() override;
  double run() override;
  std::vector<TargetOption> options(const ProgramDescription& description) override;
  bool reports() const override { return !launch_ || launch_->rank == 0; }
  bool repeats_runs_for_energy() const override { return false; }
  std::string run_summary() const override;

 private:
  void start_timing() override;
  void join();  // the launch and NCCL, once
  void check_policy() const;
  PartViewOptions part_options() const;
  void prepare_part(PartView&& part);

  bool in_edges_, masters_need_out_edges_;
  PartitionPolicy policy_ = PartitionPolicy::outgoing_edge_cut;
  std::optional<dist::Launch> launch_;
  std::unique_ptr<dist::Comm> comm_;
  std::unique_ptr<dist::Exchange> exchange_;
  std::unique_ptr<PartShare> share_;  // between load_share and prepare_share
  gpu::DeviceBuffer<uint32_t> out_degrees_;
  uint64_t part_edges_ = 0;
  double last_run_ms_ = 0, last_exchange_ms_ = 0;  // this part's, for run_summary
  std::vector<dist::Exchange::Superstep> last_supersteps_;
  std::vector<double> slowest_computation_;  // each superstep's, over the parts
  double mean_computation_ms_ = 0;           // the run's, averaged over the parts
  uint64_t items_sum_ = 0, items_max_ = 0;   // the host rounds' inputs, over the parts
};

// The exchange of a multi-GPU run (CudaRun::parts).
dist::Exchange& exchange_of(const CudaRun& run);

// After a kernel that wrote `field`: its mirrors' changes combined into the
// masters with `op` (reduce), then the masters' changes sent to the
// mirrors (broadcast), with the round's pushes where the field goes both
// ways (dist::Exchange::sync). Collective.
template <class T>
void sync_parts(NodeData<T>& field, dist::FieldCopies<T>& copies, dist::SyncOp op, bool reduce,
                bool broadcast, const CudaRun& run,
                dist::WriteSites sites = dist::WriteSites::anywhere) {
  exchange_of(run).sync(field.view().data, copies, op, reduce, broadcast, sites);
}

// After a kernel that ran at every copy and wrote the same values there:
// nothing to send; the values become the last synced (Exchange::mark_synced).
template <class T>
void mark_copies_synced(NodeData<T>& field, dist::FieldCopies<T>& copies, const CudaRun& run) {
  exchange_of(run).mark_synced(field.view().data, copies);
}

// A field's copies start each run as the field does: zero.
template <class T>
void reset_copies(dist::FieldCopies<T>& copies, const CudaRun& run) {
  copies.reset(exchange_of(run));
}

// A reduction's value() combines the parts' values.
template <class T, class Op>
void combine_parts(Reduction<T, Op>& reduction, const CudaRun& run) {
  dist::Exchange& parts = exchange_of(run);
  if (parts.parts() == 1) return reduction.combine_across_parts({});
  const dist::Combine combine = std::is_same_v<Op, MinOp>   ? dist::Combine::min
                                : std::is_same_v<Op, MaxOp> ? dist::Combine::max
                                                            : dist::Combine::sum;
  reduction.combine_across_parts(
      [&parts, combine](T value) { return parts.all_reduce(value, combine); });
}

// output(field) of a multi-GPU run: every part's masters, gathered once
// (collectively) when the outputs are first written.
template <class T>
void output_parts(NodeData<T>& data, const CudaRun& run) {
  dist::Exchange* parts = &exchange_of(run);
  auto gathered = std::make_shared<std::optional<std::vector<T>>>();
  record_output(data.name(), [&data, parts, gathered](OutputWriter& writer) {
    if (!*gathered) *gathered = parts->gather(data.view().data);
    writer.vertex_values(data.name(), **gathered);
  });
}

}  // namespace irgl::lang
