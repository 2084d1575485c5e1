//===- LibraryMode.h - a program as a library function (--emit=library) --===//
//
// Both targets' library mode: a header declaring the program's outputs as a
// Result struct and `Result run(graph, parameters...)`, and that entry point,
// which runs the driver and copies the outputs out; on the GPU also
// `DeviceResult run_on_device(...)`, which leaves them there. The targets differ only
// in the graph they take and how they read it and its outputs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "CodeWriter.h"
#include "irglc/Backend/Backend.h"

namespace irglc {

struct LibraryTarget {
  std::string graph_type;       // the entry point's graph parameter
  std::string graph_header;     // the header that declares it
  std::string where;            // "on the GPU", "on the host"
  std::string graph_where;      // "already on the GPU", ...
  std::string has_in_edges;     // a member of the graph: whether it holds in-edges
  std::string in_edges_hint;    // how a user gives the graph its in-edges
  std::string weight_type;      // a member of the graph: its irgl::WeightType
  std::string run_setup;        // before the driver's call: its run state and graph view
  std::string run_setup_without_graph;  // the same for a program without a graph
  std::string graph_argument;   // the driver's graph argument
  std::string run_argument;     // the driver's last argument (empty: none)
  std::string read_field;       // appended to a field's name to copy it to the host
  // Whether the entry checks the graph against the program's require()
  // (the host can read a CsrGraph; a DeviceGraph's edges are on the GPU).
  bool checks_requirements = false;
  // Whether there is also run_on_device(), which leaves the outputs on the
  // GPU (DeviceResult).
  bool device_entry = false;
};

// How library mode reads `target`'s graph and outputs.
const LibraryTarget& library_target(Target target);

// The program's require() as written: "symmetric", ...,
// "path_lengths_fit(dist)".
std::vector<std::string> requirement_names(const Module& module);

// The outputs of the driver, in the order it first writes them.
std::vector<std::string> collect_outputs(const Module& module);

// What the entry point's source includes: its checks, <mutex> and its header.
void write_library_includes(CodeWriter& out, const BackendOptions& options);

// The header (Result, run's declaration) and the entry point's definition.
std::string write_library_header(const Module& module, const BackendOptions& options,
                                 const std::vector<std::string>& outputs,
                                 const LibraryTarget& target);
void write_library_entry(CodeWriter& out, const Module& module, const std::vector<std::string>& outputs,
                         const LibraryTarget& target);

}  // namespace irglc
