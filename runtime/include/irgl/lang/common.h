// Language types shared by every target of irglc: the CPU prelude (irgl.h)
// and the CUDA runtime (cuda.cuh) build on these, so a statement the compiler
// copies from a .irgl file means the same on the host and on the GPU.
//
// Graph is a trivially copyable view of a CSR graph (and optionally its
// transpose): on the GPU its pointers are device pointers and it is passed to
// kernels by value.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

// Relative, as all of the prelude's includes: irglc type-checks programs
// with only this directory on the include path.
#include "../support/host_device.h"

namespace irgl::lang {

using Node = uint32_t;
using Edge = uint64_t;

// "Unreached" for uint32 vertex data (levels, distances, labels).
inline constexpr uint32_t INF = 0xffffffffu;

// The integers [first, last) as a range for range-based for loops.
template <class T>
class IndexRange {
 public:
  class iterator {
   public:
    IRGL_HD explicit iterator(T value) : value_(value) {}
    IRGL_HD T operator*() const { return value_; }
    IRGL_HD iterator& operator++() {
      ++value_;
      return *this;
    }
    IRGL_HD bool operator!=(const iterator& other) const { return value_ != other.value_; }
    IRGL_HD bool operator==(const iterator& other) const { return value_ == other.value_; }

   private:
    T value_;
  };
  IRGL_HD IndexRange(T first, T last) : first_(first), last_(last) {}
  IRGL_HD iterator begin() const { return iterator(first_); }
  IRGL_HD iterator end() const { return iterator(last_); }
  IRGL_HD T size() const { return last_ - first_; }

 private:
  T first_, last_;
};

// A block task's task variable (docs/language.md#tasks) lives in memory
// that the task's parallel loops share; its declaration initialises a copy
// first, which this moves there (arrays included: the types are trivially
// copyable).
template <class T>
IRGL_HD void set_task_variable(T& variable, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>, "task variables are copied as bytes");
  memcpy(&variable, &value, sizeof(T));
}

using NodeRange = IndexRange<Node>;
using EdgeRange = IndexRange<Edge>;

// One direction of adjacency: CSR (out-edges) or CSC (in-edges).
struct AdjacencyView {
  const uint64_t* offsets = nullptr;    // num_nodes + 1
  const Node* neighbors = nullptr;      // destinations (out) or sources (in)
  const uint32_t* weights = nullptr;    // 32-bit words, or nullptr
};

// A graph as programs see it. Edge ids index the out-edge arrays, except the
// ids produced by in_edges(), which index the in-edge arrays: the compiler
// routes weight() of an in-edge loop variable to in_weight().
class Graph {
 public:
  Graph() = default;
  IRGL_HD Graph(uint32_t nodes, uint64_t edges, AdjacencyView out, AdjacencyView in)
      : nodes_(nodes), edges_(edges), out_(out), in_(in), end_owned_(nodes) {}

  IRGL_HD uint32_t num_nodes() const { return nodes_; }
  IRGL_HD uint64_t num_edges() const { return edges_; }
  // The vertices vertex loops run over: all of them, or in a part of a
  // multi-GPU run (docs/multi-gpu.md) the part's masters.
  IRGL_HD NodeRange nodes() const { return NodeRange(first_owned_, end_owned_); }
  IRGL_HD Node first_owned() const { return first_owned_; }
  IRGL_HD uint32_t owned_nodes() const { return end_owned_ - first_owned_; }
  // A part of a multi-GPU run: its masters [first, end), and every
  // vertex's out-degree in the whole graph (device memory; null: the
  // part's own edges count, as when it holds all of a vertex's out-edges).
  void set_part(Node first, Node end, const uint32_t* global_out_degrees) {
    first_owned_ = first;
    end_owned_ = end;
    global_out_degrees_ = global_out_degrees;
  }

  IRGL_HD EdgeRange out_edges(Node n) const { return EdgeRange(out_.offsets[n], out_.offsets[n + 1]); }
  IRGL_HD EdgeRange in_edges(Node n) const { return EdgeRange(in_.offsets[n], in_.offsets[n + 1]); }
  IRGL_HD Edge out_begin(Node n) const { return out_.offsets[n]; }
  IRGL_HD Edge out_end(Node n) const { return out_.offsets[n + 1]; }
  IRGL_HD Edge in_begin(Node n) const { return in_.offsets[n]; }
  IRGL_HD Edge in_end(Node n) const { return in_.offsets[n + 1]; }
  IRGL_HD uint64_t out_degree(Node n) const {
    return global_out_degrees_ ? global_out_degrees_[n] : out_.offsets[n + 1] - out_.offsets[n];
  }
  IRGL_HD uint64_t in_degree(Node n) const { return in_.offsets[n + 1] - in_.offsets[n]; }

  // Destination of out-edge e.
  IRGL_HD Node dst(Edge e) const { return out_.neighbors[e]; }
  // Source of in-edge e (an edge id from in_edges()).
  IRGL_HD Node src(Edge e) const { return in_.neighbors[e]; }

  // Weight of out-edge e as T: int32_t (integer weights) or float.
  template <class T = int32_t>
  IRGL_HD T weight(Edge e) const { return word_as<T>(out_.weights[e]); }
  template <class T = int32_t>
  IRGL_HD T out_weight(Edge e) const { return word_as<T>(out_.weights[e]); }
  // Weight of in-edge e.
  template <class T = int32_t>
  IRGL_HD T in_weight(Edge e) const { return word_as<T>(in_.weights[e]); }

  // The largest out- / in-degree (0 when unknown); ALB skips its inspection
  // when no vertex can exceed its threshold.
  IRGL_HD uint64_t max_out_degree() const { return max_out_degree_; }
  IRGL_HD uint64_t max_in_degree() const { return max_in_degree_; }
  void set_max_degrees(uint64_t out, uint64_t in) {
    max_out_degree_ = out;
    max_in_degree_ = in;
  }

  // This graph with its adjacency arrays placed by `place` (read-only
  // copies, e.g. in one block's shared memory:
  // gpu/schedule/shared_placement.cuh), its vertices and degrees as they
  // are; `place` learns its largest degree.
  template <class Place>
  IRGL_HD Graph placed(Place& place) const {
    place.note_degree(max_out_degree_ > max_in_degree_ ? max_out_degree_ : max_in_degree_);
    Graph copy = *this;
    copy.out_ = placed(place, out_);
    copy.in_ = placed(place, in_);
    return copy;
  }

  IRGL_HD bool has_weights() const { return out_.weights != nullptr; }
  IRGL_HD bool has_in_edges() const { return in_.offsets != nullptr; }
  IRGL_HD const AdjacencyView& out() const { return out_; }
  IRGL_HD const AdjacencyView& in() const { return in_; }

 private:
  template <class T>
  IRGL_HD static T word_as(uint32_t word) {
    static_assert(sizeof(T) == 4, "edge weights are 32-bit words");
    union {
      uint32_t word;
      T value;
    } pun{word};
    return pun.value;
  }

  template <class Place>
  IRGL_HD AdjacencyView placed(Place& place, const AdjacencyView& view) const {
    if (!view.offsets) return view;
    return {place.read_only(view.offsets, uint64_t(nodes_) + 1),
            place.read_only(view.neighbors, edges_), place.read_only(view.weights, edges_)};
  }

  uint32_t nodes_ = 0;
  uint64_t edges_ = 0;
  AdjacencyView out_{};
  AdjacencyView in_{};
  uint64_t max_out_degree_ = 0;
  uint64_t max_in_degree_ = 0;
  Node first_owned_ = 0, end_owned_ = 0;
  const uint32_t* global_out_degrees_ = nullptr;
};

// Values a kernel writes to a program output, for result files.
enum class OutputKind { vertex_values, scalar };

}  // namespace irgl::lang
