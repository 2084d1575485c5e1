#include "irgl/lang/program.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <iostream>

#include "irgl/lang/outputs.h"
#include "irgl/options/graph_options.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/graph/graph_writer.h"
#include "irgl/results/result_writer.h"
#include "irgl/support/output_file.h"
#include "irgl/support/error.h"
#include "irgl/support/time_summary.h"
#include "requirements.h"
#include "result_summary.h"

namespace po = boost::program_options;

namespace irgl::lang {

namespace {

std::string option_name(const std::string& name) {
  std::string option = name;
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

template <class T>
po::typed_value<T>* typed(const ProgramParameter& parameter) {
  auto* value = po::value<T>(static_cast<T*>(parameter.value));
  if (parameter.required) return value->required();
  return value->default_value(*static_cast<T*>(parameter.value), parameter.default_text);
}

// Unsigned parameters refuse negative values (unsigned_option.h). A vertex
// may also be "random": a new vertex with out-edges for every run, added to
// `random_nodes`.
template <class T>
po::typed_value<std::string>* typed_unsigned(const ProgramParameter& parameter,
                                             const std::string& option,
                                             std::vector<const ProgramParameter*>& random_nodes) {
  T* target = static_cast<T*>(parameter.value);
  auto* value = po::value<std::string>()->notifier(
      [target, option, &parameter, &random_nodes](const std::string& text) {
        if (parameter.is_node && text == "random")
          random_nodes.push_back(&parameter);
        else
          *target = static_cast<T>(parse_unsigned(text, "--" + option,
                                                  std::numeric_limits<T>::max()));
      });
  if (parameter.required) return value->required();
  return value->default_value(std::to_string(*static_cast<T*>(parameter.value)),
                              parameter.default_text);
}

void add_parameter(po::options_description& description, const ProgramParameter& parameter,
                   std::vector<const ProgramParameter*>& random_nodes) {
  using Type = ProgramParameter::Type;
  const std::string name = option_name(parameter.name);
  const std::string help =
      parameter.is_node
          ? "a vertex id, or random: a random vertex with out-edges for each run (--random-seed)"
          : "a program parameter";
  po::value_semantic* semantic = nullptr;
  switch (parameter.type) {
    case Type::u32: semantic = typed_unsigned<uint32_t>(parameter, name, random_nodes); break;
    case Type::i32: semantic = typed<int32_t>(parameter); break;
    case Type::u64: semantic = typed_unsigned<uint64_t>(parameter, name, random_nodes); break;
    case Type::i64: semantic = typed<int64_t>(parameter); break;
    case Type::f32: semantic = typed<float>(parameter); break;
    case Type::f64: semantic = typed<double>(parameter); break;
    case Type::boolean: semantic = typed<bool>(parameter); break;
  }
  description.add_options()(name.c_str(), semantic, help.c_str());
}

// The value of a parameter as text, for result file headers.
std::string parameter_text(const ProgramParameter& parameter) {
  using Type = ProgramParameter::Type;
  char buffer[64];
  switch (parameter.type) {
    case Type::u32: return std::to_string(*static_cast<uint32_t*>(parameter.value));
    case Type::i32: return std::to_string(*static_cast<int32_t*>(parameter.value));
    case Type::u64: return std::to_string(*static_cast<uint64_t*>(parameter.value));
    case Type::i64: return std::to_string(*static_cast<int64_t*>(parameter.value));
    case Type::f32:
      std::snprintf(buffer, sizeof buffer, "%.9g", *static_cast<float*>(parameter.value));
      return buffer;
    case Type::f64:
      std::snprintf(buffer, sizeof buffer, "%.17g", *static_cast<double*>(parameter.value));
      return buffer;
    case Type::boolean: return *static_cast<bool*>(parameter.value) ? "1" : "0";
  }
  return "";
}

uint64_t node_value(const ProgramParameter& parameter) {
  using Type = ProgramParameter::Type;
  switch (parameter.type) {
    case Type::u32: return *static_cast<uint32_t*>(parameter.value);
    case Type::u64: return *static_cast<uint64_t*>(parameter.value);
    default: return 0;
  }
}

void set_node_value(const ProgramParameter& parameter, uint64_t vertex) {
  if (parameter.type == ProgramParameter::Type::u32)
    *static_cast<uint32_t*>(parameter.value) = static_cast<uint32_t>(vertex);
  else
    *static_cast<uint64_t*>(parameter.value) = vertex;
}

// What the driver reads of its graph: the whole graph, or the totals of a
// multi-GPU run whose processes each loaded their share.
struct GraphFacts {
  uint64_t vertices = 0, edges = 0;
  WeightType weight_type = WeightType::none;
  std::function<bool(uint64_t)> has_out_edges;
  const CsrGraph* whole = nullptr;  // null for a share
  WeightTotals share_weights;       // for a share

  bool renumbered() const { return whole && whole->renumbered(); }
};

GraphFacts facts_of(const CsrGraph& graph) {
  GraphFacts facts;
  facts.vertices = graph.num_vertices();
  facts.edges = graph.num_edges();
  facts.weight_type = graph.weight_type;
  facts.has_out_edges = [&graph](uint64_t v) {
    return graph.out_offsets[v + 1] > graph.out_offsets[v];
  };
  facts.whole = &graph;
  return facts;
}

GraphFacts facts_of(const GraphTotals& totals) {
  GraphFacts facts;
  facts.vertices = totals.vertices;
  facts.edges = totals.edges;
  facts.weight_type = totals.weight_type;
  facts.has_out_edges = [&totals](uint64_t v) { return totals.out_degrees[v] > 0; };
  facts.share_weights = {totals.weight_type, totals.largest_weight, totals.negative_weight, 0};
  for (const uint32_t degree : totals.out_degrees) facts.share_weights.with_out_edges += degree > 0;
  return facts;
}

// Random vertices with out-edges, one per run of the driver, as GAP and
// Gunrock pick their sources: a run from a vertex without out-edges would
// measure nothing. Seeded, so a run of the program can be repeated.
class RandomVertices {
 public:
  RandomVertices(const GraphFacts& graph, uint64_t seed, const std::string& option)
      : graph_(graph), generator_(seed) {
    if (graph.edges == 0)
      throw InputError::in(option, "random: the graph has no vertex with out-edges");
  }
  uint64_t next() {
    std::uniform_int_distribution<uint64_t> pick(0, graph_.vertices - 1);
    for (;;)
      if (const uint64_t v = pick(generator_); graph_.has_out_edges(v)) return v;
  }

 private:
  const GraphFacts& graph_;
  std::mt19937_64 generator_;
};

struct WrittenOutput {
  std::string name, path;
};

// Writes recorded outputs as result files: the first to `path`, any others
// to `path.NAME`, each to its temporary; commit() publishes them together,
// so that a failed output (an existing file, a full disk) leaves none.
class ResultFileWriter : public TypedOutputWriter<ResultFileWriter> {
 public:
  ResultFileWriter(std::string path, std::string algorithm, uint64_t vertices,
                   ResultWriteOptions options)
      : path_(std::move(path)),
        algorithm_(std::move(algorithm)),
        vertices_(vertices),
        options_(std::move(options)) {}

  template <class T>
  void values(const std::string& name, const std::vector<T>& values) {
    const std::string algorithm = algorithm_of(name);
    write_vertex_result(open(name), algorithm, values.data(), values.size(), options_.fields);
  }
  void scalar(const std::string& name, uint64_t value) override {
    const std::string algorithm = algorithm_of(name);
    write_scalar_result(open(name), algorithm, value, vertices_, options_.fields);
  }
  void signed_scalar(const std::string& name, int64_t value) override {
    const std::string algorithm = algorithm_of(name);
    write_signed_scalar_result(open(name), algorithm, value, vertices_, options_.fields);
  }
  void real_scalar(const std::string& name, double value) override {
    const std::string algorithm = algorithm_of(name);
    write_real_scalar_result(open(name), algorithm, value, vertices_, options_.fields);
  }
  // A further file published with the outputs (a renumbered graph's ids).
  OutputFile& add(const std::string& name, const std::string& path) {
    files_.push_back(std::make_unique<OutputFile>(path, options_.overwrite));
    written.push_back({name, path});
    return *files_.back();
  }
  // Every file closed first (a late write error publishes nothing), then
  // each moved into place; only a path that appears meanwhile, or a failing
  // rename, can stop this half-way.
  void commit() {
    for (auto& file : files_) file->finish();
    for (auto& file : files_) file->commit();
  }

  std::vector<WrittenOutput> written;

 private:
  // The next output's file: the first is `path`, another `path.NAME`.
  OutputFile& open(const std::string& name) {
    return add(name, written.empty() ? path_ : path_ + "." + name);
  }
  // The first output is the program's result; another is named after the
  // program and itself ("louvain-modularity"), so that its shape need not
  // be the result format's of the program's name. No known format has a
  // '-' (tc's output per_vertex is not tc_per_vertex's result).
  std::string algorithm_of(const std::string& name) const {
    const std::string own = algorithm_ + "-" + name;
    return !written.empty() && is_valid_field_key(own) ? own : algorithm_;
  }
  std::string path_, algorithm_;
  uint64_t vertices_;
  ResultWriteOptions options_;
  std::vector<std::unique_ptr<OutputFile>> files_;  // written, not yet committed
};

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

LoadOptions graph_load_options(const GraphOptionValues& values,
                               const ProgramDescription& description) {
  LoadOptions options = to_load_options(values);
  if (const std::string applied = apply_requirements(description, options.build);
      !applied.empty())
    std::cout << applied << "\n";
  if (description.needs_in_edges) options.build.transpose = true;
  if (description.weights != WeightType::none) {
    const WeightType requested = options.build.weights.convert_to;
    if (requested != WeightType::none && requested != description.weights)
      throw InputError::in("--weight-type", description.name + " reads its weights as " +
                                                to_string(description.weights));
    options.build.weights.convert_to = description.weights;
  }
  return options;
}

void check_graph(const GraphFacts& graph, const std::string& source,
                 const ProgramDescription& description) {
  if (description.weights != WeightType::none && graph.weight_type == WeightType::none)
    throw InputError::in(source, description.name +
                                     " reads edge weights, but the graph has none: load them "
                                     "with --weights=unit or --weights=hash[:MAX]");
  if (graph.whole) check_requirements(description, *graph.whole, source);
  else check_requirements(description, graph.share_weights, source);
  for (const ProgramParameter& parameter : description.parameters)
    if (parameter.is_node && node_value(parameter) >= graph.vertices)
      throw InputError::in("--" + option_name(parameter.name),
                           "vertex " + std::to_string(node_value(parameter)) +
                               " is out of range: the graph has " +
                               std::to_string(graph.vertices) + " vertices");
}

// Where a renumbered graph's original ids go, beside the result file.
std::string original_ids_path(const std::string& output) { return output + ".ids"; }

// Writes the last run's outputs as result files (the first to `output`,
// others to `output.NAME`), their headers naming the parameters' values.
// For a renumbered graph (--renumber) the values stay in the graph's ids,
// as irgl-check reads them; OUTPUT.ids holds each line's original id, and
// the headers name it.
std::vector<WrittenOutput> write_results(const std::string& output, bool force,
                                         const ProgramDescription& description,
                                         const GraphFacts& graph) {
  ResultWriteOptions write_options;
  write_options.overwrite = force;
  for (const ProgramParameter& parameter : description.parameters)
    write_options.fields.push_back({parameter.name, parameter_text(parameter)});
  const std::string ids = original_ids_path(output);
  if (graph.renumbered())
    write_options.fields.push_back({"original-ids", ids.substr(ids.rfind('/') + 1)});
  if (output == "-" && recorded_outputs().size() > 1)
    throw InputError::in("--output", description.name + " writes " +
                                         std::to_string(recorded_outputs().size()) +
                                         " outputs; standard output ('-') takes one: name a "
                                         "file");
  if (graph.renumbered())
    for (size_t i = 1; i < recorded_outputs().size(); ++i)
      if (recorded_outputs()[i].name == "ids")
        throw InputError::in("--renumber", description.name +
                                               "'s output 'ids' would be written to " + ids +
                                               ", where the original ids go");
  ResultFileWriter writer(output, description.name, graph.vertices, write_options);
  for (const RecordedOutput& recorded : recorded_outputs()) recorded.write(writer);
  if (writer.written.empty())
    throw InputError::in(description.name, "the program produced no output()");
  if (graph.renumbered()) write_original_ids(writer.add("original-ids", ids), *graph.whole);
  writer.commit();
  for (const WrittenOutput& file : writer.written)
    std::cout << "output " << file.path << " ("
              << (file.name == "original-ids" ? "the original id of each line" : file.name)
              << ")\n";
  return writer.written;
}

// Prints the energy of the measured runs (or why not) and returns it for
// the JSON report; null when the target measures no energy.
nlohmann::ordered_json energy_report(const EnergyReading& interval,
                                     const std::vector<double>& run_times, double interval_ms,
                                     const char* which_runs) {
  if (!interval.millijoules && interval.why_not.empty()) return nullptr;
  const EnergySummary energy = summarize_energy(interval, run_times, interval_ms);
  if (!energy.millijoules_per_run) {
    std::printf("energy: not measured (%s)\n", energy.why_not.c_str());
    return {{"unavailable", energy.why_not}};
  }
  std::printf("energy: %.3f mJ per run, %.1f W on average over %zu %s of %.0f ms (%s)\n",
              *energy.millijoules_per_run, *energy.watts, run_times.size(), which_runs,
              interval_ms, energy.source.c_str());
  nlohmann::ordered_json report = {{"mJ_per_run", *energy.millijoules_per_run},
                                   {"watts", *energy.watts},
                                   {"source", energy.source},
                                   {"runs", run_times.size()},
                                   {"interval_ms", interval_ms}};
  if (interval.sm_clock_mhz) report["sm_clock_mhz"] = *interval.sm_clock_mhz;
  if (interval.temperature_c) report["temperature_c"] = *interval.temperature_c;
  if (interval.sm_clock_mhz && interval.temperature_c)
    std::printf("gpu after the runs: SM clock %u MHz, %u C\n", *interval.sm_clock_mhz,
                *interval.temperature_c);
  return report;
}

// Writes the target's load log, refusing to replace a file unless `force`.
void write_load_report_file(const std::string& path, bool force, const ProgramTarget& target) {
  OutputFile file(path, force);
  std::ostringstream text;
  target.write_load_report(text);
  file.write(text.str());
  file.commit();
  std::cout << "load report " << path << "\n";
}

}  // namespace

EnergySummary summarize_energy(const EnergyReading& interval, const std::vector<double>& run_times,
                               double interval_ms) {
  EnergySummary summary;
  summary.source = interval.source;
  if (!interval.millijoules || run_times.empty()) {
    summary.why_not = interval.why_not.empty() ? "no run was measured" : interval.why_not;
    return summary;
  }
  if (interval_ms < kEnergyMinMilliseconds) {
    char why[240];
    std::snprintf(why, sizeof why,
                  "the runs took %.1f ms in all; NVML's counter needs %.0f ms of runs to mean "
                  "anything: raise --runs, or give --energy-ms 2000",
                  interval_ms, kEnergyMinMilliseconds);
    summary.why_not = why;
    return summary;
  }
  double run_ms = 0;
  for (double ms : run_times) run_ms += ms;
  summary.watts = *interval.millijoules / interval_ms;
  summary.millijoules_per_run = *summary.watts * run_ms / run_times.size();
  return summary;
}

int run_program(int argc, char** argv, const ProgramDescription& description,
                ProgramTarget& target) {
  auto body = [&](int argc, char** argv) -> int {
    GraphOptionValues graph_values;
    std::string graph_source, output, load_report, json_path;
    unsigned runs = 1, warmup = 0, energy_ms = 0;
    uint64_t random_seed = 1;
    std::vector<const ProgramParameter*> random_nodes;
    bool force = false;
    const bool needs_graph = description.needs_graph;
    po::options_description options(description.name + " (generated by irglc from " +
                                    description.source + ", target " + description.target +
                                    ")\nUsage: " + description.name +
                                    (needs_graph ? " [options] GRAPH" : " [options]") +
                                    "\nOptions");
    options.add_options()("help,h", "show this help");
    // A program without a graph still reads one positional argument, to say
    // it takes none.
    po::options_description graph_argument;
    (needs_graph ? options : graph_argument)
        .add_options()("graph", po::value(&graph_source),
                       "graph file or generator spec (rmat:, grid:, uniform:)");
    options.add_options()(
        "output,o", po::value(&output), "write the results to this file (checker format; - for standard output)")(
        "force", po::bool_switch(&force), "replace an existing --output file")(
        "runs", unsigned_value(&runs, "--runs")->default_value("1"),
        "timed runs of the whole driver")(
        "warmup", unsigned_value(&warmup, "--warmup")->default_value("0"),
        "untimed runs before them")(
        "json", po::value(&json_path),
        "write a report of the run as JSON to this file (- for standard output): the graph, "
        "the parameters, every run's time and vertices, the result summaries, the outputs");
    if (std::any_of(description.parameters.begin(), description.parameters.end(),
                    [](const ProgramParameter& parameter) { return parameter.is_node; }))
      options.add_options()("random-seed",
                            unsigned_value(&random_seed, "--random-seed")->default_value("1"),
                            "seed of the vertices chosen for vertex parameters given as random");
    if (target.repeats_runs_for_energy())
      options.add_options()(
          "energy-ms", unsigned_value(&energy_ms, "--energy-ms")->default_value("0"),
          "measure the energy over back-to-back untimed runs lasting this long (NVML's counter "
          "needs 500 ms or more; 2000 reads within 1%), before the timed runs; 0: over the timed "
          "runs");
    if (target.records_load())
      options.add_options()("load-report", po::value(&load_report),
                            "write the last run's load log (per-block edges, vertices per path) "
                            "as JSON, for tools/plot-load.py");
    const std::vector<TargetOption> target_options = target.options(description);
    for (const TargetOption& option : target_options)
      options.add_options()(option.name.c_str(), po::value<std::string>(), option.help.c_str());
    po::options_description parameters("Program parameters");
    for (const ProgramParameter& parameter : description.parameters)
      add_parameter(parameters, parameter, random_nodes);
    po::options_description graph_options("Graph loading");
    add_graph_options(graph_options, graph_values);
    options.add(parameters);
    if (needs_graph) options.add(graph_options);
    po::positional_options_description positional;
    positional.add("graph", 1);

    const bool help = std::any_of(argv + 1, argv + argc, [](const char* arg) {
      return std::string(arg) == "--help" || std::string(arg) == "-h";
    });
    if (help) {
      std::cout << options << "\nSchedules: " << description.schedules << "\n";
      return 0;
    }
    po::options_description parsed;
    parsed.add(options).add(graph_argument);
    const po::variables_map values =
        parse_command_line(description.name, argc, argv, parsed, &positional);
    if (needs_graph && graph_source.empty())
      throw InputError::in(description.name, "no graph given (see --help)");
    if (!needs_graph && !graph_source.empty())
      throw InputError::in(description.name, "takes no graph (its program has no Graph "
                                             "parameter), but was given '" + graph_source + "'");
    if (runs == 0) throw InputError::in("--runs", "must be at least 1");

    // A bad output path fails now, not after the runs.
    if (output == "-" && json_path == "-")
      throw InputError::in("--json", "--output already writes to standard output");
    for (const std::string* path : {&output, &json_path}) {
      if (*path == "-") OutputFile::reserve_standard_output();
      else if (!path->empty()) OutputFile::check(*path, force);
    }
    if (graph_values.renumber && output == "-")
      throw InputError::in("--output", "with --renumber the original ids are written to a "
                                       "file beside the result: name a file, not '-'");
    if (graph_values.renumber && !output.empty())
      OutputFile::check(original_ids_path(output), force);
    if (!load_report.empty()) OutputFile::check(load_report, force);

    for (const TargetOption& option : target_options)
      if (values.count(option.name))
        std::cout << option.apply(values[option.name].as<std::string>()) << "\n";

    // A program without a graph runs on an empty one, which it never sees.
    // A multi-GPU process loads only its share of a binary CSR or a
    // generated graph.
    const auto load_start = std::chrono::steady_clock::now();
    CsrGraph whole;
    std::optional<GraphTotals> share;
    if (needs_graph) {
      const LoadOptions load_options = graph_load_options(graph_values, description);
      share = target.load_share(graph_source, load_options);
      if (!share) whole = load_graph(graph_source, load_options);
    }
    const GraphFacts graph = share ? facts_of(*share) : facts_of(whole);
    const double load_ms = milliseconds_since(load_start);
    if (needs_graph) check_graph(graph, graph_source, description);

    const std::string device = target.device_name();
    std::cout << "program " << description.name << " (" << description.source << "), target "
              << description.target << " on " << device << "\n";
    const auto prepare_start = std::chrono::steady_clock::now();
    if (share) target.prepare_share();
    else if (needs_graph) target.prepare(whole);
    const double prepare_ms = milliseconds_since(prepare_start);
    if (needs_graph)
      std::printf("graph %s: %llu vertices, %llu edges (load %.1f ms, prepare %.1f ms)\n",
                  graph_source.c_str(), static_cast<unsigned long long>(graph.vertices),
                  static_cast<unsigned long long>(graph.edges), load_ms, prepare_ms);

    std::optional<RandomVertices> random;
    if (!random_nodes.empty())
      random.emplace(graph, random_seed, "--" + option_name(random_nodes[0]->name));
    // Picks the random vertices of the next run; " (source 17)" for its line.
    auto choose_vertices = [&](nlohmann::ordered_json* record) {
      std::string chosen;
      for (const ProgramParameter* parameter : random_nodes) {
        const uint64_t vertex = random->next();
        set_node_value(*parameter, vertex);
        chosen += std::string(chosen.empty() ? " (" : ", ") + parameter->name + " " +
                  std::to_string(vertex);
        if (graph.renumbered())
          chosen += " = input id " + std::to_string(graph.whole->original_id(vertex));
        if (record) (*record)[parameter->name] = vertex;
      }
      return chosen.empty() ? chosen : chosen + ")";
    };

    for (unsigned i = 0; i < warmup; ++i) {
      choose_vertices(nullptr);
      recorded_outputs().clear();
      target.run();
    }
    // Energy over back-to-back runs of --energy-ms, before the timed runs
    // (whose last answers the program reports) and with the vertices they
    // will take; else over the timed runs.
    std::vector<double> energy_times;
    EnergyReading energy_interval;
    double energy_interval_ms = 0;
    if (energy_ms > 0) {
      const std::optional<RandomVertices> timed_vertices = random;
      const auto energy_start = std::chrono::steady_clock::now();
      target.start_energy();
      do {
        choose_vertices(nullptr);
        recorded_outputs().clear();
        energy_times.push_back(target.run());
      } while (milliseconds_since(energy_start) < energy_ms);
      energy_interval = target.stop_energy();
      energy_interval_ms = milliseconds_since(energy_start);
      if (timed_vertices) random.emplace(*timed_vertices);
    }
    std::vector<double> times;
    nlohmann::ordered_json run_records = nlohmann::ordered_json::array();
    const auto timed_start = std::chrono::steady_clock::now();
    if (energy_ms == 0) target.start_energy();
    for (unsigned i = 0; i < runs; ++i) {
      nlohmann::ordered_json record;
      const std::string chosen = choose_vertices(&record);
      recorded_outputs().clear();
      times.push_back(target.run());
      record["ms"] = times.back();
      run_records.push_back(std::move(record));
      // Six decimals below 0.1 ms, so that a run of a tiny graph never reads
      // as 0 (tools/bench divides by it).
      std::printf(times.back() < 0.1 ? "run %u: %.6f ms%s\n" : "run %u: %.3f ms%s\n", i + 1,
                  times.back(), chosen.c_str());
    }
    if (energy_ms == 0) {
      energy_interval = target.stop_energy();
      energy_interval_ms = milliseconds_since(timed_start);
      energy_times = times;
    }
    const TimeSummary time_summary = summarize_times(times);
    print_time_summary(time_summary, times.size());
    const nlohmann::ordered_json energy =
        energy_report(energy_interval, energy_times, energy_interval_ms,
                      energy_ms > 0 ? "untimed runs" : "timed runs");
    const std::string run_summary = target.run_summary();
    std::istringstream summary_lines(run_summary);
    for (std::string line; std::getline(summary_lines, line);)
      std::cout << line << " (last run)\n";
    ResultSummary results(description.name, graph.vertices);
    for (const RecordedOutput& recorded : recorded_outputs()) recorded.write(results);
    for (const std::string& line : results.lines()) std::cout << line << "\n";

    const bool reports = target.reports();
    if (!load_report.empty() && reports) write_load_report_file(load_report, force, target);
    std::vector<WrittenOutput> written;
    if (!output.empty() && reports) written = write_results(output, force, description, graph);

    if (!json_path.empty() && reports) {
      nlohmann::ordered_json report = {
          {"program", description.name},
          {"source", description.source},
          {"target", description.target},
          {"device", device},
          {"graph", needs_graph ? nlohmann::ordered_json{{"source", graph_source},
                                                         {"vertices", graph.vertices},
                                                         {"edges", graph.edges},
                                                         {"load_ms", load_ms},
                                                         {"prepare_ms", prepare_ms}}
                                : nlohmann::ordered_json()},
          {"warmup", warmup},
          {"runs", run_records},
          {"time_ms",
           {{"median", time_summary.median}, {"min", time_summary.min}, {"max", time_summary.max}}},
          {"results", results.json()}};
      for (const ProgramParameter& parameter : description.parameters)
        report["parameters"][parameter.name] = parameter_text(parameter);
      if (!run_summary.empty()) report["run_summary"] = run_summary;
      if (!energy.is_null()) report["energy"] = energy;
      report["outputs"] = nlohmann::ordered_json::array();
      for (const WrittenOutput& file : written)
        report["outputs"].push_back({{"name", file.name}, {"path", file.path}});
      OutputFile file(json_path, force);
      file.write(report.dump(2) + "\n");
      file.commit();
    }
    std::cout.flush();
    return 0;
  };
  return run_tool_main(description.name, body, argc, argv);
}

}  // namespace irgl::lang
