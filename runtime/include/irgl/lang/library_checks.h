// What a library entry point (irglc --emit=library) checks before it runs.
// Its caller built the graph, so no load could make it meet the program's
// require(), and its vertex parameters come from code, not a command line:
// a malformed graph, one that breaks a requirement, or a vertex parameter
// outside the graph is refused with std::invalid_argument saying what is
// wrong.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "irgl/graph/csr_graph.h"
#include "irgl/lang/program.h"

namespace irgl::lang {

// Refuses `graph` unless it is well formed (CsrGraph::validate()) and meets
// `description`'s requirements: the structural ones (symmetric, no
// self-loops, no duplicates, simple, sorted) checked rather than applied,
// then the weights (non-negative, path lengths that fit). Reads every edge; a symmetry or duplicate check on
// unsorted lists sorts a copy of the targets.
void check_library_graph(const ProgramDescription& description, const CsrGraph& graph);

// Refuses a vertex parameter (`parameter` of `program`) of `value` outside
// [0, vertices). Inline: the CUDA libraries link no irgl_program.
inline void check_library_vertex(const char* program, const char* parameter, uint64_t value,
                                 uint64_t vertices) {
  if (value < vertices) return;
  throw std::invalid_argument(std::string(program) + ": " + parameter + " " +
                              std::to_string(value) + " is not a vertex of the graph (it has " +
                              std::to_string(vertices) + ")");
}

}  // namespace irgl::lang
