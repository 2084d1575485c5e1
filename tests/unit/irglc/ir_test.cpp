// The IR's helpers: schedule names, rendering of code fragments (holes and
// re-indentation), option names of program parameters, lookups, the dump,
// escaping file names for string literals and comments.
#include <gtest/gtest.h>

#include "irglc/IR/IR.h"

namespace irglc {
namespace {

const char* const kScheduleList = "thread, warp, block, group:N, twc, lb, merge-path, multi-phase, vwarp, dvwarp, dp, alb, auto, extern:NAME";

Schedule parsed(const std::string& text) {
  Schedule schedule;
  const std::string problem = parse_schedule_name(text, schedule);
  EXPECT_EQ(problem, "") << text;
  return schedule;
}

std::string problem_with(const std::string& text) {
  Schedule schedule;
  return parse_schedule_name(text, schedule);
}

TEST(irglcSchedule, ParsesEveryNameAndPrintsItBack) {
  const struct {
    const char* text;
    ScheduleKind kind;
  } names[] = {{"thread", ScheduleKind::thread}, {"warp", ScheduleKind::warp},
               {"block", ScheduleKind::block},   {"twc", ScheduleKind::twc},
               {"lb", ScheduleKind::lb},         {"merge-path", ScheduleKind::merge_path},
               {"multi-phase", ScheduleKind::multi_phase},
               {"vwarp", ScheduleKind::vwarp},   {"dvwarp", ScheduleKind::dvwarp},
               {"dp", ScheduleKind::dp},         {"alb", ScheduleKind::alb},
               {"auto", ScheduleKind::automatic}};
  for (const auto& name : names) {
    const Schedule schedule = parsed(name.text);
    EXPECT_EQ(schedule.kind, name.kind) << name.text;
    EXPECT_EQ(schedule.name(), name.text);
  }
}

TEST(irglcSchedule, GroupSizesArePowersOfTwoFrom2To1024) {
  for (unsigned size : {2u, 4u, 32u, 64u, 1024u}) {
    const Schedule schedule = parsed("group:" + std::to_string(size));
    EXPECT_EQ(schedule.kind, ScheduleKind::group);
    EXPECT_EQ(schedule.group_size, size);
    EXPECT_EQ(schedule.name(), "group:" + std::to_string(size));
  }
  for (const char* size : {"0", "1", "3", "48", "2048", "65536", "", "x", "-2", "64x", "1e2",
                           "000064"})
    EXPECT_EQ(problem_with(std::string("group:") + size),
              std::string("group size '") + size + "' must be a power of two from 2 to 1024");
}

TEST(irglcSchedule, ReportsUnknownNamesAndMisplacedArguments) {
  EXPECT_EQ(problem_with("fastest"),
            std::string("unknown schedule 'fastest' (expected one of: ") + kScheduleList + ")");
  EXPECT_EQ(problem_with(""), std::string("unknown schedule '' (expected one of: ") +
                                  kScheduleList + ")");
  EXPECT_EQ(problem_with("Thread"), std::string("unknown schedule 'Thread' (expected one of: ") +
                                        kScheduleList + ")");
  EXPECT_EQ(problem_with("merge_path:4"),
            std::string("unknown schedule 'merge_path:4' (expected one of: ") + kScheduleList +
                ")");
  EXPECT_EQ(problem_with("warp:4"), "schedule 'warp' takes no ':' argument");
  EXPECT_EQ(problem_with("alb:"), "schedule 'alb' takes no ':' argument");
  EXPECT_EQ(problem_with("group"), "schedule 'group' needs a group size, e.g. group:64");
}

TEST(irglcSchedule, ParsingResetsThePreviousSchedule) {
  Schedule schedule;
  schedule.kind = ScheduleKind::alb;
  schedule.alb_threshold = 7;
  schedule.alb_distribution = AlbDistribution::blocked;
  ASSERT_EQ(parse_schedule_name("alb", schedule), "");
  EXPECT_FALSE(schedule.alb_threshold.has_value());
  EXPECT_EQ(schedule.alb_distribution, AlbDistribution::cyclic);
}

TEST(irglcSchedule, NamesListsEveryScheduleForMessages) {
  EXPECT_EQ(schedule_names(), kScheduleList);
}

// Schedules.def's options, after a name in the pragma or in --schedule.
TEST(irglcSchedule, SpecsTakeTheirSchedulesOptions) {
  Schedule schedule;
  ASSERT_EQ(parse_schedule_spec("alb,threshold=0,distribution=blocked", schedule), "");
  EXPECT_EQ(schedule.kind, ScheduleKind::alb);
  EXPECT_EQ(schedule.alb_threshold, 0u);
  EXPECT_EQ(schedule.alb_distribution, AlbDistribution::blocked);
  ASSERT_EQ(parse_schedule_spec("group:64", schedule), "");
  EXPECT_EQ(schedule.group_size, 64u);
  EXPECT_FALSE(schedule.alb_threshold.has_value());
}

TEST(irglcSchedule, SpecsRefuseOptionsTheScheduleDoesNotHave) {
  Schedule schedule;
  EXPECT_EQ(parse_schedule_spec("twc,threshold=4", schedule),
            "option 'threshold' applies only to schedules 'alb' and 'dp'");
  EXPECT_EQ(parse_schedule_spec("twc,speed=4", schedule), "schedule 'twc' takes no options");
  EXPECT_EQ(parse_schedule_spec("alb,speed=4", schedule),
            "unknown option 'speed' (expected threshold or distribution)");
  EXPECT_EQ(parse_schedule_spec("alb,threshold", schedule), "expected key=value, found 'threshold'");
  EXPECT_EQ(parse_schedule_spec("alb,", schedule), "expected key=value, found ''");
  EXPECT_EQ(parse_schedule_spec("alb,threshold=-1", schedule),
            "threshold '-1' is not a non-negative integer");
  EXPECT_EQ(parse_schedule_spec("alb,distribution=random", schedule),
            "distribution 'random' must be cyclic or blocked");
  EXPECT_EQ(parse_schedule_spec("fast,threshold=1", schedule),
            std::string("unknown schedule 'fast' (expected one of: ") + kScheduleList + ")");
}

// The backend names each schedule's runtime policy from the same table.
TEST(irglcSchedule, PoliciesComeFromTheTable) {
  EXPECT_EQ(schedule_policy(parsed("thread"), 256), "schedule::ThreadMapped<256>");
  EXPECT_EQ(schedule_policy(parsed("warp"), 128), "schedule::Warp<128>");
  EXPECT_EQ(schedule_policy(parsed("block"), 256), "schedule::Block<256>");
  EXPECT_EQ(schedule_policy(parsed("group:64"), 256), "schedule::GroupMapped<256, 64>");
  EXPECT_EQ(schedule_policy(parsed("twc"), 256), "schedule::Twc<256>");
  EXPECT_EQ(schedule_policy(parsed("lb"), 256), "schedule::Lb<256>");
  EXPECT_EQ(schedule_policy(parsed("merge-path"), 256), "schedule::MergePath<256>");
  EXPECT_EQ(schedule_policy(parsed("multi-phase"), 256), "schedule::MultiPhase<256>");
  EXPECT_EQ(schedule_policy(parsed("vwarp"), 256), "schedule::VirtualWarp<256>");
  EXPECT_EQ(schedule_policy(parsed("dvwarp"), 128), "schedule::DynamicVirtualWarp<128>");
  EXPECT_EQ(schedule_policy(parsed("alb"), 512), "schedule::Alb<512>");
}

// A user's schedule is named by its C++ name, written from the global
// namespace so that the program's own names cannot capture it.
TEST(irglcSchedule, ExternNamesTheUsersPolicy) {
  const Schedule chunked = parsed("extern:ext::Chunked");
  EXPECT_EQ(chunked.kind, ScheduleKind::user);
  EXPECT_EQ(chunked.name(), "extern:ext::Chunked");
  EXPECT_EQ(schedule_policy(chunked, 128), "::ext::Chunked<128>");
  EXPECT_EQ(schedule_policy(parsed("extern:Mine_2"), 256), "::Mine_2<256>");
  Schedule schedule;
  EXPECT_EQ(parse_schedule_name("extern", schedule),
            "schedule 'extern' needs the name of a policy, e.g. extern:ext::Chunked");
  for (const char* bad : {"extern:", "extern:::x", "extern:a::", "extern:2x", "extern:a-b",
                          "extern:a<4>", "extern:a:b"})
    EXPECT_NE(parse_schedule_name(bad, schedule), "") << bad;
  EXPECT_EQ(parse_schedule_spec("extern:ext::Chunked,threshold=0", schedule),
            "option 'threshold' applies only to schedules 'alb' and 'dp'");
}

TEST(irglcSchedule, HelpListsEveryScheduleAndOption) {
  const std::string help = schedule_help();
  for (const char* name : {"thread:", "warp:", "block:", "group:N:", "twc:", "lb:", "merge-path:",
                           "alb:", "extern:NAME:", ",threshold=VALUE:", ",distribution=VALUE:"})
    EXPECT_NE(help.find(name), std::string::npos) << name;
}

// A Schedule before selection; the schedule-selection pass chooses ALB for
// loops that nothing annotates (passes_test.cpp).
TEST(irglcSchedule, DefaultConstructedIsThread) { EXPECT_EQ(Schedule{}.name(), "thread"); }

CodeFragment fragment(std::vector<CodeSegment> segments, unsigned indent_column) {
  CodeFragment code;
  code.segments = std::move(segments);
  code.indent_column = indent_column;
  return code;
}

CodeSegment text(const std::string& code) { return {CodeSegment::Kind::text, code}; }

TEST(irglcRender, ReindentsContinuationLinesRelativeToTheFirst) {
  // Copied from column 5: continuation lines lose 4 columns, keeping their
  // indentation relative to the first line.
  const CodeFragment code = fragment({text("if (x) {\n      y = 1;\n    }")}, 5);
  EXPECT_EQ(render(code, "  ", "NV", "NE"), "  if (x) {\n    y = 1;\n  }\n");
  EXPECT_EQ(render(code, "", "NV", "NE"), "if (x) {\n  y = 1;\n}\n");
}

TEST(irglcRender, StripsOnlyTheSpacesALineHas) {
  // A continuation line indented less than the first line's column keeps
  // its text; blank lines stay empty, trailing blanks go.
  const CodeFragment code = fragment({text("f(a,\n  b);   \n\n        c();")}, 9);
  EXPECT_EQ(render(code, "    ", "", ""), "    f(a,\n    b);\n\n    c();\n");
}

TEST(irglcRender, FillsHoles) {
  const CodeFragment code =
      fragment({text("if (done) "), {CodeSegment::Kind::next_vertex, ""}, text(";\nif (skip) "),
                {CodeSegment::Kind::next_edge, ""}, text(";")},
               1);
  EXPECT_EQ(render(code, "", "continue", "return"), "if (done) continue;\nif (skip) return;\n");
  EXPECT_EQ(render(code, "  ", "<next-vertex>", "<next-edge>"),
            "  if (done) <next-vertex>;\n  if (skip) <next-edge>;\n");
}

TEST(irglcRender, TextEndingInANewlineGivesOneLineBreak) {
  EXPECT_EQ(render(CodeFragment::text("x = 1;\n"), "  ", "", ""), "  x = 1;\n");
  EXPECT_EQ(render(CodeFragment::text("x = 1;\n\n\n"), "", "", ""), "x = 1;\n");
}

TEST(irglcRender, TextFragmentsKeepTheirLocation) {
  SourceLoc loc{"bfs.irgl", 12, 7};
  const CodeFragment code = CodeFragment::text("a;", loc);
  EXPECT_EQ(code.loc.file, "bfs.irgl");
  EXPECT_EQ(code.loc.line, 12u);
  EXPECT_EQ(code.indent_column, 7u);
  EXPECT_EQ(code.loc.str(), "bfs.irgl:12");
  EXPECT_TRUE(code.loc.valid());
  EXPECT_FALSE(SourceLoc{}.valid());
}

TEST(irglcProgramParam, OptionNamesUseDashes) {
  ProgramParam param;
  param.var.name = "max_iterations";
  EXPECT_EQ(param.option_name(), "--max-iterations");
  param.var.name = "source";
  EXPECT_EQ(param.option_name(), "--source");
  param.var.name = "a_b_c";
  EXPECT_EQ(param.option_name(), "--a-b-c");
}

TEST(irglcModule, FindsDeclarationsByName) {
  Module module;
  module.fields.push_back({"level", "uint32_t", {}});
  module.reductions.push_back({"total", "float", ReductionOp::sum, {}});
  Kernel kernel;
  kernel.name = "relax";
  module.kernels.push_back(kernel);
  ASSERT_NE(module.find_field("level"), nullptr);
  EXPECT_EQ(module.find_field("level")->element_type, "uint32_t");
  EXPECT_EQ(module.find_field("total"), nullptr);
  ASSERT_NE(module.find_reduction("total"), nullptr);
  EXPECT_EQ(module.find_reduction("level"), nullptr);
  ASSERT_NE(module.find_kernel("relax"), nullptr);
  EXPECT_EQ(module.find_kernel("expand"), nullptr);
}

TEST(irglcModule, OperatorNames) {
  EXPECT_STREQ(to_string(AccumulatorOp::sum), "sum");
  EXPECT_STREQ(to_string(AccumulatorOp::min), "min");
  EXPECT_STREQ(to_string(AccumulatorOp::max), "max");
  EXPECT_STREQ(to_string(AccumulatorOp::bit_or), "or");
  EXPECT_STREQ(to_string(AccumulatorOp::bit_and), "and");
  EXPECT_STREQ(to_string(ReductionOp::sum), "sum");
  EXPECT_STREQ(to_string(ReductionOp::min), "min");
  EXPECT_STREQ(to_string(ReductionOp::max), "max");
}

TEST(irglcEscape, StringLiteralsEscapeQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(escape_string_literal("bfs.irgl"), "bfs.irgl");
  EXPECT_EQ(escape_string_literal("a\"b\\c\nx"), "a\\\"b\\\\c\\nx");
  // Octal escapes take three digits, so that a digit after one stays a digit.
  EXPECT_EQ(escape_string_literal(std::string("\t1\x7f") + '\0' + "2"), "\\0111\\177\\0002");
  // No trigraph: "??/" would be a backslash where trigraphs are on.
  EXPECT_EQ(escape_string_literal("a?" "?/b"), "a?\\?/b");
  EXPECT_EQ(escape_string_literal("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 stays
}

TEST(irglcEscape, FileNamesAreQuotedOnlyWhenTheyNeedEscaping) {
  EXPECT_EQ(display_file_name("dir/bfs.irgl"), "dir/bfs.irgl");
  EXPECT_EQ(display_file_name("a\"b\\c\nx.irgl"), "\"a\\\"b\\\\c\\nx.irgl\"");
  EXPECT_EQ((SourceLoc{"x\n.irgl", 3, 1}.str()), "\"x\\n.irgl\":3");
}

TEST(irglcDump, ShowsTheEdgeLoopWithItsScheduleClosureAndAccumulators) {
  Module module;
  module.source_file = "pr.irgl";
  module.program_name = "pr";
  module.graph_needs.in_edges = true;
  Kernel kernel;
  kernel.name = "gather";
  kernel.loc = {"pr.irgl", 27, 13};
  kernel.params.push_back({ParamKind::graph, {"g", "Graph"}});
  kernel.loop.vertex_var = "n";
  kernel.loop.graph = "g";
  kernel.loop.loc = {"pr.irgl", 28, 3};
  EdgeLoop edge;
  edge.edge_var = "e";
  edge.vertex = "n";
  edge.direction = EdgeDirection::in;
  edge.loc = {"pr.irgl", 30, 5};
  edge.closure.push_back({"d", "uint32_t"});
  edge.accumulators.push_back({{"sum", "float"}, AccumulatorOp::sum, {}});
  edge.annotation = Schedule{};
  edge.body.push_back(fragment({text("sum += 1;")}, 7));
  kernel.loop.edge_loop = edge;
  module.kernels.push_back(kernel);
  module.driver.name = "pr";
  module.driver.graph_param = "g";
  module.driver.loc = {"pr.irgl", 38, 14};
  EXPECT_EQ(dump(module),
            "module pr.irgl program pr\n"
            "graph-needs in-edges=yes weights=none\n"
            "kernel gather  ; pr.irgl:27\n"
            "  param graph g : Graph\n"
            "  fields [] reductions [] pushes []\n"
            "  vertex-loop n over nodes(g)  ; pr.irgl:28\n"
            "    edge-loop e over in-edges(n) schedule thread (annotated thread)  ; pr.irgl:30\n"
            "      closure d : uint32_t\n"
            "      accumulate sum : float by sum\n"
            "      body\n"
            "        sum += 1;\n"
            "driver pr(graph g)  ; pr.irgl:38\n");
}

}  // namespace
}  // namespace irglc
