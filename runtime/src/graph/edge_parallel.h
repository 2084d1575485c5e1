// Parallel loops over the edges of a CSR adjacency, balanced by edge count
// rather than by vertex count (internal to the graph library). Offsets are
// a std::vector or an ArrayView (arrays of a mapped file).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "irgl/support/parallel.h"

namespace irgl {

// A read-only array that some other object owns, with the members of a
// std::vector that the loops and checks here use.
template <class T>
struct ArrayView {
  const T* items = nullptr;
  uint64_t count = 0;

  ArrayView() = default;
  ArrayView(const T* items, uint64_t count) : items(items), count(count) {}
  ArrayView(const std::vector<T>& vector) : items(vector.data()), count(vector.size()) {}  // NOLINT
  uint64_t size() const { return count; }
  bool empty() const { return count == 0; }
  const T* data() const { return items; }
  const T* begin() const { return items; }
  const T* end() const { return items + count; }
  const T& back() const { return items[count - 1]; }
  const T& operator[](uint64_t i) const { return items[i]; }
};

// The vertex whose list holds edge e: offsets[v] <= e < offsets[v + 1].
// `offsets` must be monotone with offsets.back() > e.
template <class Offsets>
uint64_t vertex_of_edge(const Offsets& offsets, uint64_t e) {
  return static_cast<uint64_t>(std::upper_bound(offsets.begin(), offsets.end(), e) -
                               offsets.begin()) -
         1;
}

// Calls body(lo, hi, v, worker) for disjoint edge ranges [lo, hi) covering all
// edges, v being the vertex that owns edge lo; one contiguous range per
// worker, in worker order (as parallel_chunks).
template <class Offsets, class Body>
void parallel_edge_chunks(const Offsets& offsets, Body&& body) {
  parallel_chunks(0, offsets.back(), [&](uint64_t lo, uint64_t hi, unsigned worker) {
    if (lo < hi) body(lo, hi, vertex_of_edge(offsets, lo), worker);
  });
}

// Calls body(v, e, worker) for every edge e of vertex v, in parallel.
template <class Offsets, class Body>
void parallel_for_edges(const Offsets& offsets, Body&& body) {
  parallel_edge_chunks(offsets, [&](uint64_t lo, uint64_t hi, uint64_t v, unsigned worker) {
    for (uint64_t e = lo; e < hi; ++e) {
      while (offsets[v + 1] <= e) ++v;
      body(v, e, worker);
    }
  });
}

// The smallest i in [begin, end) with bad(i), or `end` when there is none.
template <class Bad>
uint64_t find_first(uint64_t begin, uint64_t end, Bad&& bad) {
  std::vector<uint64_t> first(parallel_chunk_count(begin, end), end);
  parallel_chunks(begin, end, [&](uint64_t lo, uint64_t hi, unsigned worker) {
    for (uint64_t i = lo; i < hi; ++i)
      if (bad(i)) {
        first[worker] = i;
        return;
      }
  });
  return *std::min_element(first.begin(), first.end());
}

// The smallest edge e with bad(v, e) (v owning e), or offsets.back().
template <class Offsets, class Bad>
uint64_t find_first_edge(const Offsets& offsets, Bad&& bad) {
  const uint64_t m = offsets.back();
  std::vector<uint64_t> first(parallel_chunk_count(0, m), m);
  parallel_edge_chunks(offsets, [&](uint64_t lo, uint64_t hi, uint64_t v, unsigned worker) {
    for (uint64_t e = lo; e < hi; ++e) {
      while (offsets[v + 1] <= e) ++v;
      if (bad(v, e)) {
        first[worker] = e;
        return;
      }
    }
  });
  return *std::min_element(first.begin(), first.end());
}

}  // namespace irgl
