// Renumbering vertex ids (--renumber) and counting the ids edges use.
//
// Both work on a bitmap of the id space, one bit per id, set in parallel for
// every endpoint; a vertex's new id is the number of used ids below it (a
// prefix count per 64-bit word plus a popcount), so the new numbering keeps
// the order of the ids and does not depend on the number of threads.
#include <algorithm>

#include "irgl/graph/edge_list.h"
#include "irgl/support/parallel.h"
#include "load_progress.h"

namespace irgl {

namespace {

// Bit id of word id / 64 is set when id occurs as a source or target.
std::vector<uint64_t> used_id_bits(const EdgeList& edges) {
  std::vector<uint64_t> bits((edges.num_vertices + 63) / 64, 0);
  for (const std::vector<VertexId>* ids : {&edges.sources, &edges.targets})
    parallel_chunks(0, ids->size(), [&](uint64_t lo, uint64_t hi, unsigned) {
      progress::Counter counter;
      for (uint64_t i = lo; i < hi; ++i) {
        counter.add();
        const VertexId id = (*ids)[i];
        uint64_t* word = &bits[id >> 6];
        const uint64_t bit = uint64_t(1) << (id & 63);
        // Most endpoints are repeats (hubs): read before writing the line.
        if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit))
          __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
      }
    });
  return bits;
}

// rank[w]: the number of used ids below 64 w (w <= words), which fits 32
// bits as ids do.
std::vector<uint32_t> ranks(const std::vector<uint64_t>& bits) {
  std::vector<uint32_t> rank(bits.size() + 1);
  const unsigned chunks = parallel_chunk_count(0, bits.size());
  std::vector<uint64_t> chunk_start(chunks + 1, 0);
  parallel_chunks(0, bits.size(), [&](uint64_t lo, uint64_t hi, unsigned w) {
    uint64_t sum = 0;
    for (uint64_t i = lo; i < hi; ++i) sum += __builtin_popcountll(bits[i]);
    chunk_start[w + 1] = sum;
  });
  for (unsigned w = 0; w < chunks; ++w) chunk_start[w + 1] += chunk_start[w];
  parallel_chunks(0, bits.size(), [&](uint64_t lo, uint64_t hi, unsigned w) {
    uint64_t running = chunk_start[w];
    for (uint64_t i = lo; i < hi; ++i) {
      rank[i] = static_cast<uint32_t>(running);
      running += __builtin_popcountll(bits[i]);
    }
  });
  rank[bits.size()] = static_cast<uint32_t>(chunk_start[chunks]);
  return rank;
}

}  // namespace

uint64_t count_used_vertices(const EdgeList& edges) {
  const std::vector<uint64_t> bits = used_id_bits(edges);
  std::vector<uint64_t> counts(parallel_chunk_count(0, bits.size()), 0);
  parallel_chunks(0, bits.size(), [&](uint64_t lo, uint64_t hi, unsigned w) {
    for (uint64_t i = lo; i < hi; ++i) counts[w] += __builtin_popcountll(bits[i]);
  });
  uint64_t used = 0;
  for (uint64_t count : counts) used += count;
  return used;
}

void renumber_vertices(EdgeList& edges) {
  const std::vector<uint64_t> bits = used_id_bits(edges);
  const std::vector<uint32_t> rank = ranks(bits);
  const uint64_t used = rank.back();
  auto new_id = [&](VertexId id) {
    const uint64_t below = bits[id >> 6] & ((uint64_t(1) << (id & 63)) - 1);
    return static_cast<VertexId>(rank[id >> 6] + __builtin_popcountll(below));
  };
  for (std::vector<VertexId>* ids : {&edges.sources, &edges.targets})
    parallel_chunks(0, ids->size(), [&](uint64_t lo, uint64_t hi, unsigned) {
      progress::Counter counter;
      for (uint64_t i = lo; i < hi; ++i) {
        counter.add();
        (*ids)[i] = new_id((*ids)[i]);
      }
    });
  // The used ids in increasing order, as ids of the input (through any
  // earlier renumbering).
  std::vector<VertexId> original(used);
  const std::vector<VertexId>& earlier = edges.original_ids;
  parallel_for(0, bits.size(), [&](uint64_t w) {
    uint64_t slot = rank[w];
    for (uint64_t word = bits[w]; word != 0; word &= word - 1) {
      const auto id = static_cast<VertexId>(64 * w + __builtin_ctzll(word));
      original[slot++] = earlier.empty() ? id : earlier[id];
    }
  });
  edges.original_ids = std::move(original);
  edges.num_vertices = used;
}

}  // namespace irgl
