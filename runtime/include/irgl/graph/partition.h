// Partitions of a graph for several GPUs (paper 001's D-IrGL, with CuSP's
// policies): every vertex has one master, in the part that owns its block
// of ids, and a mirror in every other part that holds one of its edges;
// each edge lives in exactly one part, which the policy picks.
//
//   const std::vector<GraphPart> parts =
//       partition_graph(graph, PartitionPolicy::cartesian_vertex_cut, 4);
//   print_partition_stats(std::cout, partition_stats(graph, parts));
//
// A part's graph uses local ids: its masters first (0 .. masters - 1, in
// global order), then its mirrors (in global order); global_ids maps them
// back and owner names the part of each mirror's master. Synchronisation
// reduces a mirror's value to its master and broadcasts the master's back.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "irgl/graph/csr_graph.h"
#include "irgl/graph/graph_arrays.h"

namespace irgl {

enum class PartitionPolicy : uint8_t {
#define IRGL_PARTITION_POLICY(enumerator, name, description) enumerator,
#include "irgl/graph/partition_policies.def"
};

const char* to_string(PartitionPolicy policy);
// The policy a name (oec, iec, cvc) stands for; InputError naming `option`
// and the names it accepts otherwise.
PartitionPolicy parse_partition_policy(const std::string& name, const std::string& option);
// "oec, iec or cvc", for messages and --help.
std::string partition_policy_names();

// Masters: part p owns the vertices first[p] .. first[p + 1] - 1, blocks cut
// so that each holds about the same number of vertices plus out-edges.
struct MasterBlocks {
  std::vector<VertexId> first;  // parts + 1 entries, first[0] = 0

  unsigned parts() const { return static_cast<unsigned>(first.size() - 1); }
  unsigned owner(VertexId v) const;
};
MasterBlocks balanced_master_blocks(const CsrGraph& graph, unsigned parts);
MasterBlocks balanced_master_blocks(const GraphArrays& graph, unsigned parts);
// The same from each vertex's out-degree (the number of vertices is
// out_degrees.size()).
MasterBlocks balanced_master_blocks(const std::vector<uint64_t>& out_degrees, unsigned parts);

// The grid of the cartesian vertex cut: rows x columns = parts, rows the
// largest divisor of parts not above its square root.
struct PartGrid {
  unsigned rows = 1, columns = 1;
};
PartGrid part_grid(unsigned parts);

// The part that holds edge (u, v) under `policy`.
unsigned edge_part(PartitionPolicy policy, const MasterBlocks& masters, const PartGrid& grid,
                   VertexId u, VertexId v);

struct GraphPart {
  unsigned id = 0;
  uint32_t masters = 0;              // local ids 0 .. masters - 1
  std::vector<VertexId> global_ids;  // local id -> global id
  std::vector<unsigned> owner;       // local id -> the part of its master
  CsrGraph graph;                    // the part's edges, local ids, the input's weights
};

// The parts, built in parallel (a host thread per part). Throws
// InputError when `parts` is 0 or above the vertex count (a part with no
// master would hold no vertex to compute for).
std::vector<GraphPart> partition_graph(const CsrGraph& graph, PartitionPolicy policy,
                                       unsigned parts);

struct PartitionStats {
  std::string graph;
  PartitionPolicy policy = PartitionPolicy::outgoing_edge_cut;
  uint64_t vertices = 0, edges = 0;
  std::vector<uint64_t> masters, mirrors, edges_per_part;  // one entry per part
  // Vertices in all parts (masters and mirrors) over the graph's vertices:
  // 1 when no vertex has a mirror.
  double replication_factor = 1;
  // The largest part's edges over the mean (1: perfectly balanced).
  double edge_imbalance = 1;
};
PartitionStats partition_stats(const CsrGraph& graph, PartitionPolicy policy,
                               const std::vector<GraphPart>& parts);
void print_partition_stats(std::ostream& out, const PartitionStats& stats);
void print_partition_stats_json(std::ostream& out, const PartitionStats& stats);

}  // namespace irgl
