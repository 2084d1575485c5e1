// Edge lists (COO) and their conversion to CSR.
//
// Loaders and generators produce an EdgeList; build_csr() turns it into a
// CsrGraph applying the clean-up options (symmetrize, drop self-loops and
// duplicates, sort adjacency, weights from a rule). It runs in parallel and
// needs about the edge list's size again in memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "irgl/graph/csr_graph.h"

namespace irgl {

struct EdgeList {
  std::string name;  // the source, for error messages
  uint64_t num_vertices = 0;
  std::vector<VertexId> sources;
  std::vector<VertexId> targets;
  WeightType weight_type = WeightType::none;
  std::vector<uint32_t> weights;  // one word per edge, or empty
  // Set when the file declared itself symmetric (the edges are already
  // mirrored by the loader).
  bool symmetric = false;
  // As CsrGraph::original_ids: empty, or the input id of each vertex.
  std::vector<VertexId> original_ids;

  uint64_t size() const { return sources.size(); }
  void reserve(uint64_t edges, bool weighted);
};

// Where edge weights come from.
struct WeightRule {
  enum class Source : uint8_t {
    file,  // as in the input; none if the input has none
    none,  // drop any weights
    unit,  // every edge weighs 1
    hash,  // 1 + H(min(u,v), max(u,v), seed) mod max: deterministic, the same
           // for (u,v) and (v,u) and for duplicates, independent of load order
  };
  Source source = Source::file;
  uint32_t max = 100;  // for hash: weights in [1, max]
  uint64_t seed = 0;   // for hash
  // For file weights: convert to this type (none = keep the file's type).
  // Converting a non-integral float to int32 is an error.
  WeightType convert_to = WeightType::none;
};

// The hash rule's weight of edge (u, v).
uint32_t hashed_weight(VertexId u, VertexId v, uint32_t max, uint64_t seed);

struct BuildOptions {
  bool symmetrize = false;       // add (v,u) for every (u,v)
  bool drop_self_loops = false;  // remove (v,v)
  bool drop_duplicates = false;  // keep one (u,v); with weights, the smallest
  bool sort_adjacency = true;    // sort each list by neighbor (stable)
  bool transpose = false;        // also build the in-edges (CSC)
  // Number the vertices that occur in some edge 0, 1, ... in increasing
  // order of their ids, dropping the others; the graph keeps the input ids
  // in original_ids.
  bool renumber = false;
  WeightRule weights;
};

// Consumes `edges` (its memory is released as the CSR is built).
CsrGraph build_csr(EdgeList&& edges, const BuildOptions& options);

// The number of distinct vertex ids among the edges' endpoints. Parallel;
// needs num_vertices / 8 bytes.
uint64_t count_used_vertices(const EdgeList& edges);

// Renumbers as BuildOptions::renumber says: sources and targets rewritten,
// num_vertices the number of distinct ids, original_ids set (composed with
// any it held). Parallel; needs about num_vertices / 4 bytes.
void renumber_vertices(EdgeList& edges);

// Applies the same options to a graph that is already CSR (for example one
// read from the binary cache or produced by a generator).
CsrGraph rebuild(CsrGraph&& graph, const BuildOptions& options);
// Whether rebuild() keeps a graph of these weights and order as it is
// (adding or dropping only the transpose).
bool rebuild_keeps(WeightType weight_type, bool sorted, const BuildOptions& options);

}  // namespace irgl
