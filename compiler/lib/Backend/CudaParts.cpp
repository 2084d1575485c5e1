//===- CudaParts.cpp - The synchronisation of a multi-GPU program ---------===//

#include "CudaParts.h"

#include <algorithm>
#include <set>

namespace irglc {

namespace {

std::string copies_name(const std::string& field) { return "irgl_copies_" + field; }

const char* sync_op(FieldUpdate op) {
  switch (op) {
    case FieldUpdate::min: return "min";
    case FieldUpdate::max: return "max";
    case FieldUpdate::add: return "add";
    default: return "assign";
  }
}

// The fields some launch synchronises, in declaration order.
std::vector<const Field*> synced_fields(const Module& module) {
  std::set<std::string> synced;
  for (const Kernel& kernel : module.kernels)
    for (const PartSync& sync : kernel.part_syncs) synced.insert(sync.field);
  std::vector<const Field*> fields;
  for (const Field& field : module.fields)
    if (synced.count(field.name)) fields.push_back(&field);
  return fields;
}

}  // namespace

void write_part_copies(CodeWriter& out, const Module& module) {
  const std::vector<const Field*> fields = synced_fields(module);
  if (fields.empty()) return;
  out.line();
  out.comment("What each GPU last sent or received of the fields the GPUs share (--gpus=many).");
  for (const Field* field : fields)
    out.line("irgl::dist::FieldCopies<" + field->element_type + "> " + copies_name(field->name) +
             ";  // " + where(field->loc));
}

DriverHooks part_sync_hooks(const Module& module) {
  DriverHooks hooks;
  hooks.prologue = [&module](CodeWriter& out) {
    const std::string run = out.run().name;
    for (const Field* field : synced_fields(module))
      out.line("reset_copies(" + copies_name(field->name) + ", " + run + ");");
    for (const Reduction& reduction : module.reductions)
      out.line("combine_parts(" + reduction.name + ", " + run + ");  // value(): over the GPUs");
  };
  hooks.after_launch = [&module](CodeWriter& out, const HostStmt& launch) {
    const Kernel* kernel = module.find_kernel(launch.kernel);
    if (!kernel || kernel->part_syncs.empty()) return;
    const std::string run = out.run().name;
    if (kernel->runs_at_every_copy) {
      out.comment(kernel->name + " ran at every copy and wrote the same values there: the " +
                  "GPUs send nothing, and record the values as synced.");
      for (const PartSync& sync : kernel->part_syncs)
        out.line("mark_copies_synced(" + sync.field + ", " + copies_name(sync.field) + ", " + run +
                 ");");
      return;
    }
    out.comment("The GPUs' copies of what " + kernel->name + " wrote meet again.");
    if (std::any_of(kernel->part_syncs.begin(), kernel->part_syncs.end(),
                    [](const PartSync& sync) { return sync.writes_at_out_edge_destinations; }))
      out.comment(kernel->name + " writes and pushes only at its out-edges' destinations: under "
                  "iec those are masters, and the reduce is skipped.");
    for (const PartSync& sync : kernel->part_syncs)
      out.line(std::string("sync_parts(") + sync.field + ", " + copies_name(sync.field) +
               ", irgl::dist::SyncOp::" + sync_op(sync.op) + ", /*reduce=*/" +
               (sync.reduce ? "true" : "false") + ", /*broadcast=*/" +
               (sync.broadcast ? "true" : "false") + ", " + run +
               (sync.writes_at_out_edge_destinations
                    ? ", irgl::dist::WriteSites::out_edge_destinations"
                    : "") +
               ");");
  };
  hooks.output_call = [](const CodeWriter& out, const std::string& field) {
    return "output_parts(" + field + ", " + out.run().name + ")";
  };
  return hooks;
}

std::string parts_target_setup(const Module& module, const std::string& footprint) {
  // A loop over every vertex's out-edges runs at masters only: it needs
  // each vertex's out-edges there (the outgoing-edge cut).
  bool masters_need_out_edges = false;
  for (const Kernel& kernel : module.kernels)
    if (kernel.loop.domain == VertexDomain::all_nodes && kernel.loop.edge_loop &&
        kernel.loop.edge_loop->direction == EdgeDirection::out)
      masters_need_out_edges = true;
  return "irgl::lang::PartsTarget irgl_target(irgl_driver, " + footprint + ", /*in_edges=*/" +
         (module.graph_needs.in_edges ? "true" : "false") + ", /*masters_need_out_edges=*/" +
         (masters_need_out_edges ? "true" : "false") + ");";
}

}  // namespace irglc
