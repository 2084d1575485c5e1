// The host graph: compressed sparse row (CSR) with 32-bit vertex ids and
// 64-bit edge offsets, so graphs with more than 2^31 edges work.
//
//   out_offsets[v] .. out_offsets[v+1]  are the out-edges of v (edge ids)
//   out_targets[e]                      the destination of edge e
//   out_weights[e]                      its weight, when the graph has weights
//
// A transpose (CSC, in-edges) is optional and stored the same way: in_offsets,
// in_sources, in_weights. Weights are 32-bit words whose meaning is given by
// `weight_type` (signed integers or IEEE floats); read them through
// weights<T>(), which checks the type.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace irgl {

using VertexId = uint32_t;
using EdgeId = uint64_t;

// The largest number of vertices a graph may have (ids are 32-bit and
// UINT32_MAX is reserved as "no vertex").
inline constexpr uint64_t kMaxVertices = std::numeric_limits<uint32_t>::max();
inline constexpr VertexId kNoVertex = std::numeric_limits<uint32_t>::max();

enum class WeightType : uint8_t { none = 0, int32 = 1, float32 = 2 };

const char* to_string(WeightType type);

namespace detail {
template <class T>
constexpr WeightType weight_type_of();
template <>
constexpr WeightType weight_type_of<int32_t>() { return WeightType::int32; }
template <>
constexpr WeightType weight_type_of<float>() { return WeightType::float32; }
}  // namespace detail

// A read-only view of one direction of a graph (CSR for out-edges, CSC for
// in-edges).
struct Adjacency {
  const uint64_t* offsets = nullptr;   // num_vertices + 1 entries
  const VertexId* neighbors = nullptr; // targets (out) or sources (in)
  const uint32_t* weight_words = nullptr;  // nullptr when unweighted

  uint64_t begin(VertexId v) const { return offsets[v]; }
  uint64_t end(VertexId v) const { return offsets[v + 1]; }
  uint64_t degree(VertexId v) const { return offsets[v + 1] - offsets[v]; }
};

class CsrGraph {
 public:
  CsrGraph() = default;

  uint64_t num_vertices() const { return num_vertices_; }
  uint64_t num_edges() const { return out_targets.size(); }

  uint64_t out_degree(VertexId v) const { return out_offsets[v + 1] - out_offsets[v]; }
  uint64_t in_degree(VertexId v) const { return in_offsets[v + 1] - in_offsets[v]; }

  bool has_weights() const { return weight_type != WeightType::none; }
  bool has_transpose() const { return !in_offsets.empty(); }

  Adjacency out() const {
    return {out_offsets.data(), out_targets.data(),
            has_weights() ? out_weights.data() : nullptr};
  }
  Adjacency in() const {
    return {in_offsets.data(), in_sources.data(),
            has_weights() ? in_weights.data() : nullptr};
  }

  // The weight of out-edge e as T (int32_t or float); throws std::logic_error
  // when the graph's weights are of another type or absent.
  template <class T>
  T out_weight(EdgeId e) const {
    check_weight_type(detail::weight_type_of<T>());
    T value;
    std::memcpy(&value, &out_weights[e], sizeof(T));
    return value;
  }
  // Same for in-edge e of the transpose.
  template <class T>
  T in_weight(EdgeId e) const {
    check_weight_type(detail::weight_type_of<T>());
    T value;
    std::memcpy(&value, &in_weights[e], sizeof(T));
    return value;
  }

  // Sets the vertex count; the arrays must be filled to match.
  void set_num_vertices(uint64_t n) { num_vertices_ = n; }

  // Builds in_offsets/in_sources/in_weights from the out-edges (in parallel).
  // In-adjacency lists come out sorted by source.
  void build_transpose();
  void drop_transpose();

  // Checks every structural invariant (offsets monotone and consistent, ids in
  // range, weight arrays sized right); throws std::logic_error naming the
  // first violation. Used by tests and after loading untrusted binary files.
  void validate() const;

  // Where the graph came from, for messages and reports ("karate.mtx",
  // "rmat:scale=20,...").
  std::string name;

  WeightType weight_type = WeightType::none;
  // Set when every edge (u,v) has its reverse (v,u) with the same weight, as
  // after loading a symmetric MatrixMarket file or symmetrizing.
  bool symmetric = false;
  // Set when each adjacency list is sorted by neighbor id.
  bool sorted = false;

  std::vector<uint64_t> out_offsets{0};
  std::vector<VertexId> out_targets;
  std::vector<uint32_t> out_weights;  // empty when weight_type == none

  std::vector<uint64_t> in_offsets;  // empty unless the transpose was built
  std::vector<VertexId> in_sources;
  std::vector<uint32_t> in_weights;

  // Empty unless the vertices were renumbered (--renumber): then
  // original_ids[v] is the id vertex v had in the input, strictly increasing
  // in v (vertex v is the v-th smallest id that occurs in an edge).
  std::vector<VertexId> original_ids;
  bool renumbered() const { return !original_ids.empty(); }
  // The input's id of vertex v: original_ids[v], or v itself.
  uint64_t original_id(VertexId v) const { return renumbered() ? original_ids[v] : v; }

 private:
  void check_weight_type(WeightType wanted) const;

  uint64_t num_vertices_ = 0;
};

}  // namespace irgl
