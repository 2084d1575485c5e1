// Helpers for the graph file reader tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "formats.h"
#include "input_error.h"
#include "irgl/graph/load.h"
#include "irgl/support/error.h"

namespace irgl::testing {

// An in-memory text input.
inline TextInput text_input(std::string data, std::string name = "test.txt") {
  TextInput input;
  input.name = std::move(name);
  input.data = std::move(data);
  return input;
}

// Reads a file with the reader its format calls for (detected as load_graph
// does), without building a CSR graph.
inline EdgeList read_edges(const std::string& path) {
  switch (detect_format(path)) {
    case GraphFormat::matrix_market:
      return parse_matrix_market(read_text_input(path, false));
    case GraphFormat::dimacs:
      return parse_dimacs(read_text_input(path, false));
    case GraphFormat::galois_binary:
      return read_galois_binary(path, false);
    default:
      return parse_edge_list(read_text_input(path, false));
  }
}

using Edge = std::pair<VertexId, VertexId>;
using IntEdge = std::tuple<VertexId, VertexId, int32_t>;
using RealEdge = std::tuple<VertexId, VertexId, float>;

inline std::vector<Edge> edges_of(const EdgeList& edges) {
  std::vector<Edge> pairs;
  for (uint64_t e = 0; e < edges.size(); ++e)
    pairs.emplace_back(edges.sources[e], edges.targets[e]);
  return pairs;
}

// The edges with their weights read as T (int32_t or float).
template <class T>
std::vector<std::tuple<VertexId, VertexId, T>> weighted_edges_of(const EdgeList& edges) {
  std::vector<std::tuple<VertexId, VertexId, T>> triples;
  for (uint64_t e = 0; e < edges.size(); ++e) {
    T weight;
    std::memcpy(&weight, &edges.weights[e], sizeof weight);
    triples.emplace_back(edges.sources[e], edges.targets[e], weight);
  }
  return triples;
}

}  // namespace irgl::testing
