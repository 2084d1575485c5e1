// How a generated program meets its input requirements (irgl/lang/input.h):
// the structural ones become build options of the load; the others are
// checked on the loaded graph, which is refused with an InputError naming
// the graph, the requirement and what to do.
#pragma once

#include <string>

#include "irgl/graph/csr_graph.h"
#include "irgl/graph/edge_list.h"
#include "irgl/lang/program.h"

namespace irgl::lang {

// Adds to `options` what the requirements make the load do; returns a line
// that says so for the program's report ("" when they add nothing).
std::string apply_requirements(const ProgramDescription& description, BuildOptions& options);

// Refuses a graph that breaks a requirement no load option can meet: a
// negative weight, or weights that let a path's length overflow a field.
void check_requirements(const ProgramDescription& description, const CsrGraph& graph,
                        const std::string& source);

// A graph's weights as the checks read them, for a graph no process holds
// whole (the parts of a multi-GPU run combine theirs).
struct WeightTotals {
  WeightType type = WeightType::none;
  int64_t largest = 0;  // int32 weights
  bool negative = false;
  uint64_t with_out_edges = 0;  // vertices with out-edges
};
void check_requirements(const ProgramDescription& description, const WeightTotals& weights,
                        const std::string& source);

}  // namespace irgl::lang
