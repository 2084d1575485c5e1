// The command-line options that say how to load a graph, shared by every tool
// and by generated programs so that a program and the result checker read the
// same graph from the same flags.
//
//   --format F            mtx | edgelist | dimacs | galois | csr | auto
//   --symmetrize          add the reverse of every edge
//   --drop-self-loops     remove (v, v) edges
//   --drop-duplicates     keep one copy of repeated edges (the lightest)
//   --simple              all three of the above
//   --no-sort             keep adjacency lists in file order
//   --transpose           also build in-edges (CSC)
//   --renumber            number the ids that occur in edges 0.. (in order)
//   --header              the edge list's first line names the columns
//   --weights W           file | none | unit | hash[:MAX[:SEED]]
//   --weight-type T       keep | int | float
//   --cache-dir DIR       binary CSR cache (default: $IRGL_CACHE_DIR, or none)
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/positional_options.hpp>
#include <boost/program_options/variables_map.hpp>
#include <string>

#include "irgl/graph/load.h"

namespace irgl {

struct GraphOptionValues {
  std::string format = "auto";
  bool symmetrize = false;
  bool drop_self_loops = false;
  bool drop_duplicates = false;
  bool simple = false;
  bool no_sort = false;
  bool transpose = false;
  bool renumber = false;
  bool header = false;
  std::string weights = "file";
  std::string weight_type = "keep";
  std::string cache_dir;
  bool quiet = false;
};

// Adds the options above to `description`, bound to `values`.
void add_graph_options(boost::program_options::options_description& description,
                       GraphOptionValues& values);

// Checks and converts the values; throws InputError naming the option on a bad
// value (e.g. "--weights: error: 'hash:x' ...").
LoadOptions to_load_options(const GraphOptionValues& values);

// Parses a weight rule ("unit", "hash:64:7", ...); `option` names the flag in
// errors.
WeightRule parse_weight_rule(const std::string& text, const std::string& option);

// Runs boost's parser and notify(), turning its exceptions (unknown option,
// missing value, bad number) into an InputError naming `tool` and the option.
boost::program_options::variables_map parse_command_line(
    const std::string& tool, int argc, char** argv,
    const boost::program_options::options_description& description,
    const boost::program_options::positional_options_description* positional = nullptr);

}  // namespace irgl
