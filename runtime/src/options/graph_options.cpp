#include "irgl/options/graph_options.h"

#include <boost/program_options.hpp>
#include <cstdlib>

#include "irgl/support/error.h"

namespace po = boost::program_options;

namespace irgl {

void add_graph_options(po::options_description& description, GraphOptionValues& values) {
  description.add_options()
      ("format", po::value(&values.format)->default_value(values.format),
       "graph file format: mtx, edgelist, dimacs, galois, csr or auto (from the file)")
      ("symmetrize", po::bool_switch(&values.symmetrize), "add the reverse of every edge")
      ("drop-self-loops", po::bool_switch(&values.drop_self_loops), "remove (v, v) edges")
      ("drop-duplicates", po::bool_switch(&values.drop_duplicates),
       "keep one copy of repeated edges (the lightest)")
      ("simple", po::bool_switch(&values.simple),
       "same as --symmetrize --drop-self-loops --drop-duplicates")
      ("no-sort", po::bool_switch(&values.no_sort), "keep adjacency lists in file order")
      ("transpose", po::bool_switch(&values.transpose), "also build the in-edges (CSC)")
      ("renumber", po::bool_switch(&values.renumber),
       "number the vertex ids that occur in edges 0, 1, ... in increasing order, dropping the "
       "others (for sparse ids, e.g. SNAP edge lists); the original ids are kept")
      ("header", po::bool_switch(&values.header),
       "the edge list's first line that is not a comment names the columns (files named .csv "
       "may have one without this)")
      ("weights", po::value(&values.weights)->default_value(values.weights),
       "edge weights: file, none, unit, or hash[:MAX[:SEED]] (1 + hash(u,v) mod MAX, "
       "symmetric; MAX defaults to 100)")
      ("weight-type", po::value(&values.weight_type)->default_value(values.weight_type),
       "convert weights to int or float (keep: as in the file)")
      ("cache-dir", po::value(&values.cache_dir),
       "cache parsed and generated graphs in this directory (default: $IRGL_CACHE_DIR)")
      ("quiet", po::bool_switch(&values.quiet), "no progress messages");
}

namespace {

uint64_t parse_unsigned(const std::string& text, const std::string& option,
                        const std::string& what) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || text[0] == '-')
    throw InputError::in(option, what + " '" + text + "' is not a non-negative integer");
  return value;
}

}  // namespace

WeightRule parse_weight_rule(const std::string& text, const std::string& option) {
  WeightRule rule;
  using Source = WeightRule::Source;
  if (text == "file") return rule;
  if (text == "none") {
    rule.source = Source::none;
    return rule;
  }
  if (text == "unit") {
    rule.source = Source::unit;
    return rule;
  }
  if (text.rfind("hash", 0) == 0 && (text.size() == 4 || text[4] == ':')) {
    rule.source = Source::hash;
    if (text.size() > 4) {
      const std::string rest = text.substr(5);
      const auto colon = rest.find(':');
      const uint64_t max = parse_unsigned(rest.substr(0, colon), option, "maximum weight");
      if (max < 1 || max > 0x7fffffffull)
        throw InputError::in(option, "maximum weight " + std::to_string(max) +
                                         " is not in 1..2147483647");
      rule.max = static_cast<uint32_t>(max);
      if (colon != std::string::npos)
        rule.seed = parse_unsigned(rest.substr(colon + 1), option, "seed");
    }
    return rule;
  }
  throw InputError::in(option, "unknown weight rule '" + text +
                                   "' (expected file, none, unit or hash[:MAX[:SEED]])");
}

LoadOptions to_load_options(const GraphOptionValues& values) {
  LoadOptions options;
  options.format = parse_graph_format(values.format, "--format");
  BuildOptions& build = options.build;
  build.symmetrize = values.symmetrize || values.simple;
  build.drop_self_loops = values.drop_self_loops || values.simple;
  build.drop_duplicates = values.drop_duplicates || values.simple;
  build.sort_adjacency = !values.no_sort;
  build.transpose = values.transpose;
  build.renumber = values.renumber;
  build.weights = parse_weight_rule(values.weights, "--weights");
  if (values.weight_type == "int")
    build.weights.convert_to = WeightType::int32;
  else if (values.weight_type == "float")
    build.weights.convert_to = WeightType::float32;
  else if (values.weight_type != "keep")
    throw InputError::in("--weight-type", "unknown type '" + values.weight_type +
                                              "' (expected keep, int or float)");
  options.cache_dir = values.cache_dir;
  if (options.cache_dir.empty())
    if (const char* env = std::getenv("IRGL_CACHE_DIR")) options.cache_dir = env;
  options.show_progress = !values.quiet;
  options.edge_list_header = values.header;
  return options;
}

po::variables_map parse_command_line(const std::string& tool, int argc, char** argv,
                                     const po::options_description& description,
                                     const po::positional_options_description* positional) {
  po::variables_map map;
  try {
    po::command_line_parser parser(argc, argv);
    parser.options(description);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), map);
    po::notify(map);
  } catch (const po::error& error) {
    throw InputError::in(tool, std::string(error.what()) + " (see --help)");
  }
  return map;
}

}  // namespace irgl
