// irgl-graph: look at, convert and generate graphs.
//
//   irgl-graph stats [graph options] [--json] [--no-diameter] SOURCE...
//   irgl-graph convert [graph options] [--force] [--output-format F] SOURCE OUT
//   irgl-graph generate [graph options] [--force] [--output-format F] SPEC OUT
//   irgl-graph partition [graph options] --policy oec|iec|cvc --parts N [--json] SOURCE
//
// OUT's extension picks the format (graph_writer.h): .csr, .mtx, edge lists.
//
// SOURCE is a graph file or a generator spec (rmat:..., grid:..., uniform:...).
#include <sys/stat.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "irgl/graph/graph_writer.h"
#include "irgl/graph/load.h"
#include "irgl/graph/partition.h"
#include "irgl/graph/stats.h"
#include "irgl/options/graph_options.h"
#include "irgl/support/error.h"
#include "irgl/support/output_file.h"

namespace po = boost::program_options;

namespace {

constexpr const char* kTool = "irgl-graph";

// What every subcommand parses: the graph options, --help, the positional
// arguments, and the subcommand's own flags.
struct CommandLine {
  irgl::GraphOptionValues graph;
  std::vector<std::string> arguments;
  bool help = false;
};

po::options_description command_options(const std::string& caption, CommandLine& line) {
  po::options_description options(caption);
  options.add_options()("help,h", po::bool_switch(&line.help), "show this help");
  irgl::add_graph_options(options, line.graph);
  return options;
}

// Parses argv (argv[0] being the subcommand); returns false after printing
// the help when asked for it.
bool parse(const std::string& command, const std::string& usage, int argc, char** argv,
           po::options_description& options, CommandLine& line) {
  po::options_description all;
  all.add(options).add_options()("arguments", po::value(&line.arguments));
  po::positional_options_description positional;
  positional.add("arguments", -1);
  irgl::parse_command_line(std::string(kTool) + " " + command, argc, argv, all, &positional);
  if (!line.help) return true;
  std::cout << "usage: " << kTool << " " << usage << "\n\n" << options;
  return false;
}

void expect_arguments(const std::string& command, const CommandLine& line, size_t count,
                      const char* names) {
  if (line.arguments.size() != count)
    throw irgl::InputError::in(std::string(kTool) + " " + command,
                               "expected " + std::string(names) + ", got " +
                                   std::to_string(line.arguments.size()) +
                                   " argument(s) (see --help)");
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int stats_command(int argc, char** argv) {
  CommandLine line;
  bool json = false, no_diameter = false;
  po::options_description options = command_options("options", line);
  options.add_options()("json", po::bool_switch(&json),
                        "print JSON (an array, one object per SOURCE)")(
      "no-diameter", po::bool_switch(&no_diameter), "skip the diameter estimate (BFS sweeps)");
  if (!parse("stats",
             "stats [options] SOURCE...\n\n"
             "Prints sizes, degree distributions, weakly connected components and a lower\n"
             "bound on the diameter of each graph (a file or a generator spec).",
             argc, argv, options, line))
    return 0;
  if (line.arguments.empty())
    throw irgl::InputError::in(std::string(kTool) + " stats", "no SOURCE given (see --help)");
  const irgl::LoadOptions load = irgl::to_load_options(line.graph);
  irgl::StatsOptions stats_options;
  stats_options.diameter = !no_diameter;

  // All graphs first (one in memory at a time), so that a bad SOURCE leaves
  // no partial report.
  std::vector<irgl::GraphStats> all_stats;
  for (const std::string& source : line.arguments)
    all_stats.push_back(irgl::compute_stats(irgl::load_graph(source, load), stats_options));
  if (json) {
    irgl::print_stats_json(std::cout, all_stats);
    return 0;
  }
  for (size_t i = 0; i < all_stats.size(); ++i) {
    std::cout << (i ? "\n" : "");
    irgl::print_stats_text(std::cout, all_stats[i]);
  }
  return 0;
}

// What convert and generate add to the graph options.
struct WriteFlags {
  bool force = false;
  std::string output_format;
  std::string ids;
};

void add_write_options(po::options_description& options, WriteFlags& flags) {
  options.add_options()("force", po::bool_switch(&flags.force), "replace OUT if it exists")(
      "output-format", po::value(&flags.output_format),
      "csr, mtx, edgelist, tsv or csv (default: from OUT's extension; csr for '-' and devices)")(
      "ids", po::value(&flags.ids)->value_name("FILE"),
      "write the original id of every vertex to FILE, one per line (line v+1: vertex v); "
      "needed with --renumber and a text OUT");
}

constexpr const char* kOutputFormats =
    "OUT's extension picks the format: .csr (binary CSR), .mtx (MatrixMarket), .el .txt\n"
    ".edges .wel (edge list, \"u v [w]\"), .tsv (tab-separated), .csv (comma-separated);\n"
    "weights are written when the graph has them.";

// Loads `source` and writes it to `output` in the format its name (or
// --output-format) says, refusing to replace an existing `output` unless
// --force. The output path and format are checked before the load.
int write_output(const std::string& source, const std::string& output, const WriteFlags& flags,
                 const irgl::GraphOptionValues& values) {
  const irgl::LoadOptions load = irgl::to_load_options(values);
  std::optional<irgl::OutputFormat> requested;
  if (!flags.output_format.empty())
    requested = irgl::parse_output_format(flags.output_format, "--output-format");
  // A bad output path fails before the load; with "-" the report below goes
  // to standard error.
  const irgl::OutputFile::Kind kind = irgl::OutputFile::check(output, flags.force);
  const irgl::OutputFormat format = irgl::choose_output_format(
      output, kind != irgl::OutputFile::Kind::regular, requested);
  irgl::OutputFile::Kind ids_kind = irgl::OutputFile::Kind::regular;
  if (!flags.ids.empty()) {
    if (flags.ids == output) throw irgl::InputError::in("--ids", "'" + output + "' is OUT too");
    ids_kind = irgl::OutputFile::check(flags.ids, flags.force);
  } else if (load.build.renumber && format != irgl::OutputFormat::irgl_binary) {
    throw irgl::InputError::in(
        "--renumber", "OUT (" + output +
                          ") will hold the new ids only: name a file for the original ids "
                          "with --ids FILE (or write .csr, which keeps them)");
  }
  if (kind == irgl::OutputFile::Kind::standard_output ||
      ids_kind == irgl::OutputFile::Kind::standard_output)
    irgl::OutputFile::reserve_standard_output();
  const auto start = std::chrono::steady_clock::now();
  const irgl::CsrGraph graph = irgl::load_graph(source, load);
  const double load_seconds = seconds_since(start);
  const auto write_start = std::chrono::steady_clock::now();
  irgl::write_graph(output, graph, format, flags.force, load.show_progress);
  if (!flags.ids.empty()) irgl::write_original_ids(flags.ids, graph, flags.force);
  std::printf("%s: %llu vertices, %llu edges (loaded in %.2f s, written in %.2f s)\n",
              output.c_str(), static_cast<unsigned long long>(graph.num_vertices()),
              static_cast<unsigned long long>(graph.num_edges()), load_seconds,
              seconds_since(write_start));
  if (!flags.ids.empty())
    std::printf("%s: the original ids of the %llu vertices%s\n", flags.ids.c_str(),
                static_cast<unsigned long long>(graph.num_vertices()),
                graph.renumbered() ? "" : " (not renumbered: 0, 1, ...)");
  return 0;
}

int convert_command(int argc, char** argv) {
  CommandLine line;
  WriteFlags flags;
  po::options_description options = command_options("options", line);
  add_write_options(options, flags);
  if (!parse("convert",
             std::string("convert [options] SOURCE OUT\n\n"
                         "Loads SOURCE (a file or a generator spec) with the graph options and "
                         "writes it to OUT.\n") +
                 kOutputFormats,
             argc, argv, options, line))
    return 0;
  expect_arguments("convert", line, 2, "SOURCE and OUT");
  return write_output(line.arguments[0], line.arguments[1], flags, line.graph);
}

int generate_command(int argc, char** argv) {
  CommandLine line;
  WriteFlags flags;
  po::options_description options = command_options("options", line);
  add_write_options(options, flags);
  if (!parse(
          "generate",
          std::string(
              "generate [options] SPEC OUT\n\n"
              "Generates a synthetic graph and writes it to OUT. SPEC:\n"
              "  rmat:SCALE  or  rmat:scale=S[,edge-factor=F][,seed=N][,a=..,b=..,c=..][,permute=0|1]\n"
              "  grid:ROWSxCOLS  or  grid:rows=R,cols=C\n"
              "  uniform:vertices=N,edges=M[,seed=S]\n") +
              kOutputFormats,
          argc, argv, options, line))
    return 0;
  expect_arguments("generate", line, 2, "SPEC and OUT");
  const std::string& spec = line.arguments[0];
  if (!irgl::is_generator_spec(spec))
    throw irgl::InputError::in(spec, "not a generator spec (expected rmat:, grid: or uniform:)");
  return write_output(spec, line.arguments[1], flags, line.graph);
}

int partition_command(int argc, char** argv) {
  CommandLine line;
  std::string policy_name = "oec";
  unsigned parts = 0;
  bool json = false;
  po::options_description options = command_options("options", line);
  options.add_options()("policy", po::value(&policy_name)->default_value(policy_name),
                        ("how edges are cut: " + irgl::partition_policy_names()).c_str())(
      "parts", po::value(&parts), "the number of parts (GPUs), at least 1")(
      "json", po::bool_switch(&json), "print JSON");
  if (!parse("partition",
             "partition [options] --parts N SOURCE\n\n"
             "Partitions a graph for N GPUs (masters in balanced blocks of ids, each edge in\n"
             "the part its policy names, mirrors for the other ends) and prints the\n"
             "replication factor and each part's masters, mirrors and edges.",
             argc, argv, options, line))
    return 0;
  expect_arguments("partition", line, 1, "SOURCE");
  const irgl::PartitionPolicy policy = irgl::parse_partition_policy(policy_name, "--policy");
  if (parts == 0) throw irgl::InputError::in("--parts", "the number of parts must be at least 1");
  const irgl::CsrGraph graph = irgl::load_graph(line.arguments[0], irgl::to_load_options(line.graph));
  const irgl::PartitionStats stats =
      irgl::partition_stats(graph, policy, irgl::partition_graph(graph, policy, parts));
  if (json) irgl::print_partition_stats_json(std::cout, stats);
  else irgl::print_partition_stats(std::cout, stats);
  return 0;
}

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"stats", stats_command, "print sizes, degrees, components and diameter of graphs"},
    {"convert", convert_command, "write a graph as .csr, .mtx or an edge list (.el, .csv, ...)"},
    {"generate", generate_command, "write a synthetic graph (rmat, grid, uniform)"},
    {"partition", partition_command, "partition a graph for several GPUs and print the parts"},
};

void print_usage() {
  std::cout << "usage: " << kTool << " COMMAND [options] ARGUMENTS...\n\ncommands:\n";
  for (const Command& command : kCommands)
    std::printf("  %-10s %s\n", command.name, command.summary);
  std::cout << "\n'" << kTool << " COMMAND --help' describes a command and its options.\n";
}

int run(int argc, char** argv) {
  if (argc < 2)
    throw irgl::InputError::in(
        kTool, "no command given (expected stats, convert, generate or partition; see --help)");
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage();
    return 0;
  }
  for (const Command& command : kCommands)
    if (name == command.name) return command.run(argc - 1, argv + 1);
  throw irgl::InputError::in(
      kTool, "unknown command '" + name + "' (expected stats, convert, generate or partition; see --help)");
}

}  // namespace

int main(int argc, char** argv) { return irgl::run_tool_main(kTool, run, argc, argv); }
