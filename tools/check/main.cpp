// irgl-check: verifies a graph program's result file against a reference
// answer computed on the CPU (see docs/results.md and --help).
//
// Exit status: 0 the result is correct, 1 it is wrong, 2 the check could not
// be made (bad option, unreadable or malformed graph or result file).

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "compare.h"
#include "louvain.h"
#include "irgl/graph/load.h"
#include "irgl/options/graph_options.h"
#include "irgl/results/result_reader.h"
#include "irgl/support/error.h"
#include "reference.h"

namespace po = boost::program_options;

namespace irgl::check {
namespace {

constexpr const char* kTool = "irgl-check";
constexpr int kExitPass = 0;
constexpr int kExitFail = 1;
constexpr int kExitCannotCheck = 2;

// Louvain's communities depend on the order of its moves: networkx's
// random orders spread over 7.6% of modularity on west0067 (67 vertices),
// 0.5% on a 30 x 30 grid. louvain.irgl's parallel order lands 4.4% below
// the sequential id order on west0067 (0.4% below networkx's worst of 30
// orders), 1.4% on the grid, within 1% on the larger datasets.
constexpr double kDefaultModularityTolerance = 0.05;
constexpr double kDefaultResolution = 1;
constexpr double kDefaultLouvainThreshold = 1e-7;
constexpr double kNoTolerance = -1;

// The algorithms irgl-check verifies (the result format also knows "vector",
// which is an input, not a result to check), whether each takes a --source,
// and its default --tolerance (kNoTolerance: it takes none). Every list of
// names in the messages is read from here.
struct AlgorithmRules {
  std::string_view name;
  bool takes_source;
  double default_tolerance;
};
constexpr AlgorithmRules kAlgorithms[] = {
    {"bfs", true, kNoTolerance},
    {"sssp", true, kNoTolerance},
    {"sssp_real", true, 1e-12},
    {"cc", false, kNoTolerance},
    {"scc", false, kNoTolerance},
    {"pr", false, 1e-4},
    {"kcore", false, kNoTolerance},
    {"tc", false, kNoTolerance},
    {"tc_per_vertex", false, kNoTolerance},
    {"spmv", false, 1e-5},
    {"mis", false, kNoTolerance},
    {"coloring", false, kNoTolerance},
    {"bc", true, 1e-9},
    {"jaccard", true, 1e-12},
    {"louvain", false, kDefaultModularityTolerance},
};

const AlgorithmRules* rules_of(std::string_view algorithm) {
  for (const AlgorithmRules& rules : kAlgorithms)
    if (rules.name == algorithm) return &rules;
  return nullptr;
}

// "a, b and c" (`last` "or" for "a, b or c") of the algorithms that `keep`.
template <class Keep>
std::string algorithm_names(Keep keep, const char* last = "and") {
  std::vector<std::string_view> names;
  for (const AlgorithmRules& rules : kAlgorithms)
    if (keep(rules)) names.push_back(rules.name);
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += std::string(i == 0 ? "" : i + 1 == names.size() ? std::string(" ") + last + " " : ", ") +
            std::string(names[i]);
  return text;
}

std::string algorithm_list() {
  return algorithm_names([](const AlgorithmRules&) { return true; }, "or");
}

constexpr const char* kUsage =
    "usage: irgl-check [graph options] --algorithm ALGO [options] GRAPH RESULT\n"
    "\n"
    "Checks RESULT, a result file written by a graph program (docs/results.md),\n"
    "against an answer computed here on the CPU for GRAPH (a file or a generator\n"
    "spec), loaded with the same graph options as the program under test.\n";

constexpr const char* kRules =
    "Algorithms and what passes:\n"
    "  bfs    hop distance from --source over out-edges; every value equal\n"
    "         (unreachable = inf)\n"
    "  sssp   distance from --source over out-edges with the graph's int32\n"
    "         weights (must be >= 0); every value equal (unreachable = inf)\n"
    "  sssp_real  distance from --source over out-edges with the graph's float\n"
    "         weights (must be >= 0) summed in double along each path; passes when\n"
    "         every |result_v - ref_v| <= T * max(1, |ref_v|), T = --tolerance\n"
    "         (default 1e-12), unreachable = inf on both sides\n"
    "  cc     component labels on the undirected view; labels must give the same\n"
    "         partition as the connected components (any label values)\n"
    "  pr     PR(v) = (1-d)/N + d*(sum over in-edges (u,v) of PR(u)/outdeg(u) + D/N),\n"
    "         D = total rank of vertices without out-edges, d = --damping, from\n"
    "         PR = 1/N until the L1 change < 1e-12; passes when\n"
    "         sum_v |result_v - ref_v| <= T (so also every |result_v - ref_v| <= T),\n"
    "         T = --tolerance (default 1e-4)\n"
    "  kcore  1 for the vertices of the --k core of the undirected simple view,\n"
    "         0 for the others; every value equal\n"
    "  tc     number of triangles of the undirected simple view; equal\n"
    "  tc_per_vertex  the triangles of the undirected simple view each vertex\n"
    "         belongs to; every value equal\n"
    "  scc    strongly connected component labels along out-edges; labels must\n"
    "         give the same partition (any label values)\n"
    "  mis    1 for the members of a maximal independent set of the undirected\n"
    "         view, 0 for the others: no two members adjacent, every other vertex\n"
    "         next to a member (any such set passes)\n"
    "  coloring  a colour (integer >= 0) per vertex, neighbours of the undirected\n"
    "         view differing (any proper colouring passes; colours are counted)\n"
    "  spmv   y = A x, A[u][v] = weight of edge u->v (1 if unweighted, parallel\n"
    "         edges summed), x[j] = 1 + (j mod 7)/8 or --x FILE; passes when every\n"
    "         |result_i - y_i| <= T * sum_j |A_ij x_j| + 1e-6, T = --tolerance\n"
    "         (default 1e-5)\n"
    "  bc     betweenness centrality (Brandes) along out-edges, unweighted, a\n"
    "         repeated edge once: sum over sources s and targets t, s != v != t, of\n"
    "         sigma_st(v) / sigma_st (unnormalized; with --endpoints 1 also 1 for\n"
    "         each t a source reaches and that count at the source); the sources are\n"
    "         (--source + i) mod N, i < --sources (0 or >= N: every vertex); passes\n"
    "         when every |result_v - ref_v| <= T * max(1, |ref_v|), T = --tolerance\n"
    "         (default 1e-9)\n"
    "  jaccard  Jaccard similarity |N(s) & N(v)| / |N(s) | N(v)| with s = --source\n"
    "         on the undirected simple view (0 when both are empty); passes when\n"
    "         every |result_v - ref_v| <= T * max(1, |ref_v|), T = --tolerance\n"
    "         (default 1e-12)\n"
    "  louvain  community labels (any values) on the graph read as undirected\n"
    "         (an edge u -> v joins u and v with its weight, 1 when unweighted;\n"
    "         a self-loop counts twice in its vertex's weight); passes when their modularity is at least that of\n"
    "         irgl-check's sequential Louvain (vertices in id order) less T times\n"
    "         its magnitude, T = --tolerance (default 0.05); --resolution,\n"
    "         --threshold and --max-levels as the program's\n"
    "--source, --sources, --endpoints, --k, --resolution, --threshold and\n"
    "--max-levels default to the result file's '# source', '# sources',\n"
    "'# endpoints', '# k', '# resolution', '# threshold' and '# max_levels'\n"
    "fields (bc: source 0, every vertex, no endpoints; louvain: resolution 1,\n"
    "threshold 1e-7, no level limit).\n"
    "\n"
    "Exit status: 0 correct, 1 wrong (mismatches on stdout), 2 the check could not\n"
    "be made (bad option, unreadable or malformed graph or result file).\n";

struct CheckOptions {
  GraphOptionValues graph;
  std::string algorithm;
  std::string source;
  std::string sources;
  std::string endpoints;
  std::string k;
  std::string tolerance;
  std::string damping;
  std::string resolution;
  std::string threshold;
  std::string max_levels;
  std::string x_file;
  std::string max_mismatches = "10";
  std::string graph_source;
  std::string result_path;
};

uint64_t parse_unsigned_option(const std::string& text, const char* option) {
  uint64_t value;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || ptr != end)
    throw InputError::in(option, "'" + text + "' is not a non-negative integer");
  return value;
}

double parse_real_option(const std::string& text, const char* option) {
  double value;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || ptr != end || !std::isfinite(value) || value < 0)
    throw InputError::in(option, "'" + text + "' is not a non-negative number");
  return value;
}

// The option value if given, else the result file's header field `key`; the
// two must agree when both are present.
std::optional<uint64_t> option_or_field(const std::string& text, const char* option,
                                        const ResultFile& result, const char* key) {
  const std::optional<uint64_t> from_file = result.unsigned_field(key);
  if (text.empty()) return from_file;
  const uint64_t value = parse_unsigned_option(text, option);
  if (from_file && *from_file != value)
    throw InputError::in(option, std::to_string(value) + " disagrees with the result file's '" +
                                     key + " " + std::to_string(*from_file) + "' (" +
                                     result.path + ")");
  return value;
}

bool takes_source(const std::string& algorithm) { return rules_of(algorithm)->takes_source; }
bool takes_tolerance(const std::string& algorithm) {
  return rules_of(algorithm)->default_tolerance != kNoTolerance;
}

// Rejects options that the algorithm does not use, so a mistyped command
// line is not silently half-ignored.
void reject_unused_options(const CheckOptions& options) {
  const std::string& algorithm = options.algorithm;
  const struct {
    bool given;
    bool used;
    const char* name;
    std::string users;
  } rules[] = {
      {!options.source.empty(), takes_source(algorithm), "--source",
       algorithm_names([](const AlgorithmRules& r) { return r.takes_source; })},
      {!options.sources.empty(), algorithm == "bc", "--sources", "bc"},
      {!options.endpoints.empty(), algorithm == "bc", "--endpoints", "bc"},
      {!options.k.empty(), algorithm == "kcore", "--k", "kcore"},
      {!options.tolerance.empty(), takes_tolerance(algorithm), "--tolerance",
       algorithm_names([](const AlgorithmRules& r) { return r.default_tolerance != kNoTolerance; })},
      {!options.damping.empty(), algorithm == "pr", "--damping", "pr"},
      {!options.resolution.empty(), algorithm == "louvain", "--resolution", "louvain"},
      {!options.threshold.empty(), algorithm == "louvain", "--threshold", "louvain"},
      {!options.max_levels.empty(), algorithm == "louvain", "--max-levels", "louvain"},
      {!options.x_file.empty(), algorithm == "spmv", "--x", "spmv"},
  };
  for (const auto& rule : rules)
    if (rule.given && !rule.used)
      throw InputError::in(rule.name, std::string("only applies to ") + rule.users +
                                          ", not " + algorithm);
}

// The parsed and cross-checked settings of one check.
struct CheckSettings {
  std::string algorithm;
  std::optional<uint64_t> source;  // bfs, sssp, bc, jaccard
  uint64_t sources = 0;            // bc: how many (0: every vertex)
  bool endpoints = false;          // bc: paths count at their ends too
  std::optional<uint64_t> k;       // kcore
  double tolerance = 0;            // pr, spmv, bc, jaccard
  double damping = 0;              // pr
  double resolution = 0;           // louvain
  double threshold = 0;            // louvain
  uint64_t max_levels = 0;         // louvain: 0 for no limit
  uint64_t max_shown = 0;
  std::string x_file;  // spmv
};

// The option value if given, else the result file's real header field
// `key`, else `fallback`; the two must agree when both are present.
double real_option_or_field(const std::string& text, const char* option, const ResultFile& result,
                            const char* key, double fallback) {
  const ResultHeaderField* field = result.field(key);
  const std::optional<double> from_file =
      field ? std::optional<double>(parse_real_option(field->value, key)) : std::nullopt;
  if (text.empty()) return from_file.value_or(fallback);
  const double value = parse_real_option(text, option);
  if (from_file && *from_file != value)
    throw InputError::in(option, text + " disagrees with the result file's '" + key + " " +
                                     field->value + "' (" + result.path + ")");
  return value;
}

// Parses the option values; source, sources, k, resolution and threshold
// may come from the result's header.
CheckSettings settle(const CheckOptions& options, const ResultFile& result) {
  CheckSettings settings;
  const std::string& algorithm = settings.algorithm = options.algorithm;
  settings.max_shown = parse_unsigned_option(options.max_mismatches, "--max-mismatches");
  settings.x_file = options.x_file;
  if (algorithm == "bc") {
    settings.source = option_or_field(options.source, "--source", result, "source").value_or(0);
    settings.sources =
        option_or_field(options.sources, "--sources", result, "sources").value_or(0);
    const uint64_t endpoints =
        option_or_field(options.endpoints, "--endpoints", result, "endpoints").value_or(0);
    if (endpoints > 1)
      throw InputError::in("--endpoints", std::to_string(endpoints) + " is not 0 or 1");
    settings.endpoints = endpoints == 1;
  }
  if (algorithm == "bfs" || algorithm == "sssp" || algorithm == "sssp_real" ||
      algorithm == "jaccard") {
    settings.source = option_or_field(options.source, "--source", result, "source");
    if (!settings.source)
      throw InputError::in("--source", algorithm +
                                           " needs a source vertex (give --source or a "
                                           "'# source' line in the result file)");
  }
  if (algorithm == "kcore") {
    settings.k = option_or_field(options.k, "--k", result, "k");
    if (!settings.k)
      throw InputError::in("--k", "kcore needs k (give --k or a '# k' line in the result file)");
  }
  if (algorithm == "louvain") {
    settings.resolution = real_option_or_field(options.resolution, "--resolution", result,
                                               "resolution", kDefaultResolution);
    settings.threshold = real_option_or_field(options.threshold, "--threshold", result,
                                              "threshold", kDefaultLouvainThreshold);
    settings.max_levels =
        option_or_field(options.max_levels, "--max-levels", result, "max_levels").value_or(0);
  }
  if (takes_tolerance(algorithm))
    settings.tolerance = options.tolerance.empty()
                             ? rules_of(algorithm)->default_tolerance
                             : parse_real_option(options.tolerance, "--tolerance");
  if (algorithm == "pr") {
    settings.damping = options.damping.empty() ? PagerankParams().damping
                                               : parse_real_option(options.damping, "--damping");
    if (settings.damping >= 1)
      throw InputError::in("--damping", "'" + options.damping + "' is not below 1");
  }
  return settings;
}

std::vector<double> spmv_x(const std::string& x_file, const CsrGraph& graph) {
  if (x_file.empty()) return default_spmv_x(graph.num_vertices());
  ResultFile x = read_result_file(x_file, "vector");
  x.check_vertex_count(graph.num_vertices());
  return std::move(x.real_values);
}

// The source vertex; an InputError when it is not in the graph.
VertexId checked_source(const CheckSettings& settings, const CsrGraph& graph) {
  if (*settings.source >= graph.num_vertices())
    throw InputError::in("--source", "vertex " + std::to_string(*settings.source) +
                                         " is not in the graph (it has " +
                                         std::to_string(graph.num_vertices()) + " vertices)");
  return static_cast<VertexId>(*settings.source);
}

// bc's sources for the description: "every vertex", "vertex 3" or "4
// sources starting at vertex 0".
std::string betweenness_sources(VertexId source, uint64_t sources, uint64_t n) {
  const uint64_t count = betweenness_source_count(n, sources);
  if (count == n) return "every vertex";
  if (count == 1) return "vertex " + std::to_string(source);
  return std::to_string(count) + " sources starting at vertex " + std::to_string(source);
}

// Computes the reference answer for the algorithm and compares; adds the
// algorithm's parameters to `description`.
Verdict check_result(const CheckSettings& settings, const ResultFile& result,
                     const CsrGraph& graph, std::string& description) {
  const std::string& algorithm = settings.algorithm;
  if (algorithm == "bfs" || algorithm == "sssp") {
    const VertexId source = checked_source(settings, graph);
    description += " from vertex " + std::to_string(source);
    const std::vector<uint64_t> expected =
        algorithm == "bfs" ? reference_bfs(graph, source) : reference_sssp(graph, source);
    return compare_distances(expected, result.unsigned_values, source, settings.max_shown);
  }
  if (algorithm == "cc")
    return compare_partitions(reference_components(UndirectedGraph(graph)),
                              result.signed_values, settings.max_shown);
  if (algorithm == "kcore") {
    description += " with k = " + std::to_string(*settings.k);
    return compare_membership(reference_core_numbers(UndirectedGraph(graph)), *settings.k,
                              result.unsigned_values, settings.max_shown);
  }
  if (algorithm == "scc")
    return compare_partitions(reference_strong_components(graph), result.signed_values,
                              settings.max_shown);
  if (algorithm == "mis")
    return check_independent_set(UndirectedGraph(graph), result.unsigned_values,
                                 settings.max_shown);
  if (algorithm == "coloring")
    return check_coloring(UndirectedGraph(graph), result.signed_values, settings.max_shown);
  if (algorithm == "tc")
    return compare_count(reference_triangles(UndirectedGraph(graph)),
                         result.unsigned_values.at(0));
  if (algorithm == "tc_per_vertex")
    return compare_distances(reference_vertex_triangles(UndirectedGraph(graph)),
                             result.unsigned_values, kNoVertex, settings.max_shown);
  if (algorithm == "pr") {
    PagerankParams params;
    params.damping = settings.damping;
    return compare_pagerank(reference_pagerank(graph, params).rank, result.real_values,
                            settings.tolerance, settings.max_shown);
  }
  if (algorithm == "bc") {
    const VertexId source = checked_source(settings, graph);
    description +=
        " from " + betweenness_sources(source, settings.sources, graph.num_vertices()) +
        (settings.endpoints ? ", endpoints counted" : "");
    return compare_relative(
        reference_betweenness(graph, source, settings.sources, settings.endpoints),
        result.real_values, settings.tolerance, settings.max_shown);
  }
  if (algorithm == "sssp_real") {
    const VertexId source = checked_source(settings, graph);
    description += " from vertex " + std::to_string(source);
    return compare_relative(reference_sssp_real(graph, source), result.real_values,
                            settings.tolerance, settings.max_shown);
  }
  if (algorithm == "jaccard") {
    const VertexId source = checked_source(settings, graph);
    description += " with vertex " + std::to_string(source);
    return compare_relative(reference_jaccard(UndirectedGraph(graph), source),
                            result.real_values, settings.tolerance, settings.max_shown);
  }
  if (algorithm == "louvain") {
    description += " at resolution " + format_real(settings.resolution);
    const double reference = modularity(
        graph, reference_louvain(graph, settings.resolution, settings.threshold, settings.max_levels),
        settings.resolution);
    return compare_modularity(reference, modularity(graph, result.signed_values, settings.resolution),
                              settings.tolerance);
  }
  // spmv: the only algorithm left (parse_options checked the name).
  return compare_spmv(reference_spmv(graph, spmv_x(settings.x_file, graph)),
                      result.real_values, settings.tolerance, settings.max_shown);
}

// Parses the command line; returns false after printing --help.
bool parse_options(int argc, char** argv, CheckOptions& options) {
  po::options_description check("Check options");
  check.add_options()
      ("help,h", "print this help and exit")
      ("algorithm,a", po::value(&options.algorithm),
       (algorithm_list() + " (required)").c_str())
      ("source", po::value(&options.source),
       "bfs, sssp, sssp_real, jaccard: the source vertex; bc: the first source (default: the "
       "result's '# source'; bc: 0)")
      ("sources", po::value(&options.sources),
       "bc: how many sources, 0 for every vertex (default: the result's '# sources'; "
       "0)")
      ("endpoints", po::value(&options.endpoints),
       "bc: 1 when paths count at their ends too (default: the result's '# endpoints'; 0)")
      ("k", po::value(&options.k), "kcore: the k (default: the result's '# k')")
      ("tolerance", po::value(&options.tolerance),
       "pr: bound on the L1 error (default 1e-4); spmv: relative bound (default 1e-5); "
       "bc, jaccard, sssp_real: relative bound (default 1e-9, 1e-12, 1e-12); louvain: "
       "how far below the reference's modularity, relative (default 0.05)")
      ("damping", po::value(&options.damping), "pr: the damping factor d (default 0.85)")
      ("resolution", po::value(&options.resolution),
       "louvain: the modularity's resolution (default: the result's '# resolution'; 1)")
      ("threshold", po::value(&options.threshold),
       "louvain: the least modularity gain of a level (default: the result's '# threshold'; "
       "1e-7)")
      ("max-levels", po::value(&options.max_levels),
       "louvain: the most levels, 0 for no limit (default: the result's '# max_levels'; 0)")
      ("x", po::value(&options.x_file),
       "spmv: read x from this result file ('# algorithm vector', one value per vertex)")
      ("max-mismatches",
       po::value(&options.max_mismatches)->default_value(options.max_mismatches),
       "print at most this many mismatching vertices");
  po::options_description graph("Graph options (as for the program under test)");
  add_graph_options(graph, options.graph);
  po::options_description hidden;
  hidden.add_options()
      ("graph-source", po::value(&options.graph_source))
      ("result", po::value(&options.result_path));
  po::options_description all;
  all.add(check).add(graph).add(hidden);
  po::positional_options_description positional;
  positional.add("graph-source", 1).add("result", 1);

  const po::variables_map map = parse_command_line(kTool, argc, argv, all, &positional);
  if (map.count("help")) {
    std::cout << kUsage << '\n' << check << '\n' << graph << '\n' << kRules;
    return false;
  }
  if (options.graph_source.empty() || options.result_path.empty())
    throw InputError::in(kTool, "expected a GRAPH and a RESULT file (see --help)");
  if (options.algorithm.empty())
    throw InputError::in("--algorithm", "missing (" + algorithm_list() + ")");
  if (!rules_of(options.algorithm))
    throw InputError::in("--algorithm", "unknown algorithm '" + options.algorithm +
                                            "' (expected " + algorithm_list() + ")");
  reject_unused_options(options);
  return true;
}

int run_check(int argc, char** argv) {
  CheckOptions options;
  if (!parse_options(argc, argv, options)) return kExitPass;
  LoadOptions load = to_load_options(options.graph);
  // Read the result first: a malformed file fails before a long graph load.
  const ResultFile result = read_result_file(options.result_path, options.algorithm);
  const CheckSettings settings = settle(options, result);
  if (options.algorithm == "pr") load.build.transpose = true;  // pagerank pulls over in-edges
  const CsrGraph graph = load_graph(options.graph_source, load);
  result.check_vertex_count(graph.num_vertices());

  std::string description = options.algorithm + " on " + options.graph_source + " (" +
                            std::to_string(graph.num_vertices()) + " vertices, " +
                            std::to_string(graph.num_edges()) + " edges)";
  const Verdict verdict = check_result(settings, result, graph, description);
  for (const std::string& line : verdict.shown) std::cout << line << '\n';
  if (verdict.mismatches > verdict.shown.size() && !verdict.shown.empty())
    std::cout << "... (" << verdict.mismatches - verdict.shown.size() << " more)\n";
  std::cout << kTool << ": " << (verdict.passed ? "PASS" : "FAIL") << ": " << description
            << ": " << verdict.summary << '\n';
  return verdict.passed ? kExitPass : kExitFail;
}

// Input errors exit with 2 (run_tool_main would use 1), so that they cannot be
// mistaken for a wrong answer.
int check_main(int argc, char** argv) {
  try {
    return run_check(argc, argv);
  } catch (const InputError& error) {
    std::cerr << error.what() << '\n';
    return kExitCannotCheck;
  }
}

}  // namespace
}  // namespace irgl::check

int main(int argc, char** argv) {
  return irgl::run_tool_main("irgl-check", irgl::check::check_main, argc, argv);
}
