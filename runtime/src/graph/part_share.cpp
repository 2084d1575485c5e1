// A multi-GPU part built from a generator's edges or a mapped file
// (irgl/graph/part_share.h).
#include "irgl/graph/part_share.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "irgl/graph/weight_summary.h"
#include "irgl/support/parallel.h"
#include "load_progress.h"

namespace irgl {

namespace {

// Calls visit(worker, u, v) for every edge of units [first, end) of the
// graph `build` shapes before duplicates are dropped: each generated edge,
// its reverse when symmetrizing (not a self-loop's), no self-loops when
// they are dropped. Parallel; worker < host_threads().
template <class Visit>
void for_each_edge(const EdgeGenerator& generator, const BuildOptions& build, uint64_t first,
                   uint64_t end, Visit&& visit) {
  constexpr uint64_t kPiece = uint64_t(1) << 16;  // units generated at once
  parallel_chunks(first, end, [&](uint64_t lo, uint64_t hi, unsigned worker) {
    std::vector<VertexId> sources, targets;
    for (uint64_t piece = lo; piece < hi; piece += kPiece) {
      const uint64_t piece_end = std::min(hi, piece + kPiece);
      const uint64_t count = generator.first_edge(piece_end) - generator.first_edge(piece);
      sources.resize(count);
      targets.resize(count);
      generator.edges(piece, piece_end, sources.data(), targets.data());
      progress::advance(piece_end - piece);
      for (uint64_t e = 0; e < count; ++e) {
        const VertexId u = sources[e], v = targets[e];
        if (u == v && build.drop_self_loops) continue;
        visit(worker, u, v);
        if (build.symmetrize && u != v) visit(worker, v, u);  // a self-loop once, as build_csr
      }
    }
  });
}

// Each vertex's out-degree before duplicates are dropped: each part counts
// its slice of the units, and the counts are summed over the parts.
std::vector<uint64_t> raw_out_degrees(const EdgeGenerator& generator, const BuildOptions& build,
                                      const PartViewOptions& options,
                                      const PartCollectives& collectives) {
  std::vector<uint64_t> degrees(generator.vertices(), 0);
  const uint64_t units = generator.units();
  const progress::Phase phase("counting degrees (a slice per part)", units / options.parts);
  for_each_edge(generator, build, units * options.part / options.parts,
                units * (options.part + 1) / options.parts, [&](unsigned, VertexId u, VertexId) {
                  __atomic_fetch_add(&degrees[u], 1, __ATOMIC_RELAXED);
                });
  collectives.sum(degrees);
  return degrees;
}

using KeptEdges = std::vector<std::vector<std::pair<VertexId, VertexId>>>;  // one list per worker

// The edges each worker kept, as one edge list (the workers' lists are
// released as they are copied).
EdgeList join(const std::string& name, uint64_t vertices, KeptEdges& kept) {
  EdgeList edges;
  edges.name = name;
  edges.num_vertices = vertices;
  std::vector<uint64_t> first(kept.size() + 1, 0);
  for (size_t w = 0; w < kept.size(); ++w) first[w + 1] = first[w] + kept[w].size();
  edges.sources.resize(first.back());
  edges.targets.resize(first.back());
  parallel_tasks(kept.size(), [&](uint64_t w, unsigned) {
    for (uint64_t i = 0; i < kept[w].size(); ++i)
      std::tie(edges.sources[first[w] + i], edges.targets[first[w] + i]) = kept[w][i];
    kept[w] = {};
  });
  return edges;
}

// The CSR of a kept edge list: symmetrized and free of self-loops already.
CsrGraph build_kept(EdgeList&& edges, const BuildOptions& build) {
  BuildOptions options = build;
  options.symmetrize = options.drop_self_loops = options.transpose = options.renumber = false;
  return build_csr(std::move(edges), options);
}

// The master blocks, balanced by the degrees before duplicates are dropped
// (a part cannot see another's duplicates).
MasterBlocks share_masters(const EdgeGenerator& generator, const std::string& name,
                           const BuildOptions& build, const PartViewOptions& options,
                           const PartCollectives& collectives) {
  const std::vector<uint64_t> degrees = raw_out_degrees(generator, build, options, collectives);
  // A degree that fits before duplicates are dropped fits after.
  for (uint64_t v = 0; v < degrees.size(); ++v) checked_degree(name, v, degrees[v]);
  return balanced_master_blocks(degrees, options.parts);
}

// The part's out-edges and, with in-edges, its masters' in-edges reversed
// (as out-edges of the master, so that building them sorts and weighs them
// as a transpose).
std::pair<KeptEdges, KeptEdges> keep_part_edges(const EdgeGenerator& generator,
                                                const BuildOptions& build,
                                                const PartViewOptions& options,
                                                const MasterBlocks& masters) {
  const PartGrid grid = part_grid(options.parts);
  const unsigned here = options.part;
  const VertexId first = masters.first[here], end = masters.first[here + 1];
  KeptEdges out(host_threads()), in(host_threads());
  const progress::Phase phase("generating every edge, keeping this part's", generator.units());
  for_each_edge(generator, build, 0, generator.units(),
                [&](unsigned worker, VertexId u, VertexId v) {
                  if (edge_part(options.policy, masters, grid, u, v) == here)
                    out[worker].emplace_back(u, v);
                  if (options.in_edges && v >= first && v < end) in[worker].emplace_back(v, u);
                });
  return {std::move(out), std::move(in)};
}

// The whole graph's weight extremes, from every part's.
void gather_weight_extremes(PartShare& share, const PartCollectives& collectives) {
  const WeightSummary weights = summarize_weights(share.view.graph);
  share.largest_weight =
      static_cast<int64_t>(collectives.max(static_cast<uint64_t>(weights.largest)));
  share.negative_weight = collectives.max(weights.first_negative != UINT64_MAX) != 0;
}

// The whole graph's degrees (each edge lives in one part), edge count and
// weight extremes, from every part's.
void gather_totals(PartShare& share, const PartCollectives& collectives) {
  const CsrGraph& part = share.view.graph;
  std::vector<uint64_t> degrees(part.num_vertices());
  parallel_for(0, degrees.size(),
               [&](uint64_t v) { degrees[v] = part.out_degree(static_cast<VertexId>(v)); });
  collectives.sum(degrees);
  share.view.out_degrees.assign(degrees.begin(), degrees.end());  // they fit (share_masters)
  for (const uint64_t degree : degrees) share.edges += degree;
  gather_weight_extremes(share, collectives);
}

}  // namespace

PartShare build_part_share(const EdgeGenerator& generator, const std::string& name,
                           const BuildOptions& build, const PartViewOptions& options,
                           const PartCollectives& collectives, bool show_progress) {
  if (build.renumber) throw std::logic_error("build_part_share: renumbering needs the whole graph");
  check_part_options(options, generator.vertices());
  const progress::Report report(name + " (part " + std::to_string(options.part) + ")",
                                show_progress);
  const MasterBlocks masters = share_masters(generator, name, build, options, collectives);
  auto [out, in] = keep_part_edges(generator, build, options, masters);

  PartShare share;
  share.view = empty_part_view(name, options, masters);
  CsrGraph& part = share.view.graph;
  const std::string part_name = part.name;
  part = build_kept(join(name, generator.vertices(), out), build);
  part.name = part_name;
  if (options.in_edges) {
    CsrGraph reversed = build_kept(join(name, generator.vertices(), in), build);
    part.in_offsets = std::move(reversed.out_offsets);
    part.in_sources = std::move(reversed.out_targets);
    part.in_weights = std::move(reversed.out_weights);
  }
  gather_totals(share, collectives);
  list_mirrors(share.view, masters);
  return share;
}

PartShare part_share_of(const GraphArrays& graph, const PartViewOptions& options,
                        const PartCollectives& collectives) {
  if (graph.renumbered) throw std::logic_error("part_share_of: a renumbered graph");
  PartViewOptions with_degrees = options;
  with_degrees.global_degrees = true;
  PartShare share;
  share.view = build_part_view(graph, with_degrees);
  share.edges = graph.edges;
  gather_weight_extremes(share, collectives);
  return share;
}

}  // namespace irgl
