#include "irgl/graph/csr_build.h"

#include <algorithm>

#include "irgl/support/parallel.h"
#include "load_progress.h"

namespace irgl {

namespace {

// Calls body(vertex_begin, vertex_end) over vertex ranges holding roughly equal
// numbers of edges, handed out dynamically to host_threads() workers; the
// current progress phase advances by each range's edges.
template <class Body>
void parallel_over_vertices_by_edges(const std::vector<uint64_t>& offsets, Body&& body) {
  const uint64_t n = offsets.size() - 1;
  const uint64_t m = offsets.back();
  const uint64_t pieces = std::max<uint64_t>(1, std::min<uint64_t>(n, host_threads() * 16ull));
  std::vector<uint64_t> bounds(pieces + 1, n);
  bounds[0] = 0;
  for (uint64_t p = 1; p < pieces; ++p) {
    const uint64_t edge = m / pieces * p + m % pieces * p / pieces;
    bounds[p] = std::upper_bound(offsets.begin(), offsets.end() - 1, edge) - offsets.begin() - 1;
    bounds[p] = std::max(bounds[p], bounds[p - 1]);
  }
  parallel_tasks(pieces, [&](uint64_t p, unsigned) {
    body(bounds[p], bounds[p + 1]);
    progress::advance(offsets[bounds[p + 1]] - offsets[bounds[p]]);
  });
}

}  // namespace

std::vector<uint64_t> count_occurrences(const std::vector<VertexId>& ids, uint64_t n) {
  std::vector<uint64_t> counts(n, 0);
  parallel_chunks(0, ids.size(), [&](uint64_t lo, uint64_t hi, unsigned) {
    progress::Counter counter;
    for (uint64_t i = lo; i < hi; ++i) {
      counter.add();
      __atomic_fetch_add(&counts[ids[i]], 1, __ATOMIC_RELAXED);
    }
  });
  return counts;
}

std::vector<uint64_t> count_to_offsets(const std::vector<uint64_t>& counts) {
  std::vector<uint64_t> offsets(counts.size() + 1, 0);
  const unsigned chunks = parallel_chunk_count(0, counts.size());
  std::vector<uint64_t> chunk_sums(chunks + 1, 0);
  parallel_chunks(0, counts.size(), [&](uint64_t lo, uint64_t hi, unsigned w) {
    uint64_t sum = 0;
    for (uint64_t i = lo; i < hi; ++i) sum += counts[i];
    chunk_sums[w + 1] = sum;
  });
  for (unsigned w = 0; w < chunks; ++w) chunk_sums[w + 1] += chunk_sums[w];
  parallel_chunks(0, counts.size(), [&](uint64_t lo, uint64_t hi, unsigned w) {
    uint64_t running = chunk_sums[w];
    for (uint64_t i = lo; i < hi; ++i) {
      offsets[i] = running;
      running += counts[i];
    }
  });
  offsets[counts.size()] = chunk_sums[chunks];
  return offsets;
}

uint32_t weight_order_key(uint32_t word, WeightType type) {
  switch (type) {
    case WeightType::int32: return word ^ 0x80000000u;
    case WeightType::float32: return (word & 0x80000000u) ? ~word : (word | 0x80000000u);
    case WeightType::none: return 0;
  }
  return word;
}

void sort_adjacency_lists(const std::vector<uint64_t>& offsets, std::vector<VertexId>& neighbors,
                          std::vector<uint32_t>* weights, WeightType type) {
  if (!weights) {
    parallel_over_vertices_by_edges(offsets, [&](uint64_t lo, uint64_t hi) {
      for (uint64_t v = lo; v < hi; ++v)
        std::sort(neighbors.begin() + offsets[v], neighbors.begin() + offsets[v + 1]);
    });
    return;
  }
  // Weighted: sort (neighbor, weight key) pairs packed into 64-bit keys.
  parallel_over_vertices_by_edges(offsets, [&](uint64_t lo, uint64_t hi) {
    std::vector<uint64_t> keys;
    for (uint64_t v = lo; v < hi; ++v) {
      const uint64_t begin = offsets[v], end = offsets[v + 1];
      keys.resize(end - begin);
      for (uint64_t e = begin; e < end; ++e)
        keys[e - begin] = (uint64_t(neighbors[e]) << 32) | weight_order_key((*weights)[e], type);
      std::sort(keys.begin(), keys.end());
      for (uint64_t e = begin; e < end; ++e) {
        neighbors[e] = static_cast<VertexId>(keys[e - begin] >> 32);
        // Undo the key transform: it is its own inverse for int32 and
        // invertible for floats.
        const uint32_t key = static_cast<uint32_t>(keys[e - begin]);
        (*weights)[e] = type == WeightType::int32 ? key ^ 0x80000000u
                        : (key & 0x80000000u)     ? key & 0x7fffffffu
                                                  : ~key;
      }
    }
  });
}

uint64_t remove_duplicate_neighbors(std::vector<uint64_t>& offsets, std::vector<VertexId>& neighbors,
                                    std::vector<uint32_t>* weights) {
  const uint64_t n = offsets.size() - 1;
  std::vector<uint64_t> unique_counts(n, 0);
  parallel_over_vertices_by_edges(offsets, [&](uint64_t lo, uint64_t hi) {
    for (uint64_t v = lo; v < hi; ++v) {
      uint64_t count = 0;
      for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e)
        count += (e == offsets[v] || neighbors[e] != neighbors[e - 1]);
      unique_counts[v] = count;
    }
  });
  std::vector<uint64_t> new_offsets = count_to_offsets(unique_counts);
  const uint64_t removed = offsets.back() - new_offsets.back();
  if (removed == 0) return 0;
  std::vector<VertexId> new_neighbors(new_offsets.back());
  std::vector<uint32_t> new_weights(weights ? new_offsets.back() : 0);
  parallel_over_vertices_by_edges(offsets, [&](uint64_t lo, uint64_t hi) {
    for (uint64_t v = lo; v < hi; ++v) {
      uint64_t out = new_offsets[v];
      for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
        if (e != offsets[v] && neighbors[e] == neighbors[e - 1]) continue;
        new_neighbors[out] = neighbors[e];
        if (weights) new_weights[out] = (*weights)[e];
        ++out;
      }
    }
  });
  offsets = std::move(new_offsets);
  neighbors = std::move(new_neighbors);
  if (weights) *weights = std::move(new_weights);
  return removed;
}

}  // namespace irgl
