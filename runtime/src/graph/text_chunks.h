// Parsing the data lines of a text graph file in parallel.
//
// The data is cut into one chunk per worker at line starts; each worker parses
// its chunk into its own buffers, and the buffers are then concatenated in
// chunk order, so the edges come out in file order whatever the number of
// threads. When several chunks find problems, the one earliest in the file is
// reported.
#pragma once

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <exception>
#include <optional>
#include <vector>

#include "formats.h"
#include "irgl/graph/edge_list.h"
#include "irgl/support/parallel.h"
#include "load_progress.h"
#include "text_scanner.h"

namespace irgl::text {

// The edges one chunk found.
struct EdgeBuffer {
  std::vector<VertexId> sources;
  std::vector<VertexId> targets;
  std::vector<uint32_t> weights;  // empty for unweighted files

  void reserve(uint64_t edges, bool weighted) {
    sources.reserve(edges);
    targets.reserve(edges);
    if (weighted) weights.reserve(edges);
  }
  void add(VertexId source, VertexId target) {
    sources.push_back(source);
    targets.push_back(target);
  }
  void add(VertexId source, VertexId target, uint32_t weight) {
    add(source, target);
    weights.push_back(weight);
  }
};

// The first line start at or after `pos` in data[begin, end): `pos` itself if
// a line starts there.
inline uint64_t line_start_from(std::string_view data, uint64_t begin, uint64_t pos) {
  if (pos <= begin) return begin;
  if (pos >= data.size()) return data.size();
  return next_line(data.data() + pos - 1, data.data() + data.size()) - data.data();
}

// Parses input.data[begin, end) with one Chunk per worker, each a copy of
// `prototype` (which may carry settings). Chunk needs
// `void reserve(uint64_t lines)`; parse_block(first, last, chunk) parses the
// whole lines in [first, last) into `chunk` and is called on consecutive
// blocks of a chunk in order. Returns the chunks in file order. An exception
// from the earliest failing chunk is rethrown.
template <class Chunk, class ParseBlock>
std::vector<Chunk> parse_in_chunks(const TextInput& input, uint64_t begin, const Chunk& prototype,
                                   ParseBlock&& parse_block) {
  constexpr uint64_t kBlockBytes = uint64_t(8) << 20;  // progress granularity
  const std::string_view data = input.data;
  const uint64_t end = data.size();
  const unsigned workers = parallel_chunk_count(begin, end);
  std::vector<Chunk> chunks(workers, prototype);
  std::vector<std::exception_ptr> failures(workers);
  std::atomic<unsigned> first_failure{UINT_MAX};
  std::optional<progress::Phase> phase;
  if (input.show_progress) phase.emplace("parsing", end - begin);

  parallel_chunks(begin, end, [&](uint64_t lo, uint64_t hi, unsigned worker) {
    try {
      const uint64_t first = line_start_from(data, begin, lo);
      const uint64_t last = line_start_from(data, begin, hi);
      chunks[worker].reserve(count_newlines(data.data() + first, data.data() + last) + 1);
      for (uint64_t block = first; block < last;) {
        // A failure in an earlier chunk makes the rest of this one moot.
        if (first_failure.load(std::memory_order_relaxed) < worker) return;
        const uint64_t block_end =
            line_start_from(data, block, std::min(last, block + kBlockBytes));
        parse_block(data.data() + block, data.data() + block_end, chunks[worker]);
        if (phase) progress::advance(block_end - block);
        block = block_end;
      }
    } catch (...) {
      failures[worker] = std::current_exception();
      unsigned expected = first_failure.load();
      while (worker < expected && !first_failure.compare_exchange_weak(expected, worker)) {
      }
    }
  });
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
  return chunks;
}

// Concatenates `parts` in order, copying in parallel (advancing the current
// progress phase by the elements copied); empties the parts.
template <class T>
std::vector<T> concatenate(std::vector<std::vector<T>*> parts) {
  if (parts.size() == 1) {
    progress::advance(parts.front()->size());
    return std::move(*parts.front());
  }
  std::vector<uint64_t> starts{0};
  for (const auto* part : parts) starts.push_back(starts.back() + part->size());
  std::vector<T> result(starts.back());
  parallel_chunks(0, result.size(), [&](uint64_t lo, uint64_t hi, unsigned) {
    size_t part = std::upper_bound(starts.begin(), starts.end(), lo) - starts.begin() - 1;
    for (uint64_t pos = lo; pos < hi; ++part) {
      const uint64_t stop = std::min(hi, starts[part + 1]);
      std::memcpy(result.data() + pos, parts[part]->data() + (pos - starts[part]),
                  (stop - pos) * sizeof(T));
      progress::advance(stop - pos);
      pos = stop;
    }
  });
  for (auto* part : parts) *part = std::vector<T>();
  return result;
}

// Moves the edges of every chunk (its EdgeBuffer `edges`), in order, into
// `out`; the weight type and vertex count are the caller's to set.
template <class Chunk>
void gather_edges(std::vector<Chunk>& chunks, EdgeList& out) {
  std::vector<std::vector<VertexId>*> sources, targets;
  std::vector<std::vector<uint32_t>*> weights;
  uint64_t total = 0;
  for (Chunk& chunk : chunks) {
    sources.push_back(&chunk.edges.sources);
    targets.push_back(&chunk.edges.targets);
    weights.push_back(&chunk.edges.weights);
    total += 2 * chunk.edges.sources.size() + chunk.edges.weights.size();
  }
  const progress::Phase phase("collecting the edges", total);
  out.sources = concatenate(sources);
  out.targets = concatenate(targets);
  out.weights = concatenate(weights);
}

}  // namespace irgl::text
