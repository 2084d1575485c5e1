//===- CudaBackend.cpp - IR to CUDA ----------------------------------------===//
//
// Each kernel becomes a Body struct that the runtime's schedules run
// (CudaKernels.cpp) and a host launcher with the kernel's .irgl name, so the
// driver's text is the same as on the CPU. Vertex data and reductions reach
// kernels as views; reductions are combined per block and flushed with one
// atomic per block at the end of every kernel that uses them.
//
//===----------------------------------------------------------------------===//

#include <set>

#include "CodeWriter.h"
#include "CudaKernels.h"
#include "CudaOutline.h"
#include "CudaParts.h"
#include "LibraryMode.h"
#include "irglc/Backend/Backend.h"

namespace irglc {

namespace {

std::string schedules_summary(const Module& module) {
  std::string summary;
  for (const Kernel& kernel : module.kernels) {
    if (kernel.from_for_all_nodes) continue;
    summary += (summary.empty() ? "" : ", ") + kernel.name + ": " + kernel_schedule_name(kernel);
  }
  return summary.empty() ? "thread" : summary;
}

// The vertex data's size per vertex, for main's check that a graph leaves
// room for it. In the program's namespace, where the element types (the
// program's own structs included) have their names.
void write_bytes_per_vertex(CodeWriter& out, const Module& module) {
  std::string bytes;
  for (const Field& field : module.fields)
    if (field.per_vertex) bytes += (bytes.empty() ? "" : " + ") + ("sizeof(" + field.element_type + ")");
  out.line();
  out.comment("Bytes per vertex of all vertex data (main checks that the graph leaves room).");
  out.line("constexpr uint64_t irgl_bytes_per_vertex = " + (bytes.empty() ? "0" : bytes) + ";");
}

}  // namespace

GeneratedCode generate_cuda(const Module& module, const BackendOptions& options) {
  const bool library = options.emit == EmitKind::library;
  const std::vector<std::string> outputs = collect_outputs(module);

  CodeWriter out;
  out.set_run({"const irgl::lang::CudaRun&", "irgl_run"});
  write_banner(out, module, options,
               library ? "Target cuda, as a library (see the header)." : "Target cuda: a GPU program.");
  out.line(has_outlined_loops(module) ? "#include <irgl/gpu/schedule/outline.cuh>"
                        : "#include <irgl/gpu/schedule/schedules.cuh>");
  out.line("#include <irgl/lang/cuda.cuh>");
  if (library) {
    write_library_includes(out, options);
  }
  else if (options.many_gpus) out.line("#include <irgl/lang/cuda_parts.cuh>");
  else out.line("#include <irgl/lang/cuda_target.cuh>");
  for (const std::string& header : options.schedule_headers)
    out.line("#include \"" + escape_string_literal(header) + "\"  // your schedules (--schedule-header)");
  write_user_includes(out, module);
  out.line();
  out.line("namespace " + program_namespace(module) + " {");
  out.line();
  out.line("using namespace irgl::lang;");
  out.line("namespace schedule = irgl::gpu::schedule;");
  out.line();
  write_file_scope_declarations(out, module);
  if (options.many_gpus) {
    write_part_copies(out, module);
    out.set_driver_hooks(part_sync_hooks(module));
  }
  for (const Kernel& kernel : module.kernels) write_scheduled_kernel(out, module, kernel, options);
  write_outlined_rounds(out, module, options);
  write_driver(out, module, false, [&](CodeWriter& writer, const HostStmt& loop) {
    write_outlined_loop(writer, module, loop, options);
  });
  if (library) {
    write_library_entry(out, module, outputs, library_target(Target::cuda));
  } else {
    write_program_parameters(out, module);
    write_bytes_per_vertex(out, module);
  }
  out.line();
  out.line("}  // namespace " + program_namespace(module));

  GeneratedCode code;
  if (library) {
    code.header = write_library_header(module, options, outputs, library_target(Target::cuda));
  } else {
    const std::string footprint = "{" + program_namespace(module) + "::irgl_bytes_per_vertex, " +
                                  (module.driver.uses_pipe ? "true" : "false") + "}";
    write_program_main(out, module, "cuda",
                       options.many_gpus
                           ? parts_target_setup(module, footprint)
                           : "irgl::lang::CudaTarget irgl_target(irgl_driver, " + footprint +
                                 (options.instrument_load ? ", /*records_load=*/true" : "") + ");",
                       "irgl_target", schedules_summary(module));
  }
  code.source = out.str();
  return code;
}

}  // namespace irglc
