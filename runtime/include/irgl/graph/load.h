// Loading a graph from a file or a generator spec.
//
//   CsrGraph g = load_graph("road/rome99.gr.xz", options);
//   CsrGraph r = load_graph("rmat:scale=20,edge-factor=16,seed=1", options);
//
// Files: MatrixMarket coordinate (.mtx), SNAP-style edge lists (.txt .el .tsv
// .csv .snap .edges .wel; an optional third column is a weight), DIMACS
// shortest-path (.gr text), Galois binary .gr version 1, and our binary CSR
// (.csr). Text formats may be gzip- or xz-compressed (detected from the
// content, not the name). `.gr` is told apart by content (binary Galois files
// start with the version word 1; DIMACS files with 'c' or 'p').
//
// Generator specs: see generators.h (rmat:, grid:, uniform:).
//
// Errors (missing file, bad content, bad spec) throw InputError with a
// one-line located message.
#pragma once

#include <memory>
#include <string>

#include "irgl/graph/csr_graph.h"
#include "irgl/graph/edge_list.h"

namespace irgl {

class MappedCsrFile;  // binary_format.h

enum class GraphFormat : uint8_t {
  automatic,
  matrix_market,
  edge_list,
  dimacs,
  galois_binary,
  irgl_binary,
};

const char* to_string(GraphFormat format);
// Parses "mtx", "edgelist", "dimacs", "galois", "csr", "auto"; throws
// InputError naming `option` on anything else.
GraphFormat parse_graph_format(const std::string& name, const std::string& option);

struct LoadOptions {
  GraphFormat format = GraphFormat::automatic;
  BuildOptions build;
  // When non-empty, a parsed text graph or a generated graph is stored in this
  // directory in the binary CSR format, and later loads with the same source
  // (path, size and modification time, or spec) and the same build options
  // read the binary file instead. Never writes next to the input.
  std::string cache_dir;
  bool show_progress = true;
  // The edge list's first line that is not a comment holds column names
  // (--header; files named .csv may have one without it). Only for edge
  // lists: other sources are refused.
  bool edge_list_header = false;
};

// True when `source` is a generator spec ("rmat:...", "grid:...",
// "uniform:...") rather than a path.
bool is_generator_spec(const std::string& source);

CsrGraph load_graph(const std::string& source, const LoadOptions& options);

// The graph load_graph(source, options) returns, as a binary CSR file
// mapped into memory, where one holds exactly that graph: the load-cache
// entry when there is one, or a .csr source that the build options leave
// as it is (with the transpose they ask for). Null otherwise (and for
// --renumber, whose original ids a mapped file does not carry). A .csr
// source that is bad is an InputError, as for load_graph().
std::unique_ptr<MappedCsrFile> map_loaded_graph(const std::string& source,
                                                const LoadOptions& options);

// Detects the format of a file from its name and first bytes.
GraphFormat detect_format(const std::string& path);

}  // namespace irgl
