// The CPU and CUDA backends on a hand-built module: the loop nest around a
// guarded edge loop (a CUDA Body and its launcher), holes, parameters,
// reductions, schedules, load instrumentation and the driver.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "irglc/Backend/Backend.h"
#include "irglc/IR/IR.h"

namespace irglc {
namespace {

CodeFragment code(const std::string& text, unsigned line, unsigned column) {
  return CodeFragment::text(text, {"/src/bfs.irgl", line, column});
}

// `kernel void expand(const Graph& g, Worklist& in, Worklist& out,
// uint32_t limit)` over `in`, with a guard, an edge loop reading `d` (its
// closure) and holding a next-edge hole, and code after the edge loop; it
// uses two reductions.
Kernel expand_kernel() {
  Kernel kernel;
  kernel.name = "expand";
  kernel.loc = {"/src/bfs.irgl", 8, 13};
  kernel.params = {{ParamKind::graph, {"g", "Graph"}},
                   {ParamKind::worklist, {"in", "Worklist"}},
                   {ParamKind::worklist, {"out", "Worklist"}},
                   {ParamKind::scalar, {"limit", "uint32_t"}}};
  VertexLoop& loop = kernel.loop;
  loop.loc = {"/src/bfs.irgl", 9, 3};
  loop.header = "for (Node n : in)";
  loop.domain = VertexDomain::worklist;
  loop.graph = "g";
  loop.worklist = "in";
  loop.vertex_var = "n";
  loop.pre.push_back({PreStep::Kind::code, code("const uint32_t d = level[n];", 10, 5)});
  loop.pre.push_back({PreStep::Kind::guard, code("d < limit", 11, 9)});
  EdgeLoop edge;
  edge.loc = {"/src/bfs.irgl", 12, 7};
  edge.header = "for (Edge e : g.out_edges(n))";
  edge.edge_var = "e";
  edge.graph = "g";
  edge.vertex = "n";
  edge.closure = {{"d", "uint32_t"}};
  CodeFragment skip = code("if (g.dst(e) == n) ", 13, 9);
  skip.segments.push_back({CodeSegment::Kind::next_edge, ""});
  skip.segments.push_back({CodeSegment::Kind::text, ";"});
  edge.body.push_back(skip);
  edge.body.push_back(code("if (atomic_min(level[g.dst(e)], d + 1) > d + 1)\n"
                           "          out.push(g.dst(e));",
                           14, 9));
  edge.reductions_used = {"lowest"};
  edge.worklists_pushed = {"out"};
  loop.edge_loop = edge;
  loop.post.push_back(code("visits += 1;", 17, 7));
  kernel.fields_used = {"level"};
  kernel.reductions_used = {"visits", "lowest"};
  kernel.worklists_pushed = {"out"};
  return kernel;
}

Module bfs_module() {
  Module module;
  module.source_file = "/src/bfs.irgl";
  module.program_name = "bfs";
  module.fields.push_back({"level", "uint32_t", {"/src/bfs.irgl", 4, 20}});
  module.reductions.push_back({"visits", "uint64_t", ReductionOp::sum, {"/src/bfs.irgl", 5, 15}});
  module.reductions.push_back({"lowest", "uint32_t", ReductionOp::min, {"/src/bfs.irgl", 6, 15}});
  module.kernels.push_back(expand_kernel());
  Driver& driver = module.driver;
  driver.name = "bfs";
  driver.loc = {"/src/bfs.irgl", 20, 14};
  driver.graph_param = "g";
  ProgramParam source;
  source.var = {"source", "Node"};
  source.value_kind = "u32";
  source.default_value = "0";
  source.is_node = true;
  driver.params.push_back(source);
  driver.uses_pipe = true;
  HostStmt pipe;
  pipe.code = code("Pipe pipe(g);", 21, 3);
  HostStmt launch;
  launch.kind = HostStmt::Kind::launch;
  launch.loc = {"/src/bfs.irgl", 23, 5};
  launch.kernel = "expand";
  launch.args = {"g", "pipe.in()", "pipe.out()", "10"};
  HostStmt swap;
  swap.code = code("pipe.swap();", 24, 5);
  HostStmt rounds;
  rounds.kind = HostStmt::Kind::pipe_loop;
  rounds.loc = {"/src/bfs.irgl", 22, 3};
  rounds.name = "pipe";
  rounds.condition = "!pipe.empty()";
  rounds.body = {launch, swap};
  HostStmt output;
  output.kind = HostStmt::Kind::output;
  output.name = "level";
  driver.body = {pipe, rounds, output};
  return module;
}

// The whole lines from the one holding `first` to the one where the next
// `last` ends.
std::string lines_between(const std::string& text, const std::string& first,
                          const std::string& last) {
  const size_t begin = text.find(first);
  if (begin == std::string::npos) return "<'" + first + "' not found>";
  const size_t line_begin = text.rfind('\n', begin) + 1;
  const size_t end = text.find(last, begin);
  if (end == std::string::npos) return "<'" + last + "' not found>";
  const size_t line_end = text.find('\n', end + last.size() - 1);
  return text.substr(line_begin, line_end + 1 - line_begin);
}

TEST(irglcCpuBackend, PrintsTheLoopNestOfAGuardedEdgeLoop) {
  const GeneratedCode code = generate_cpu(bfs_module(), {});
  EXPECT_EQ(code.header, "");
  EXPECT_EQ(lines_between(code.source, "// bfs.irgl:8: kernel expand", "\n}"),
            "// bfs.irgl:8: kernel expand\n"
            "void expand(const Graph& g, Worklist& in, Worklist& out, uint32_t limit) {\n"
            "  // bfs.irgl:9: for (Node n : in)\n"
            "  for (Node n : in) {\n"
            "    const uint32_t d = level[n];\n"
            "    if (d < limit) {\n"
            "      // bfs.irgl:12: for (Edge e : g.out_edges(n))  [schedule: thread]\n"
            "      for (Edge e : g.out_edges(n)) {\n"
            "        if (g.dst(e) == n) continue;\n"
            "        if (atomic_min(level[g.dst(e)], d + 1) > d + 1)\n"
            "          out.push(g.dst(e));\n"
            "      }\n"
            "      visits += 1;\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(irglcCpuBackend, PrintsDeclarationsDriverAndMain) {
  const std::string source = generate_cpu(bfs_module(), {}).source;
  EXPECT_EQ(source.rfind("// Generated by irglc ", 0), 0u);
  EXPECT_NE(source.find("#include <irgl/lang/cpu_target.h>\n"), std::string::npos);
  EXPECT_NE(source.find("NodeData<uint32_t> level(\"level\");  // bfs.irgl:4\n"
                        "Sum<uint64_t> visits(\"visits\");  // bfs.irgl:5\n"
                        "Min<uint32_t> lowest(\"lowest\");  // bfs.irgl:6\n"),
            std::string::npos);
  EXPECT_EQ(lines_between(source, "void bfs(", "\n}"),
            "void bfs(const Graph& g, Node source) {\n"
            "  // Every run starts from zeroed vertex data and reductions.\n"
            "  level.reset(g.num_nodes());\n"
            "  visits = static_cast<uint64_t>(0);\n"
            "  lowest = static_cast<uint32_t>(0);\n"
            "  Pipe pipe(g);\n"
            "  // bfs.irgl:22: rounds until the pipe 'pipe' is empty\n"
            "  while (!pipe.empty()) {\n"
            "    expand(g, pipe.in(), pipe.out(), 10);  // bfs.irgl:23\n"
            "    pipe.swap();\n"
            "  }\n"
            "  output(level);\n"
            "}\n");
  EXPECT_NE(source.find("struct irgl_parameters {\n  Node source = 0;\n};"), std::string::npos);
  EXPECT_NE(source.find("irgl_program.parameters.push_back({\"source\", "
                        "irgl::lang::ProgramParameter::Type::u32, &irgl_params.source, false, true, "
                        "\"0\"});"),
            std::string::npos);
  EXPECT_NE(source.find("irgl::lang::CpuTarget irgl_target(irgl_driver);"), std::string::npos);
  EXPECT_EQ(source.find("flush"), std::string::npos);
  EXPECT_EQ(source.find("__global__"), std::string::npos);
}

TEST(irglcCudaBackend, KernelBecomesABodyAndALauncher) {
  BackendOptions options;
  options.block_threads = 128;
  const std::string source = generate_cuda(bfs_module(), options).source;
  EXPECT_EQ(lines_between(source, "// bfs.irgl:8: kernel expand", "\n}\n"),
            "// bfs.irgl:8: kernel expand, as the loop nest the schedules run (schedule/body.h)\n"
            "struct expand_body {\n"
            "  Graph g;\n"
            "  Worklist in;\n"
            "  StagedWorklist<0> out;\n"
            "  uint32_t limit;\n"
            "  NodeArray<uint32_t> level;\n"
            "  ReductionSlot<uint64_t, SumOp> visits;\n"
            "  ReductionSlot<uint32_t, MinOp> lowest;\n"
            "\n"
            "  // What the edge and post code need from the code before the edge loop.\n"
            "  struct Closure {\n"
            "    uint32_t d;\n"
            "  };\n"
            "  using Accum = schedule::NoAccum;\n"
            "  static constexpr bool kHasEdges = true;\n"
            "  static constexpr bool kHasAccum = false;\n"
            "  static constexpr bool kHasPost = true;\n"
            "\n"
            "  // bfs.irgl:9: for (Node n : in), before the edge loop\n"
            "  __device__ bool pre(Node n, Closure& irgl_closure) {\n"
            "    const uint32_t d = level[n];\n"
            "    if (!(d < limit)) return false;\n"
            "    irgl_closure.d = d;\n"
            "    return true;\n"
            "  }\n"
            "  __device__ uint64_t edges_begin(Node v) const { return g.out_begin(v); }\n"
            "  __device__ uint64_t edges_end(Node v) const { return g.out_end(v); }\n"
            "  IRGL_HD uint64_t max_degree() const { return g.max_out_degree(); }\n"
            "  // Edges in CSR / CSC order: ALB's row tiles cut them, once per offsets array.\n"
            "  static constexpr bool kContiguousEdges = true;\n"
            "  IRGL_HD uint64_t edge_count() const { return g.num_edges(); }\n"
            "  __host__ const void* edge_layout() const { return g.out().offsets; }\n"
            "\n"
            "  // bfs.irgl:12: for (Edge e : g.out_edges(n))  [schedule: thread]\n"
            "  __device__ void edge(Node n, Edge e, const Closure& irgl_closure, Accum& "
            "irgl_accum) {\n"
            "    [[maybe_unused]] const uint32_t& d = irgl_closure.d;\n"
            "    if (g.dst(e) == n) return;\n"
            "    if (atomic_min(level[g.dst(e)], d + 1) > d + 1)\n"
            "      out.push(g.dst(e));\n"
            "  }\n"
            "\n"
            "  // After the edge loop, once all of the vertex's edges are done.\n"
            "  __device__ void post(Node n, const Closure& irgl_closure, const Accum& irgl_accum) "
            "{\n"
            "    [[maybe_unused]] uint32_t d = irgl_closure.d;\n"
            "    visits += 1;\n"
            "  }\n"
            "\n"
            "  IRGL_HD static Accum identity() { return {}; }\n"
            "  __device__ static void combine(Accum&, const Accum&) {}\n"
            "  __device__ static void atomic_combine(Accum*, const Accum&) {}\n"
            "  template <int BlockThreads>\n"
            "  __device__ void begin() {\n"
            "    out.begin<BlockThreads>();\n"
            "  }\n"
            "  template <int BlockThreads>\n"
            "  __device__ void flush() {\n"
            "    out.flush<BlockThreads>();\n"
            "    visits.flush<BlockThreads>();\n"
            "    lowest.flush<BlockThreads>();\n"
            "  }\n"
            "};\n"
            "\n"
            "// bfs.irgl:8: the Body of expand for its arguments, and its schedule options.\n"
            "expand_body make_expand(const Graph& g, Worklist in, Worklist out, uint32_t limit) {\n"
            "  return {g, in, out, limit, level.view(), visits.view(), lowest.view()};\n"
            "}\n");
  EXPECT_EQ(lines_between(source, "schedule::RunOptions expand_options", "\n}\n"),
            "schedule::RunOptions expand_options(const irgl::lang::CudaRun& irgl_run) {\n"
            "  schedule::RunOptions options = irgl_run.options(\"expand\");\n"
            "  return options;\n"
            "}\n");
  EXPECT_EQ(lines_between(source, "// bfs.irgl:8: runs expand_body", "\n}\n"),
            "// bfs.irgl:8: runs expand_body over the worklist in, schedule thread.\n"
            "void expand(const Graph& g, Worklist in, Worklist out, uint32_t limit, "
            "const irgl::lang::CudaRun& irgl_run) {\n"
            "  static schedule::PerDevice<schedule::State<expand_body>> irgl_state;\n"
            "  schedule::ThreadMapped<128>::run(make_expand(g, in, out, limit), "
            "in.items(), irgl_state.current(), expand_options(irgl_run));\n"
            "}\n");
  EXPECT_NE(source.find("program.schedules = \"expand: thread\";"), std::string::npos);
  EXPECT_NE(source.find("constexpr uint64_t irgl_bytes_per_vertex = sizeof(uint32_t);"),
            std::string::npos);
  EXPECT_NE(source.find("irgl::lang::CudaTarget irgl_target(irgl_driver, {irglc_bfs::irgl_bytes_per_vertex, true});"),
            std::string::npos);
}

// Without reductions, a Body flushes only its staged pushes; with --no-coop
// (pushes straight to the queue) nothing at all, and it has no begin().
TEST(irglcCudaBackend, KernelsWithoutReductionsFlushOnlyTheirPushes) {
  Module module = bfs_module();
  module.kernels[0].reductions_used.clear();
  const std::string coop = generate_cuda(module, {}).source;
  EXPECT_EQ(coop.find("ReductionSlot"), std::string::npos);
  EXPECT_NE(coop.find("  __device__ void flush() {\n    out.flush<BlockThreads>();\n  }\n"),
            std::string::npos);
  BackendOptions no_coop;
  no_coop.coop = false;
  const std::string plain = generate_cuda(module, no_coop).source;
  EXPECT_EQ(plain.find(".flush<"), std::string::npos);
  EXPECT_EQ(plain.find("void begin()"), std::string::npos);
  EXPECT_NE(plain.find("  UncoalescedWorklist out;\n"), std::string::npos);
  EXPECT_NE(plain.find("  template <int BlockThreads>\n  __device__ void flush() {}\n"),
            std::string::npos);
}

// The launcher line of `source` that runs a policy: "schedule::X<...>::run(".
std::string policy_call(const std::string& source) {
  const std::string call = lines_between(source, "::run(make_", "\n");
  const size_t begin = call.find("schedule::");
  return call.substr(begin, call.find("::run(") + 6 - begin);
}

TEST(irglcCudaBackend, EachScheduleRunsItsPolicy) {
  const std::pair<const char*, const char*> policies[] = {
      {"thread", "schedule::ThreadMapped<256>::run("},
      {"warp", "schedule::Warp<256>::run("},
      {"block", "schedule::Block<256>::run("},
      {"group:2", "schedule::GroupMapped<256, 2>::run("},
      {"group:128", "schedule::GroupMapped<256, 128>::run("},
      {"twc", "schedule::Twc<256>::run("},
      {"lb", "schedule::Lb<256>::run("},
      {"merge-path", "schedule::MergePath<256>::run("},
      {"alb", "schedule::Alb<256>::run("},
  };
  for (const auto& [name, policy] : policies) {
    Module module = bfs_module();
    ASSERT_EQ(parse_schedule_name(name, module.kernels[0].loop.edge_loop->schedule), "");
    const std::string source = generate_cuda(module, {}).source;
    EXPECT_EQ(policy_call(source), policy) << name;
    EXPECT_NE(source.find(std::string("[schedule: ") + name + "]"), std::string::npos) << name;
    EXPECT_EQ(source.find("options.alb_"), std::string::npos) << name;
  }
}

TEST(irglcCudaBackend, VertexLoopsWithoutEdgesRunAVertexPerThread) {
  Module module = bfs_module();
  module.kernels[0].loop.edge_loop.reset();
  module.kernels[0].loop.post.clear();
  const std::string source = generate_cuda(module, {}).source;
  EXPECT_EQ(policy_call(source), "schedule::ThreadMapped<256>::run(");
  EXPECT_NE(source.find("static constexpr bool kHasEdges = false;"), std::string::npos);
  EXPECT_NE(source.find("__device__ uint64_t edges_begin(Node) const { return 0; }"),
            std::string::npos);
}

TEST(irglcCudaBackend, AlbOptionsReachTheLauncher) {
  Module module = bfs_module();
  Schedule& schedule = module.kernels[0].loop.edge_loop->schedule;
  schedule.kind = ScheduleKind::alb;
  schedule.alb_threshold = 4096;
  schedule.alb_distribution = AlbDistribution::blocked;
  EXPECT_EQ(lines_between(generate_cuda(module, {}).source,
                          "  schedule::RunOptions options = irgl_run.options(\"expand", "return options;"),
            "  schedule::RunOptions options = irgl_run.options(\"expand\");\n"
            "  options.alb_threshold = 4096;\n"
            "  options.alb_distribution = schedule::Distribution::blocked;\n"
            "  return options;\n");
  // The defaults (threshold: the runtime's; cyclic) are left to the runtime.
  schedule.alb_threshold.reset();
  schedule.alb_distribution = AlbDistribution::cyclic;
  EXPECT_EQ(generate_cuda(module, {}).source.find("options.alb_"), std::string::npos);
}

TEST(irglcCudaBackend, LoadInstrumentationCountsInEveryStateAndRecordsInMain) {
  BackendOptions options;
  options.instrument_load = true;
  const std::string source = generate_cuda(bfs_module(), options).source;
  EXPECT_NE(source.find("  static schedule::PerDevice<schedule::State<expand_body, schedule::LoadCounters>> irgl_state;\n"),
            std::string::npos);
  EXPECT_NE(source.find("irgl::lang::CudaTarget irgl_target(irgl_driver, {irglc_bfs::irgl_bytes_per_vertex, true}, "
                        "/*records_load=*/true);"),
            std::string::npos);
  const std::string plain = generate_cuda(bfs_module(), {}).source;
  EXPECT_EQ(plain.find("LoadCounters"), std::string::npos);
  EXPECT_EQ(plain.find("records_load"), std::string::npos);
}

TEST(irglcCudaBackend, LibraryModeWritesAHeaderAndNoMain) {
  BackendOptions options;
  options.emit = EmitKind::library;
  options.header_name = "levels.h";
  const GeneratedCode code = generate_cuda(bfs_module(), options);
  EXPECT_NE(code.header.find("#pragma once"), std::string::npos);
  EXPECT_NE(code.header.find("struct Result {\n  std::vector<uint32_t> level;\n};"),
            std::string::npos);
  EXPECT_NE(code.header.find("Result run(const irgl::gpu::DeviceGraph& irgl_graph, Node source = 0);"),
            std::string::npos);
  EXPECT_NE(code.source.find("#include \"levels.h\"\n"), std::string::npos);
  EXPECT_EQ(code.source.find("cuda_target.cuh"), std::string::npos);
  EXPECT_EQ(code.source.find("int main("), std::string::npos);
  EXPECT_EQ(lines_between(code.source, "Result run(", "\n}"),
            "Result run(const irgl::gpu::DeviceGraph& irgl_graph, Node source) {\n"
            "  const std::lock_guard<std::mutex> irgl_one_call(irgl_calls);\n"
            "  irgl::lang::check_library_vertex(\"bfs\", \"source\", source, "
            "irgl_graph.num_vertices());\n"
            "  const irgl::lang::CudaRun irgl_run = irgl::lang::run_for(irgl_graph);\n"
            "  bfs(view_of(irgl_graph, irgl_run), source, irgl_run);\n"
            "  Result irgl_result;\n"
            "  irgl_result.level = level.download();\n"
            "  return irgl_result;\n"
            "}\n");
  EXPECT_NE(code.header.find("DeviceResult run_on_device(const irgl::gpu::DeviceGraph& irgl_graph, "
                             "Node source = 0);"),
            std::string::npos);
  EXPECT_NE(code.source.find("  irgl_result.level = level.take();\n"), std::string::npos);
}

TEST(irglcBackends, HostIfElseKeepsItsStructure) {
  Module module = bfs_module();
  HostStmt launch;
  launch.kind = HostStmt::Kind::launch;
  launch.loc = {"/src/bfs.irgl", 30, 5};
  launch.kernel = "expand";
  launch.args = {"g", "pipe.in()", "pipe.out()", "1"};
  HostStmt branch;
  branch.kind = HostStmt::Kind::if_else;
  branch.condition = "source == 0";
  branch.body = {launch};
  branch.else_body = {launch};
  module.driver.body = {branch};
  // The CUDA driver hands its run options to every launch.
  for (const auto& [code, run] : {std::pair{generate_cpu(module, {}), std::string()},
                                  std::pair{generate_cuda(module, {}), std::string(", irgl_run")}})
    EXPECT_EQ(lines_between(code.source, "if (source == 0)", "\n  }\n"),
              "  if (source == 0) {\n"
              "    expand(g, pipe.in(), pipe.out(), 1" + run + ");  // bfs.irgl:30\n"
              "  } else {\n"
              "    expand(g, pipe.in(), pipe.out(), 1" + run + ");  // bfs.irgl:30\n"
              "  }\n");
}

}  // namespace
}  // namespace irglc
