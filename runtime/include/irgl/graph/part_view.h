// One GPU's share of a graph for a multi-GPU run (docs/multi-gpu.md), in
// the graph's own vertex ids: the part's edges in a CSR over all |V|
// vertices, so that vertex data, worklists and the compiled kernels index
// by global id and no id is ever translated.
//
//   PartView view = build_part_view(graph, {PartitionPolicy::cartesian_vertex_cut, 4, rank,
//                                           /*in_edges=*/true, /*global_degrees=*/true});
//
// Out-edges follow the partition policy (partition.h). In-edges, when
// asked for, are kept whole at each vertex's master (an incoming-edge cut),
// so that a pull loop over a master's in-edges sees all of them. The
// part's masters are the block [first_master, end_master) of
// balanced_master_blocks(); its mirrors are the other vertices its edges
// touch, listed per owning part for synchronisation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "irgl/graph/csr_graph.h"
#include "irgl/graph/partition.h"

namespace irgl {

struct PartViewOptions {
  PartitionPolicy policy = PartitionPolicy::outgoing_edge_cut;
  unsigned parts = 1;
  unsigned part = 0;
  bool in_edges = false;        // build the masters' in-edges (pull loops)
  bool global_degrees = false;  // fill out_degrees (programs that read g.out_degree)
};

struct PartView {
  unsigned part = 0, parts = 1;
  PartitionPolicy policy = PartitionPolicy::outgoing_edge_cut;
  VertexId first_master = 0, end_master = 0;  // this part's masters
  std::vector<VertexId> first_masters;        // every part's first master, parts + 1 entries
  // The part's edges, indexed by global id (num_vertices() = the input's).
  CsrGraph graph;
  // Each vertex's out-degree in the whole graph (empty unless asked for).
  std::vector<uint32_t> out_degrees;
  // mirrors[q]: the vertices this part holds whose master is in part q,
  // ascending (empty for q == part).
  std::vector<std::vector<VertexId>> mirrors;

  unsigned owner(VertexId v) const;
  uint64_t mirror_count() const;
};

// Part options.part of `graph`; reads the whole graph (each process builds
// its own part). Throws InputError when parts is 0 or above the vertex
// count, or part is not below parts.
PartView build_part_view(const CsrGraph& graph, const PartViewOptions& options);
// The same from a graph's arrays (a mapped file: the process copies only
// its part, and reads the whole in-edges only of its masters).
PartView build_part_view(const GraphArrays& graph, const PartViewOptions& options);

// Pieces of the part builders (this file's and part_share.h's).
// InputError unless 1 <= parts <= vertices and part < parts.
void check_part_options(const PartViewOptions& options, uint64_t vertices);
// `degree` as a global out-degree (32 bits); InputError naming the vertex
// of `graph` otherwise.
uint32_t checked_degree(const std::string& graph, uint64_t v, uint64_t degree);
// A part with its masters and name, and no edges yet.
PartView empty_part_view(const std::string& graph, const PartViewOptions& options,
                         const MasterBlocks& masters);
// view.mirrors from view.graph's edges (out and in) and the masters.
void list_mirrors(PartView& view, const MasterBlocks& masters);

}  // namespace irgl
