//===- LibraryMode.cpp - a program as a library function ------------------===//

#include "LibraryMode.h"

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

// An entry point: run() returns the outputs in host memory; on the GPU,
// run_on_device() leaves the vertex outputs in device buffers.
struct Entry {
  std::string name;         // "run"
  std::string result;       // "Result"
  std::string vector_type;  // a vertex output's member type around its element type
  std::string read_field;   // appended to a field's name to read it out
};

Entry host_entry(const LibraryTarget& target) {
  return {"run", "Result", "std::vector", target.read_field};
}

const Entry device_entry{"run_on_device", "DeviceResult", "irgl::gpu::DeviceBuffer", ".take()"};

// "Result run(const Graph& irgl_graph, parameters...)".
std::string library_signature(const Module& module, const LibraryTarget& target, const Entry& entry,
                              bool with_defaults) {
  std::vector<std::string> params = option_parameters(module.driver, with_defaults);
  if (!module.driver.graph_param.empty())
    params.insert(params.begin(), "const " + target.graph_type + "& irgl_graph");
  return entry.result + " " + entry.name + "(" + comma_separated(params) + ")";
}

void write_result_struct(CodeWriter& out, const Module& module, const std::vector<std::string>& outputs,
                         const Entry& entry) {
  out.open("struct " + entry.result + " {");
  for (const std::string& name : outputs) {
    if (const Field* field = module.find_field(name))
      out.line(entry.vector_type + "<" + field->element_type + "> " + name + ";");
    else if (const Reduction* reduction = module.find_reduction(name))
      out.line(reduction->value_type + " " + name + " = 0;");
  }
  out.close("};");
}

// The graph checks the entry point makes: "throw ... when CONDITION", and
// what the header says of them.
struct GraphCheck {
  bool needed;
  std::string condition;
  std::string what;
  std::string note;
};

std::vector<GraphCheck> graph_checks(const Module& module, const LibraryTarget& target) {
  using Weights = GraphNeeds::Weights;
  return {
      {module.graph_needs.in_edges, "!irgl_graph." + target.has_in_edges, "the graph's in-edges",
       "It needs the graph's in-edges (" + target.in_edges_hint + ")."},
      {module.graph_needs.weights == Weights::int32,
       "irgl_graph." + target.weight_type + " != irgl::WeightType::int32", "int32 edge weights",
       "It reads int32 edge weights."},
      {module.graph_needs.weights == Weights::float32,
       "irgl_graph." + target.weight_type + " != irgl::WeightType::float32", "float edge weights",
       "It reads float edge weights."},
  };
}

// "symmetric, path_lengths_fit(dist)"
std::string requirement_list(const Module& module) {
  return comma_separated(requirement_names(module));
}

// "void check_graph(const irgl::CsrGraph& irgl_graph)": what run() checks
// of its graph, callable alone (on the host graph a GPU build will read).
std::string check_signature(const LibraryTarget& target) {
  return "void check_graph(const " + target.graph_type + "& irgl_graph)";
}

// Whether the entry point has a check_graph(): it takes a graph the host
// can read.
bool has_check_graph(const Module& module, const LibraryTarget& target) {
  return target.checks_requirements && !module.driver.graph_param.empty();
}

// What the graph must hold for the program to read it (in-edges, weights of
// its type), then, where the target can read the edges, that it is well
// formed and meets the program's require(): no load stands between the
// caller's graph and the driver.
void write_graph_checks(CodeWriter& out, const Module& module, const LibraryTarget& target) {
  for (const GraphCheck& check : graph_checks(module, target))
    if (check.needed)
      out.line("if (" + check.condition + ") throw std::invalid_argument(\"" + module.program_name +
               " needs " + check.what + "\");");
  if (!target.checks_requirements) return;
  out.line("irgl::lang::ProgramDescription irgl_requirements;");
  out.line("irgl_requirements.name = \"" + module.program_name + "\";");
  write_graph_requirements(out, module, "irgl_requirements");
  out.line("irgl::lang::check_library_graph(irgl_requirements, irgl_graph);");
}

// Each vertex parameter against the graph (no option parser checked it).
void write_vertex_checks(CodeWriter& out, const Module& module) {
  for (const ProgramParam& param : module.driver.params)
    if (param.is_node)
      out.line("irgl::lang::check_library_vertex(\"" + module.program_name + "\", \"" +
               param.var.name + "\", " + param.var.name + ", irgl_graph.num_vertices());");
}

}  // namespace

const LibraryTarget& library_target(Target target) {
  // On the GPU: a graph already uploaded; the run's degree shapes (which
  // --schedule=auto chooses by) and the view's largest degrees; outputs
  // downloaded.
  static const LibraryTarget cuda{
      "irgl::gpu::DeviceGraph", "irgl/gpu/device_graph.h", "on the GPU", "already on the GPU",
      "has_in_edges()", "upload the transpose", "weight_type()",
      "const irgl::lang::CudaRun irgl_run = irgl::lang::run_for(irgl_graph);",
      "const irgl::lang::CudaRun irgl_run{};", "view_of(irgl_graph, irgl_run)", "irgl_run",
      ".download()", false, true};
  // On the host: the sequential reference over a view of a host graph.
  static const LibraryTarget cpu{
      "irgl::CsrGraph", "irgl/graph/csr_graph.h", "on the host", "in host memory, sequentially",
      "has_transpose()", "CsrGraph::build_transpose()", "weight_type",
      "const Graph irgl_view = view_of(irgl_graph);", "", "irgl_view", "", ".values()", true, false};
  return target == Target::cuda ? cuda : cpu;
}

std::vector<std::string> requirement_names(const Module& module) {
  std::vector<std::string> names = module.driver.input_requirements;
  for (const PathLengthField& field : module.driver.path_length_fields)
    names.push_back("path_lengths_fit(" + field.name + ")");
  return names;
}

std::vector<std::string> collect_outputs(const Module& module) {
  std::vector<std::string> outputs;
  collect_outputs(module.driver.body, outputs);
  return outputs;
}

void write_library_includes(CodeWriter& out, const BackendOptions& options) {
  out.line("#include <irgl/lang/library_checks.h>");
  out.line("#include <mutex>");
  out.line("#include \"" + options.header_name + "\"");
}

std::string write_library_header(const Module& module, const BackendOptions& options,
                                 const std::vector<std::string>& outputs,
                                 const LibraryTarget& target) {
  CodeWriter out;
  write_banner(out, module, options,
               "The program as a library function " + target.where + " (--emit=library).");
  out.line("#pragma once");
  out.line();
  out.line("#include <cstdint>");
  out.line("#include <vector>");
  out.line();
  out.line("#include \"" + target.graph_header + "\"");
  out.line("#include \"irgl/lang/common.h\"");
  out.line();
  out.line("namespace " + program_namespace(module) + " {");
  out.line();
  out.line("using irgl::lang::Node;");
  out.line();
  out.comment("The program's outputs, copied out of its vertex data and reductions.");
  write_result_struct(out, module, outputs, host_entry(target));
  if (target.device_entry) {
    out.line();
    out.comment("The same outputs left on the GPU that ran the program: each vertex output in a "
                "buffer of its own (the next call does not overwrite it).");
    write_result_struct(out, module, outputs, device_entry);
  }
  out.line();
  std::string needs;
  for (const GraphCheck& check : graph_checks(module, target))
    if (check.needed) needs += " " + check.note;
  if (target.checks_requirements)
    needs += has_requirements(module) ? " It refuses a malformed graph or one that breaks its "
                                        "require() (" + requirement_list(module) + ")."
                                      : " It refuses a malformed graph.";
  else if (has_requirements(module))
    needs += " Its graph must meet its require() (" + requirement_list(module) +
             "): run() does not check the edges on the GPU.";
  out.comment("Runs " + module.program_name + " (" + display_file_name(module.source_file) +
              ") on a graph " + target.graph_where + "." + needs);
  out.comment("Throws std::invalid_argument when the graph lacks what the program reads. "
              "Calls from several threads run one at a time.");
  out.line(library_signature(module, target, host_entry(target), true) + ";");
  if (target.device_entry) {
    out.line();
    out.comment("Runs " + module.program_name + " as run() does, leaving the outputs on the GPU "
                "(no copy to the host).");
    out.line(library_signature(module, target, device_entry, true) + ";");
  }
  if (has_check_graph(module, target)) {
    out.line();
    out.comment("Refuses the graph (std::invalid_argument) as run() would, without running: "
                "call it on a host graph before uploading it for the GPU build of " +
                module.program_name + ", whose run() cannot read the edges.");
    out.line(check_signature(target) + ";");
  }
  out.line();
  out.line("}  // namespace " + program_namespace(module));
  return out.str();
}

namespace {

// One entry point: the lock, the checks, the driver, the outputs read out.
void write_entry(CodeWriter& out, const Module& module, const std::vector<std::string>& outputs,
                 const LibraryTarget& target, const Entry& entry) {
  const bool has_graph = !module.driver.graph_param.empty();
  out.line();
  out.open(library_signature(module, target, entry, false) + " {");
  out.line("const std::lock_guard<std::mutex> irgl_one_call(irgl_calls);");
  if (has_check_graph(module, target))
    out.line("check_graph(irgl_graph);");
  else if (has_graph)
    write_graph_checks(out, module, target);
  if (has_graph) write_vertex_checks(out, module);
  const std::string& setup = has_graph ? target.run_setup : target.run_setup_without_graph;
  if (!setup.empty()) out.line(setup);
  std::vector<std::string> args{has_graph ? target.graph_argument : ""};  // empty ones are left out
  for (const ProgramParam& param : module.driver.params) args.push_back(param.var.name);
  args.push_back(target.run_argument);
  out.line(module.driver.name + "(" + comma_separated(args) + ");");
  out.line(entry.result + " irgl_result;");
  for (const std::string& name : outputs)
    out.line("irgl_result." + name + " = " + name +
             (module.find_field(name) ? entry.read_field : ".value()") + ";");
  out.line("return irgl_result;");
  out.close();
}

}  // namespace

void write_library_entry(CodeWriter& out, const Module& module, const std::vector<std::string>& outputs,
                         const LibraryTarget& target) {
  if (has_check_graph(module, target)) {
    out.line();
    out.open(check_signature(target) + " {");
    write_graph_checks(out, module, target);
    out.close();
  }
  out.line();
  out.comment("The program's vertex data and reductions are file-scope: one call at a time.");
  out.line("std::mutex irgl_calls;");
  write_entry(out, module, outputs, target, host_entry(target));
  if (target.device_entry) write_entry(out, module, outputs, target, device_entry);
}

}  // namespace irglc
