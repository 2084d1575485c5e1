//===- CpuBackend.cpp - IR to a sequential C++ program ---------------------===//
//
// The CPU target prints every loop as a plain sequential loop over the same
// statements the GPU code runs, against the prelude's CPU implementation
// (irgl.h). It is the oracle the GPU schedules are tested against.
//
//===----------------------------------------------------------------------===//

#include "CodeWriter.h"
#include "LibraryMode.h"
#include "irglc/Backend/Backend.h"

namespace irglc {

namespace {

std::string kernel_signature(const Kernel& kernel) {
  std::string signature = "void " + kernel.name + "(";
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const KernelParam& param = kernel.params[i];
    if (i > 0) signature += ", ";
    switch (param.kind) {
      case ParamKind::graph: signature += "const Graph& " + param.var.name; break;
      case ParamKind::worklist: signature += "Worklist& " + param.var.name; break;
      case ParamKind::scalar: signature += param.var.type + " " + param.var.name; break;
      case ParamKind::task_pool:
        signature += "TaskPool<" + param.var.type + ">& " + param.var.name;
        break;
    }
  }
  return signature + ")";
}

void write_kernel(CodeWriter& out, const Kernel& kernel) {
  out.line();
  out.comment(where(kernel.loc) + ": " +
              (kernel.from_for_all_nodes ? "for_all_nodes body" : "kernel " + kernel.name));
  out.open(kernel_signature(kernel) + " {");
  for (const CodeFragment& code : kernel.prologue) out.fragment(code);
  const VertexLoop& loop = kernel.loop;
  out.comment(where(loop.loc) + ": " + loop.header);
  if (loop.domain == VertexDomain::tasks) {
    if (loop.block_task()) write_task_variables(out, loop, false);
    out.comment("Tasks one at a time, the oldest first, until none is left.");
    out.open("while (!" + loop.pool + ".empty()) {");
    // A task loop may not read its task (a task that only marks a step).
    out.line("[[maybe_unused]] const " + loop.task_type + " " + loop.vertex_var + " = " + loop.pool +
             ".pop();");
    if (loop.block_task()) {
      out.line("[[maybe_unused]] TaskVariables irgl_task_variables{};");
      for (const TaskStep& step : loop.task_steps) {
        if (step.kind == TaskStep::Kind::parallel)
          out.comment(where(step.loc) + ": a parallel loop, its iterations in order");
        for (const CodeFragment& code : step.code) out.fragment(code);
      }
    } else {
      write_sequential_vertex_body(out, loop, "continue");
    }
    out.close();
    out.close();
    return;
  }
  out.open(loop.domain == VertexDomain::all_nodes
               ? "for (Node " + loop.vertex_var + " : " + loop.graph + ".nodes()) {"
               : "for (Node " + loop.vertex_var + " : " + loop.worklist + ") {");
  write_sequential_vertex_body(out, loop, "continue");
  out.close();
  out.close();
}

}  // namespace

GeneratedCode generate_cpu(const Module& module, const BackendOptions& options) {
  const bool library = options.emit == EmitKind::library;
  CodeWriter out;
  write_banner(out, module, options,
               library ? "Target cpu, as a library (see the header): the sequential reference."
                       : "Target cpu: a sequential C++ program, the reference for the GPU versions.");
  out.line("#define IRGL_GENERATED_CODE");
  out.line("#include <irgl.h>");
  out.line("#include <irgl/lang/cpu_target.h>");
  if (library) {
    write_library_includes(out, options);
  }
  write_user_includes(out, module);
  out.line();
  out.line("namespace " + program_namespace(module) + " {");
  out.line();
  write_file_scope_declarations(out, module);
  for (const Kernel& kernel : module.kernels) write_kernel(out, kernel);
  write_driver(out, module, false);
  GeneratedCode code;
  if (library) {
    const std::vector<std::string> outputs = collect_outputs(module);
    write_path_length_bounds(out, module);
    write_library_entry(out, module, outputs, library_target(Target::cpu));
    code.header = write_library_header(module, options, outputs, library_target(Target::cpu));
  } else {
    write_program_parameters(out, module);
  }
  out.line();
  out.line("}  // namespace " + program_namespace(module));
  if (!library)
    write_program_main(out, module, "cpu", "irgl::lang::CpuTarget irgl_target(irgl_driver);",
                       "irgl_target", "sequential (CPU)");
  code.source = out.str();
  return code;
}

}  // namespace irglc
