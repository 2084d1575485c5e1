// Writing a graph in any of the formats irgl-graph convert and generate
// produce, chosen by the output's name:
//
//   .csr                      our binary CSR format (binary_format.h)
//   .mtx                      MatrixMarket coordinate: pattern, integer (int32
//                             weights) or real (float32 weights); symmetric
//                             storage (one triangle) for symmetric graphs
//   .el .txt .edges .wel      edge list: "u v" or "u v w" per line, after a
//                             "# Nodes: N Edges: M" comment that keeps the
//                             vertex count
//   .tsv                      the same, separated by tabs
//   .csv                      the same, comma-separated, after a header line
//                             "source,target" or "source,target,weight"
//
// Weights are written when the graph has them (whatever the extension), int32
// as integers and float32 in the shortest form that reads back to the same
// float, always with a '.' or an exponent, so that every text output reads
// back (load_graph, default options) to the same edges, weights, weight type
// and vertex count. Every write goes through OutputFile: '-' is standard
// output, devices and pipes are written directly, regular files appear
// complete or not at all, and an existing file is replaced only with
// `overwrite`.
#pragma once

#include <optional>
#include <string>

#include "irgl/graph/csr_graph.h"

namespace irgl {

class OutputFile;

enum class OutputFormat : uint8_t { irgl_binary, matrix_market, edge_list, tsv, csv };

// "csr", "mtx", "edgelist", "tsv", "csv".
const char* to_string(OutputFormat format);

// Parses the names above; throws InputError naming `option` on anything else.
OutputFormat parse_output_format(const std::string& name, const std::string& option);

// The format the extension of `path` names, or nothing for a name without
// one of the extensions above.
std::optional<OutputFormat> output_format_of(const std::string& path);

// The format to write `path` in: `requested` when given; else the one its
// extension names; else, for `path_is_stream` ("-", a device or a pipe),
// binary. Throws InputError naming `path` for an unknown extension or a
// compressed one (.gz, .xz: not written), so that callers can check before
// any work is done.
OutputFormat choose_output_format(const std::string& path, bool path_is_stream,
                                  std::optional<OutputFormat> requested);

// Writes `graph` (its out-edges) to `path` in `format`. Vertices are written
// with their ids in `graph` (after any renumbering); the binary format also
// keeps a renumbered graph's original ids, text formats do not (see
// write_original_ids). Long writes report progress on stderr, as loads do,
// unless `show_progress` is false.
void write_graph(const std::string& path, const CsrGraph& graph, OutputFormat format,
                 bool overwrite, bool show_progress = true);

// Writes the original id of every vertex (CsrGraph::original_id), one per
// line: line v + 1 holds the id vertex v had in the input. The same text
// for a graph that was not renumbered is 0, 1, ..., n - 1.
void write_original_ids(const std::string& path, const CsrGraph& graph, bool overwrite);
// The same into `file`, which the caller commits (see OutputFile).
void write_original_ids(OutputFile& file, const CsrGraph& graph);

}  // namespace irgl
