// Partitions of a graph for several GPUs (irgl/graph/partition.h).
#include "irgl/graph/partition.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>
#include <ostream>
#include <thread>
#include <tuple>

#include "irgl/support/error.h"
#include "irgl/support/name_list.h"

namespace irgl {

namespace {

struct PolicyInfo {
  PartitionPolicy policy;
  const char* name;
  const char* description;
};

constexpr PolicyInfo kPolicies[] = {
#define IRGL_PARTITION_POLICY(enumerator, name, description) \
  {PartitionPolicy::enumerator, name, description},
#include "irgl/graph/partition_policies.def"
};

// Whether part p can hold edges whose source's master is in part `owner`:
// the sources a part's builder scans.
bool may_hold_edges_from(PartitionPolicy policy, const PartGrid& grid, unsigned p,
                         unsigned owner) {
  switch (policy) {
    case PartitionPolicy::outgoing_edge_cut: return owner == p;
    case PartitionPolicy::incoming_edge_cut: return true;
    case PartitionPolicy::cartesian_vertex_cut: return owner / grid.columns == p / grid.columns;
  }
  return true;
}

// The part of an edge whose source's master is in part `from` and whose
// destination's is in part `to`.
unsigned part_of_edge(PartitionPolicy policy, const PartGrid& grid, unsigned from, unsigned to) {
  switch (policy) {
    case PartitionPolicy::outgoing_edge_cut: return from;
    case PartitionPolicy::incoming_edge_cut: return to;
    case PartitionPolicy::cartesian_vertex_cut:
      return from / grid.columns * grid.columns + to % grid.columns;
  }
  return 0;
}

struct PartEdge {
  VertexId source, destination;  // global ids, then local ones
  uint32_t weight;
};

// Part p's edges in the order of their sources and then of the input.
std::vector<PartEdge> edges_of_part(const CsrGraph& graph, PartitionPolicy policy,
                                    const MasterBlocks& masters, const PartGrid& grid, unsigned p) {
  std::vector<PartEdge> edges;
  const Adjacency out = graph.out();
  for (unsigned owner = 0; owner < masters.parts(); ++owner) {
    if (!may_hold_edges_from(policy, grid, p, owner)) continue;
    for (VertexId u = masters.first[owner]; u < masters.first[owner + 1]; ++u)
      for (uint64_t e = out.begin(u); e < out.end(u); ++e) {
        const VertexId v = out.neighbors[e];
        if (part_of_edge(policy, grid, owner, masters.owner(v)) == p)
          edges.push_back({u, v, out.weight_words ? out.weight_words[e] : 0});
      }
  }
  return edges;
}

GraphPart build_part(const CsrGraph& graph, PartitionPolicy policy, const MasterBlocks& masters,
                     const PartGrid& grid, unsigned p) {
  std::vector<PartEdge> edges = edges_of_part(graph, policy, masters, grid, p);
  const VertexId first = masters.first[p], last = masters.first[p + 1];
  // Mirrors: the edges' other vertices, in global order.
  std::vector<VertexId> mirrors;
  for (const PartEdge& edge : edges)
    for (const VertexId v : {edge.source, edge.destination})
      if (v < first || v >= last) mirrors.push_back(v);
  std::sort(mirrors.begin(), mirrors.end());
  mirrors.erase(std::unique(mirrors.begin(), mirrors.end()), mirrors.end());

  GraphPart part;
  part.id = p;
  part.masters = last - first;
  part.global_ids.reserve(part.masters + mirrors.size());
  for (VertexId v = first; v < last; ++v) part.global_ids.push_back(v);
  part.global_ids.insert(part.global_ids.end(), mirrors.begin(), mirrors.end());
  part.owner.reserve(part.global_ids.size());
  for (const VertexId v : part.global_ids) part.owner.push_back(masters.owner(v));
  const auto local = [&](VertexId v) -> VertexId {
    if (v >= first && v < last) return v - first;
    return part.masters +
           static_cast<VertexId>(std::lower_bound(mirrors.begin(), mirrors.end(), v) -
                                 mirrors.begin());
  };
  for (PartEdge& edge : edges) edge = {local(edge.source), local(edge.destination), edge.weight};

  // The local CSR: degrees, offsets, then the edges in place.
  CsrGraph& local_graph = part.graph;
  local_graph.name = graph.name + " part " + std::to_string(p);
  local_graph.weight_type = graph.weight_type;
  local_graph.set_num_vertices(part.global_ids.size());
  local_graph.out_offsets.assign(part.global_ids.size() + 1, 0);
  for (const PartEdge& edge : edges) ++local_graph.out_offsets[edge.source + 1];
  for (size_t v = 0; v < part.global_ids.size(); ++v)
    local_graph.out_offsets[v + 1] += local_graph.out_offsets[v];
  local_graph.out_targets.resize(edges.size());
  if (graph.has_weights()) local_graph.out_weights.resize(edges.size());
  std::vector<uint64_t> next(local_graph.out_offsets.begin(), local_graph.out_offsets.end() - 1);
  for (const PartEdge& edge : edges) {
    const uint64_t slot = next[edge.source]++;
    local_graph.out_targets[slot] = edge.destination;
    if (graph.has_weights()) local_graph.out_weights[slot] = edge.weight;
  }
  return part;
}

}  // namespace

const char* to_string(PartitionPolicy policy) {
  for (const PolicyInfo& info : kPolicies)
    if (info.policy == policy) return info.name;
  return "?";
}

std::string partition_policy_names() { return name_list(kPolicies); }

PartitionPolicy parse_partition_policy(const std::string& name, const std::string& option) {
  for (const PolicyInfo& info : kPolicies)
    if (name == info.name) return info.policy;
  throw InputError::in(option, "unknown partitioning policy '" + name + "' (expected " +
                                   partition_policy_names() + ")");
}

unsigned MasterBlocks::owner(VertexId v) const {
  return static_cast<unsigned>(std::upper_bound(first.begin() + 1, first.end(), v) -
                               (first.begin() + 1));
}

namespace {

// Each vertex weighs 1 plus its out-degree; block p - 1 ends where the
// running weight comes closest to p / parts of the total (a vertex joins
// when it brings the weight nearer), leaving at least a vertex for every
// block.
template <class Degree>
MasterBlocks blocks_by_weight(uint64_t n, uint64_t edges, Degree degree, unsigned parts) {
  if (parts == 0) throw InputError::in("--parts", "the number of parts must be at least 1");
  if (parts > n)
    throw InputError::in("--parts", std::to_string(parts) + " parts of a graph of " +
                                          std::to_string(n) +
                                          " vertices: every part needs a vertex to own");
  const uint64_t total = n + edges;
  MasterBlocks blocks;
  blocks.first.assign(parts + 1, 0);
  blocks.first[parts] = static_cast<VertexId>(n);
  uint64_t weight = 0;
  VertexId v = 0;
  for (unsigned p = 1; p < parts; ++p) {
    const long double target = static_cast<long double>(total) * p / parts;
    while (v < n && 2 * weight + 1 + degree(v) <= 2 * target) weight += 1 + degree(v++);
    const VertexId lowest = blocks.first[p - 1] + 1, highest = static_cast<VertexId>(n - (parts - p));
    const VertexId cut = std::min(std::max(v, lowest), highest);
    for (; v < cut; ++v) weight += 1 + degree(v);
    while (v > cut) weight -= 1 + degree(--v);
    blocks.first[p] = cut;
  }
  return blocks;
}

}  // namespace

MasterBlocks balanced_master_blocks(const CsrGraph& graph, unsigned parts) {
  return balanced_master_blocks(arrays_of(graph), parts);
}

MasterBlocks balanced_master_blocks(const GraphArrays& graph, unsigned parts) {
  return blocks_by_weight(
      graph.vertices, graph.edges, [&](VertexId v) { return graph.out_degree(v); }, parts);
}

MasterBlocks balanced_master_blocks(const std::vector<uint64_t>& out_degrees, unsigned parts) {
  uint64_t edges = 0;
  for (const uint64_t degree : out_degrees) edges += degree;
  return blocks_by_weight(
      out_degrees.size(), edges, [&](VertexId v) { return out_degrees[v]; }, parts);
}

PartGrid part_grid(unsigned parts) {
  PartGrid grid;
  for (unsigned rows = 1; rows * rows <= parts; ++rows)
    if (parts % rows == 0) grid.rows = rows;
  grid.columns = parts / grid.rows;
  return grid;
}

unsigned edge_part(PartitionPolicy policy, const MasterBlocks& masters, const PartGrid& grid,
                   VertexId u, VertexId v) {
  return part_of_edge(policy, grid, masters.owner(u), masters.owner(v));
}

std::vector<GraphPart> partition_graph(const CsrGraph& graph, PartitionPolicy policy,
                                       unsigned parts) {
  const MasterBlocks masters = balanced_master_blocks(graph, parts);
  const PartGrid grid = part_grid(parts);
  std::vector<GraphPart> result(parts);
  std::vector<std::exception_ptr> errors(parts);
  std::vector<std::thread> builders;
  for (unsigned p = 0; p < parts; ++p)
    builders.emplace_back([&, p] {
      try {
        result[p] = build_part(graph, policy, masters, grid, p);
      } catch (...) {
        errors[p] = std::current_exception();
      }
    });
  for (std::thread& builder : builders) builder.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return result;
}

PartitionStats partition_stats(const CsrGraph& graph, PartitionPolicy policy,
                               const std::vector<GraphPart>& parts) {
  PartitionStats stats;
  stats.graph = graph.name;
  stats.policy = policy;
  stats.vertices = graph.num_vertices();
  stats.edges = graph.num_edges();
  uint64_t proxies = 0, largest = 0;
  for (const GraphPart& part : parts) {
    stats.masters.push_back(part.masters);
    stats.mirrors.push_back(part.global_ids.size() - part.masters);
    stats.edges_per_part.push_back(part.graph.num_edges());
    proxies += part.global_ids.size();
    largest = std::max<uint64_t>(largest, part.graph.num_edges());
  }
  if (stats.vertices) stats.replication_factor = static_cast<double>(proxies) / stats.vertices;
  if (stats.edges && !parts.empty())
    stats.edge_imbalance = static_cast<double>(largest) * parts.size() / stats.edges;
  return stats;
}

void print_partition_stats(std::ostream& out, const PartitionStats& stats) {
  const unsigned parts = static_cast<unsigned>(stats.masters.size());
  char line[256];
  std::string grid;
  if (stats.policy == PartitionPolicy::cartesian_vertex_cut) {
    const PartGrid shape = part_grid(parts);
    grid = " (" + std::to_string(shape.rows) + " x " + std::to_string(shape.columns) + " grid)";
  }
  out << stats.graph << ": " << to_string(stats.policy) << " into " << parts << " part"
      << (parts == 1 ? "" : "s") << grid << ": " << stats.vertices << " vertices, " << stats.edges
      << " edges\n";
  std::snprintf(line, sizeof line, "  replication factor %.3f, edge imbalance %.3f\n",
                stats.replication_factor, stats.edge_imbalance);
  out << line;
  for (unsigned p = 0; p < parts; ++p)
    out << "  part " << p << ": " << stats.masters[p] << " masters, " << stats.mirrors[p]
        << " mirrors, " << stats.edges_per_part[p] << " edges\n";
}

void print_partition_stats_json(std::ostream& out, const PartitionStats& stats) {
  nlohmann::ordered_json json;
  json["graph"] = stats.graph;
  json["policy"] = to_string(stats.policy);
  json["parts"] = stats.masters.size();
  json["vertices"] = stats.vertices;
  json["edges"] = stats.edges;
  json["replication_factor"] = stats.replication_factor;
  json["edge_imbalance"] = stats.edge_imbalance;
  json["masters"] = stats.masters;
  json["mirrors"] = stats.mirrors;
  json["edges_per_part"] = stats.edges_per_part;
  out << json.dump(2) << "\n";
}

}  // namespace irgl
