//===- PartSync.cpp - What a multi-GPU run synchronises after each kernel -===//
//
// irglc --gpus=many (docs/multi-gpu.md): every GPU runs the kernels on its
// part of the graph. A vertex whose edges lie in several parts has a copy in
// each (its master and mirrors); vertex loops over all vertices run at the
// masters only, loops over a worklist at every copy that holds edges.
//
// For each field a kernel writes, this pass decides how the copies meet
// again after the kernel (Kernel::part_syncs):
//  - reduce, when the kernel may write a copy that is not the master (a
//    vertex other than the loop's own, or any vertex of a worklist loop):
//    the copies' changes combine at the master with the writes' reduction
//    (atomic_min and atomic_cas: min; atomic_max: max; atomic_add/sub, +=,
//    ++: add);
//  - broadcast, when some kernel reads the field at a vertex that may be a
//    mirror (the same places): the master's value goes back to the copies;
//  - whether the reduce may be skipped under a partition that keeps each
//    edge with its destination's master (the incoming-edge cut): when every
//    write needing it, and every push, lands at an out-edge's destination,
//    no mirror is ever written (Gluon's structural invariants);
//  - whether the copies agree without a broadcast: a loop over every
//    vertex that only assigns at its own vertex, from what every process
//    has alike (the vertex id, a program parameter, a constant; no vertex
//    data read, no graph, no reduction, no push), computes the same value
//    at every copy, so it runs at every vertex of every GPU and the run
//    records the values of every field it writes that has copies as
//    synced.
// Code whose copies cannot be combined with the single-GPU meaning is an
// error at its position: a plain assignment at a copy, an atomic_add whose
// old value decides something, a reduction in a worklist loop (it would
// count each copy), task pools and Arrays.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <map>
#include <set>

#include "irglc/Passes/Passes.h"

namespace irglc {

namespace {

// Whether an access may touch a copy that is not the vertex's master.
bool at_copy(const Kernel& kernel, const FieldAccess& access) {
  return !access.at_loop_vertex || kernel.loop.domain == VertexDomain::worklist;
}

// Whether a kernel's scalar parameters are the same on every GPU: a
// for_all_nodes body's captures when they are (KernelBuilder); a named
// kernel's arguments are driver expressions, which may not be.
bool scalars_alike(const Kernel& kernel) {
  if (kernel.from_for_all_nodes) return kernel.captures_alike;
  return std::none_of(kernel.params.begin(), kernel.params.end(),
                      [](const KernelParam& param) { return param.kind == ParamKind::scalar; });
}

// A loop over every vertex whose writes are assignments at its own vertex
// from values every GPU has alike (a program parameter, a constant, the
// vertex id).
bool same_at_every_copy(const Kernel& kernel) {
  if (kernel.loop.domain != VertexDomain::all_nodes || kernel.loop.edge_loop ||
      kernel.loop_uses_graph || !kernel.prologue.empty() || !kernel.reductions_used.empty() ||
      !kernel.worklists_pushed.empty() || !scalars_alike(kernel))
    return false;
  return std::all_of(kernel.field_accesses.begin(), kernel.field_accesses.end(),
                     [](const FieldAccess& access) {
                       return access.update == FieldUpdate::assign && access.at_loop_vertex;
                     });
}

// The reduction that combines a write's copies; none for assignments.
FieldUpdate combining(FieldUpdate update) {
  return update == FieldUpdate::claim ? FieldUpdate::min : update;
}

class PartSyncPass : public Pass {
 public:
  const char* name() const override { return "part-sync"; }

  void run(Module& module, const PassOptions& options, DiagnosticPrinter& diagnostics) override {
    if (!options.many_gpus) return;
    std::set<std::string> read_at_copies, written_at_copies;
    for (const Kernel& kernel : module.kernels)
      for (const FieldAccess& access : kernel.field_accesses) {
        if (!at_copy(kernel, access)) continue;
        if (access.update == FieldUpdate::none || access.result_used)
          read_at_copies.insert(access.field);
        if (access.update != FieldUpdate::none) written_at_copies.insert(access.field);
      }
    for (const Field& field : module.fields)
      if (!field.per_vertex)
        diagnostics.error(field.loc, "Array '" + field.name +
                                         "' is not supported with --gpus=many: only vertex data "
                                         "(NodeData) is split over the GPUs");
    for (Kernel& kernel : module.kernels)
      plan(kernel, read_at_copies, written_at_copies, diagnostics);
  }

 private:
  void plan(Kernel& kernel, const std::set<std::string>& read_at_copies,
            const std::set<std::string>& written_at_copies, DiagnosticPrinter& diagnostics) {
    if (kernel.loop.domain == VertexDomain::tasks) {
      diagnostics.error(kernel.loc, "task pools are not supported with --gpus=many (kernel '" +
                                        kernel.name + "')");
      return;
    }
    if (kernel.loop.domain == VertexDomain::worklist && !kernel.reductions_used.empty())
      diagnostics.error(kernel.loc,
                        "kernel '" + kernel.name + "' combines into reduction '" +
                            kernel.reductions_used.front() +
                            "' in a loop over a worklist: with --gpus=many every GPU that holds "
                            "a vertex runs it, so it would count the vertex more than once");
    std::map<std::string, const FieldAccess*> first_write;
    std::map<std::string, PartSync> syncs;
    for (const FieldAccess& access : kernel.field_accesses) {
      if (access.update == FieldUpdate::none) continue;
      if (!check_write(kernel, access, diagnostics)) continue;
      const bool copy = at_copy(kernel, access);
      const FieldUpdate op = copy ? combining(access.update) : FieldUpdate::assign;
      auto [it, first] = syncs.try_emplace(access.field, PartSync{access.field, op});
      if (first) first_write[access.field] = &access;
      PartSync& sync = it->second;
      if (op != sync.op && !(op == FieldUpdate::assign || sync.op == FieldUpdate::assign)) {
        const FieldAccess& other = *first_write[access.field];
        diagnostics.error(access.loc, "'" + access.field + "' is updated with " + access.spelling +
                                          " here and with " + other.spelling + " at " +
                                          other.loc.str() +
                                          ": with --gpus=many one kernel combines the copies of "
                                          "a field in one way");
        continue;
      }
      if (sync.op == FieldUpdate::assign) sync.op = op;
      if (copy) {
        // The first write at a copy sets the flag; any later one may clear it.
        sync.writes_at_out_edge_destinations =
            (!sync.reduce || sync.writes_at_out_edge_destinations) &&
            access.at_out_edge_destination && kernel.pushes_at_out_edge_destinations;
        sync.reduce = true;
      }
    }
    // A kernel that runs at every copy writes every field it writes there,
    // so each one with copies anywhere (read or written at a copy by some
    // kernel) is recorded as synced: a later add at a copy sends its change
    // since then, not the value this kernel wrote.
    const bool agree = same_at_every_copy(kernel);
    for (const std::string& field : kernel.fields_used) {
      auto it = syncs.find(field);
      if (it == syncs.end()) continue;
      PartSync& sync = it->second;
      sync.broadcast = read_at_copies.count(field) > 0;
      if (agree && (sync.broadcast || written_at_copies.count(field) > 0)) {
        sync.broadcast = false;
        sync.copies_agree = kernel.runs_at_every_copy = true;
      }
      if (sync.reduce || sync.broadcast || sync.copies_agree) kernel.part_syncs.push_back(sync);
    }
  }

  // Reports a write whose copies cannot be combined; false for those.
  bool check_write(const Kernel& kernel, const FieldAccess& access,
                   DiagnosticPrinter& diagnostics) {
    const bool copy = at_copy(kernel, access);
    const std::string where =
        access.at_loop_vertex ? "every copy of the loop's vertex (a worklist loop runs on each GPU "
                                "that holds the vertex)"
                              : "a vertex that another GPU may also hold";
    if (access.update == FieldUpdate::other) {
      diagnostics.error(access.loc, "'" + access.field + "' is updated with " + access.spelling +
                                        ", which --gpus=many cannot combine across GPUs; use "
                                        "=, atomic_min, atomic_max or atomic_add");
      return false;
    }
    if (access.update == FieldUpdate::assign && copy) {
      diagnostics.error(access.loc, "'" + access.field + "' is assigned at " + where +
                                        ": with --gpus=many the copies cannot be combined; "
                                        "update it with atomic_min, atomic_max or atomic_add");
      return false;
    }
    if (access.update == FieldUpdate::add && access.result_used && copy) {
      diagnostics.error(access.loc,
                        "the value " + access.spelling + " returns here is one GPU's copy of '" +
                            access.field + "', not the vertex's: with --gpus=many other GPUs "
                            "update their copies in the same round. Add in one kernel and test "
                            "the sum at the vertex in the next (docs/multi-gpu.md)");
      return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> create_part_sync_pass() { return std::make_unique<PartSyncPass>(); }

}  // namespace irglc
