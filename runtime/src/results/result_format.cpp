#include "irgl/results/result_format.h"

namespace irgl {

const std::vector<ResultFormat>& known_result_formats() {
  using Shape = ResultShape;
  using Syntax = ValueSyntax;
  static const std::vector<ResultFormat> formats = {
      {"bfs", Shape::per_vertex, Syntax::distance, "hop distance from the source"},
      {"sssp", Shape::per_vertex, Syntax::distance, "weighted distance from the source"},
      {"cc", Shape::per_vertex, Syntax::label, "connected component label"},
      {"pr", Shape::per_vertex, Syntax::real, "PageRank"},
      {"kcore", Shape::per_vertex, Syntax::membership, "membership in the k-core"},
      {"tc", Shape::scalar, Syntax::count, "number of triangles"},
      {"sssp_real", Shape::per_vertex, Syntax::real, "distance over real weights from the source"},
      {"tc_per_vertex", Shape::per_vertex, Syntax::count, "triangles at the vertex"},
      {"scc", Shape::per_vertex, Syntax::label, "strongly connected component label"},
      {"mis", Shape::per_vertex, Syntax::membership, "membership in a maximal independent set"},
      {"coloring", Shape::per_vertex, Syntax::label, "colour", "colour"},
      {"spmv", Shape::per_vertex, Syntax::real, "entry of y = A x"},
      {"bc", Shape::per_vertex, Syntax::real, "betweenness centrality"},
      {"jaccard", Shape::per_vertex, Syntax::real, "Jaccard similarity with the source"},
      {"louvain", Shape::per_vertex, Syntax::label, "community label", "community"},
      {"vector", Shape::per_vertex, Syntax::real, "vector entry"},
  };
  return formats;
}

const ResultFormat* find_result_format(std::string_view algorithm) {
  for (const ResultFormat& format : known_result_formats())
    if (format.algorithm == algorithm) return &format;
  return nullptr;
}

std::string known_algorithm_names() {
  std::string names;
  for (const ResultFormat& format : known_result_formats()) {
    if (!names.empty()) names += ", ";
    names += format.algorithm;
  }
  return names;
}

bool is_valid_field_key(std::string_view key) {
  if (key.empty() || key[0] < 'a' || key[0] > 'z') return false;
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  return true;
}

}  // namespace irgl
