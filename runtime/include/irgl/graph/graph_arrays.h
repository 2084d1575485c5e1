// A read-only view of a whole graph's arrays wherever they live: a
// CsrGraph's vectors, or a binary CSR file mapped into memory
// (MappedCsrFile, binary_format.h), which a multi-GPU process reads its
// part from without copying the rest.
//
//   const MappedCsrFile file("rmat27.csr");
//   PartView part = build_part_view(file.arrays(), options);
#pragma once

#include <cstdint>
#include <string>

#include "irgl/graph/csr_graph.h"

namespace irgl {

struct GraphArrays {
  std::string name;
  uint64_t vertices = 0, edges = 0;
  WeightType weight_type = WeightType::none;
  bool symmetric = false, sorted = false;
  bool renumbered = false;  // the arrays' owner holds original ids
  Adjacency out, in;        // in.offsets null without a transpose

  bool has_weights() const { return weight_type != WeightType::none; }
  bool has_transpose() const { return in.offsets != nullptr; }
  uint64_t out_degree(VertexId v) const { return out.degree(v); }
};

inline GraphArrays arrays_of(const CsrGraph& graph) {
  GraphArrays arrays;
  arrays.name = graph.name;
  arrays.vertices = graph.num_vertices();
  arrays.edges = graph.num_edges();
  arrays.weight_type = graph.weight_type;
  arrays.symmetric = graph.symmetric;
  arrays.sorted = graph.sorted;
  arrays.renumbered = graph.renumbered();
  arrays.out = graph.out();
  if (graph.has_transpose()) arrays.in = graph.in();
  return arrays;
}

}  // namespace irgl
