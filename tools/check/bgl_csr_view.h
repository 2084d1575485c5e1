// A zero-copy Boost Graph Library view of a CsrGraph's out-edges, so that the
// reference algorithms run BGL's implementations directly on graphs of
// hundreds of millions of edges without building an adjacency_list.
//
// It models VertexListGraph and IncidenceGraph (directed). Vertices are the
// graph's VertexIds; an edge is its source and its CSR edge id. The vertex
// index map is the identity.
#pragma once

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>
#include <utility>

#include "irgl/graph/csr_graph.h"

namespace irgl::check {

struct BglCsrView {
  const CsrGraph* graph = nullptr;
};

struct BglCsrEdge {
  VertexId source = kNoVertex;
  EdgeId id = 0;
  friend bool operator==(const BglCsrEdge& a, const BglCsrEdge& b) { return a.id == b.id; }
  friend bool operator!=(const BglCsrEdge& a, const BglCsrEdge& b) { return a.id != b.id; }
};

// Walks the out-edges of one vertex.
class BglCsrOutEdgeIterator
    : public boost::iterator_facade<BglCsrOutEdgeIterator, BglCsrEdge,
                                    boost::random_access_traversal_tag, BglCsrEdge> {
 public:
  BglCsrOutEdgeIterator() = default;
  BglCsrOutEdgeIterator(VertexId source, EdgeId id) : source_(source), id_(id) {}

 private:
  friend class boost::iterator_core_access;
  BglCsrEdge dereference() const { return {source_, id_}; }
  bool equal(const BglCsrOutEdgeIterator& other) const { return id_ == other.id_; }
  void increment() { ++id_; }
  void decrement() { --id_; }
  void advance(std::ptrdiff_t n) { id_ += n; }
  std::ptrdiff_t distance_to(const BglCsrOutEdgeIterator& other) const {
    return static_cast<std::ptrdiff_t>(other.id_ - id_);
  }

  VertexId source_ = kNoVertex;
  EdgeId id_ = 0;
};

using BglVertexIterator = boost::counting_iterator<VertexId>;

// BGL's free functions, found by argument-dependent lookup.
inline std::pair<BglVertexIterator, BglVertexIterator> vertices(const BglCsrView& view) {
  return {BglVertexIterator(0),
          BglVertexIterator(static_cast<VertexId>(view.graph->num_vertices()))};
}
inline uint64_t num_vertices(const BglCsrView& view) { return view.graph->num_vertices(); }
inline std::pair<BglCsrOutEdgeIterator, BglCsrOutEdgeIterator> out_edges(
    VertexId v, const BglCsrView& view) {
  return {BglCsrOutEdgeIterator(v, view.graph->out_offsets[v]),
          BglCsrOutEdgeIterator(v, view.graph->out_offsets[v + 1])};
}
inline uint64_t out_degree(VertexId v, const BglCsrView& view) {
  return view.graph->out_degree(v);
}
inline VertexId source(const BglCsrEdge& edge, const BglCsrView&) { return edge.source; }
inline VertexId target(const BglCsrEdge& edge, const BglCsrView& view) {
  return view.graph->out_targets[edge.id];
}
inline boost::typed_identity_property_map<VertexId> get(boost::vertex_index_t,
                                                        const BglCsrView&) {
  return {};
}

}  // namespace irgl::check

namespace boost {

template <>
struct graph_traits<irgl::check::BglCsrView> {
  using vertex_descriptor = irgl::VertexId;
  using edge_descriptor = irgl::check::BglCsrEdge;
  using directed_category = directed_tag;
  using edge_parallel_category = allow_parallel_edge_tag;
  struct traversal_category : incidence_graph_tag, vertex_list_graph_tag {};
  using vertex_iterator = irgl::check::BglVertexIterator;
  using out_edge_iterator = irgl::check::BglCsrOutEdgeIterator;
  using degree_size_type = uint64_t;
  using vertices_size_type = uint64_t;
  using edges_size_type = uint64_t;
  static vertex_descriptor null_vertex() { return irgl::kNoVertex; }
};

template <>
struct property_map<irgl::check::BglCsrView, vertex_index_t> {
  using type = typed_identity_property_map<irgl::VertexId>;
  using const_type = type;
};

}  // namespace boost
