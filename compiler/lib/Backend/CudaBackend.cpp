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
#include "irglc/Backend/Backend.h"

namespace irglc {

namespace {

void collect_outputs(const HostBlock& block, std::vector<std::string>& names) {
  for (const HostStmt& stmt : block) {
    if (stmt.kind == HostStmt::Kind::output) {
      bool seen = false;
      for (const auto& name : names) seen |= name == stmt.name;
      if (!seen) names.push_back(stmt.name);
    }
    collect_outputs(stmt.body, names);
    collect_outputs(stmt.else_body, names);
  }
}

std::string schedules_summary(const Module& module) {
  std::string summary;
  for (const Kernel& kernel : module.kernels) {
    if (kernel.from_for_all_nodes) continue;
    summary += (summary.empty() ? "" : ", ") + kernel.name + ": " + kernel_schedule_name(kernel);
  }
  return summary.empty() ? "thread" : summary;
}

// The entry point of --emit=library: "Result run(const DeviceGraph&, ...)".
std::string library_signature(const Module& module, bool with_defaults) {
  std::vector<std::string> params = option_parameters(module.driver, with_defaults);
  if (!module.driver.graph_param.empty())
    params.insert(params.begin(), "const irgl::gpu::DeviceGraph& irgl_graph");
  return "Result run(" + comma_separated(params) + ")";
}

void write_result_struct(CodeWriter& out, const Module& module, const std::vector<std::string>& outputs) {
  out.comment("The program's outputs, copied to the host.");
  out.open("struct Result {");
  for (const std::string& name : outputs) {
    if (const Field* field = module.find_field(name))
      out.line("std::vector<" + field->element_type + "> " + name + ";");
    else if (const Reduction* reduction = module.find_reduction(name))
      out.line(reduction->value_type + " " + name + " = 0;");
  }
  out.close("};");
}

GeneratedCode write_library_header(const Module& module, const BackendOptions& options,
                                   const std::vector<std::string>& outputs) {
  CodeWriter out;
  write_banner(out, module, options, "The program as a library function on the GPU (--emit=library).");
  out.line("#pragma once");
  out.line();
  out.line("#include <cstdint>");
  out.line("#include <vector>");
  out.line();
  out.line("#include \"irgl/gpu/device_graph.h\"");
  out.line("#include \"irgl/lang/common.h\"");
  out.line();
  out.line("namespace " + program_namespace(module) + " {");
  out.line();
  out.line("using irgl::lang::Node;");
  out.line();
  write_result_struct(out, module, outputs);
  out.line();
  std::string needs;
  if (module.graph_needs.in_edges) needs += " It needs the graph's in-edges (upload the transpose).";
  if (module.graph_needs.weights == GraphNeeds::Weights::int32) needs += " It reads int32 edge weights.";
  if (module.graph_needs.weights == GraphNeeds::Weights::float32) needs += " It reads float edge weights.";
  out.comment("Runs " + module.program_name + " (" + display_file_name(module.source_file) +
              ") on a graph already on the GPU." + needs);
  out.comment("Throws std::invalid_argument when the graph lacks what the program reads.");
  out.line(library_signature(module, true) + ";");
  out.line();
  out.line("}  // namespace " + program_namespace(module));
  return {"", out.str()};
}

void write_library_entry(CodeWriter& out, const Module& module, const std::vector<std::string>& outputs) {
  out.line();
  out.open(library_signature(module, false) + " {");
  if (module.graph_needs.in_edges)
    out.line("if (!irgl_graph.has_in_edges()) throw std::invalid_argument(\"" + module.program_name +
             " needs the graph's in-edges\");");
  if (module.graph_needs.weights == GraphNeeds::Weights::int32)
    out.line("if (irgl_graph.weight_type() != irgl::WeightType::int32) throw std::invalid_argument(\"" +
             module.program_name + " needs int32 edge weights\");");
  if (module.graph_needs.weights == GraphNeeds::Weights::float32)
    out.line("if (irgl_graph.weight_type() != irgl::WeightType::float32) throw std::invalid_argument(\"" +
             module.program_name + " needs float edge weights\");");
  // The run's degree shapes, which --schedule=auto chooses by, and the
  // view's largest degrees.
  const bool has_graph = !module.driver.graph_param.empty();
  out.line(has_graph ? "const irgl::lang::CudaRun irgl_run = irgl::lang::run_for(irgl_graph);"
                     : "const irgl::lang::CudaRun irgl_run{};");
  std::vector<std::string> args{has_graph ? "view_of(irgl_graph, irgl_run)" : ""};
  for (const ProgramParam& param : module.driver.params) args.push_back(param.var.name);
  args.push_back("irgl_run");
  out.line(module.driver.name + "(" + comma_separated(args) + ");");
  out.line("Result irgl_result;");
  for (const std::string& name : outputs)
    out.line("irgl_result." + name + " = " + name + (module.find_field(name) ? ".download();" : ".value();"));
  out.line("return irgl_result;");
  out.close();
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
  std::vector<std::string> outputs;
  collect_outputs(module.driver.body, outputs);

  CodeWriter out;
  out.set_run({"const irgl::lang::CudaRun&", "irgl_run"});
  write_banner(out, module, options,
               library ? "Target cuda, as a library (see the header)." : "Target cuda: a GPU program.");
  out.line(has_outlined_loops(module) ? "#include <irgl/gpu/schedule/outline.cuh>"
                        : "#include <irgl/gpu/schedule/schedules.cuh>");
  out.line("#include <irgl/lang/cuda.cuh>");
  if (library) out.line("#include \"" + options.header_name + "\"");
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
  for (const Kernel& kernel : module.kernels) write_scheduled_kernel(out, module, kernel, options);
  write_outlined_rounds(out, module, options);
  write_driver(out, module, false, [&](CodeWriter& writer, const HostStmt& loop) {
    write_outlined_loop(writer, module, loop, options);
  });
  if (library) {
    write_library_entry(out, module, outputs);
  } else {
    write_program_parameters(out, module);
    write_bytes_per_vertex(out, module);
  }
  out.line();
  out.line("}  // namespace " + program_namespace(module));

  GeneratedCode code;
  if (library) {
    code = write_library_header(module, options, outputs);
  } else {
    const std::string ns = program_namespace(module);
    write_program_main(out, module, "cuda",
                       "irgl::lang::CudaTarget irgl_target(irgl_driver, {" + ns +
                           "::irgl_bytes_per_vertex, " +
                           (module.driver.uses_pipe ? "true" : "false") + "}" +
                           (options.instrument_load ? ", /*records_load=*/true" : "") + ");",
                       "irgl_target", schedules_summary(module));
  }
  code.source = out.str();
  return code;
}

}  // namespace irglc
