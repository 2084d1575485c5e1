// Parallel loops over the edges of a CSR adjacency, balanced by edge count
// rather than by vertex count (internal to the graph library).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "irgl/support/parallel.h"

namespace irgl {

// The vertex whose list holds edge e: offsets[v] <= e < offsets[v + 1].
// `offsets` must be monotone with offsets.back() > e.
inline uint64_t vertex_of_edge(const std::vector<uint64_t>& offsets, uint64_t e) {
  return static_cast<uint64_t>(std::upper_bound(offsets.begin(), offsets.end(), e) -
                               offsets.begin()) -
         1;
}

// Calls body(lo, hi, v, worker) for disjoint edge ranges [lo, hi) covering all
// edges, v being the vertex that owns edge lo; one contiguous range per
// worker, in worker order (as parallel_chunks).
template <class Body>
void parallel_edge_chunks(const std::vector<uint64_t>& offsets, Body&& body) {
  parallel_chunks(0, offsets.back(), [&](uint64_t lo, uint64_t hi, unsigned worker) {
    if (lo < hi) body(lo, hi, vertex_of_edge(offsets, lo), worker);
  });
}

// Calls body(v, e, worker) for every edge e of vertex v, in parallel.
template <class Body>
void parallel_for_edges(const std::vector<uint64_t>& offsets, Body&& body) {
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
template <class Bad>
uint64_t find_first_edge(const std::vector<uint64_t>& offsets, Bad&& bad) {
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
