#include "louvain.h"

#include "reference.h"

#include <unordered_map>
#include <utility>

namespace irgl::check {
namespace {

// A weighted undirected graph, as adjacency lists whose neighbours may
// repeat (their weights add up); self-loops count only in the strengths.
struct WeightedGraph {
  std::vector<std::vector<std::pair<uint32_t, double>>> neighbours;
  std::vector<double> strength;  // a vertex's edge weight, its merged self-loop included
};

WeightedGraph weighted_view(const CsrGraph& graph) {
  WeightedGraph view;
  const uint64_t n = graph.num_vertices();
  view.neighbours.resize(n);
  view.strength.assign(n, 0);
  for (uint64_t u = 0; u < n; ++u)
    for (EdgeId e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const uint32_t v = graph.out_targets[e];
      const double w = weight_as_double(graph, e);
      view.strength[u] += w;  // a self-loop twice: it meets u at both ends
      view.strength[v] += w;
      if (v == u) continue;
      view.neighbours[u].push_back({v, w});
      view.neighbours[v].push_back({static_cast<uint32_t>(u), w});
    }
  return view;
}

// One level of moves in id order; returns whether any vertex moved.
bool move_vertices(const WeightedGraph& graph, double total_weight, double resolution,
                   std::vector<uint32_t>& community) {
  const uint64_t n = graph.strength.size();
  std::vector<double> totals = graph.strength;
  bool moved_any = false;
  for (bool moved = true; moved;) {
    moved = false;
    for (uint32_t u = 0; u < n; ++u) {
      std::unordered_map<uint32_t, double> to_community;
      for (const auto& [v, w] : graph.neighbours[u]) to_community[community[v]] += w;
      const uint32_t own = community[u];
      const double k = graph.strength[u];
      totals[own] -= k;
      // networkx's gain against staying, times half the total weight.
      const auto gain = [&](uint32_t c) {
        return to_community[c] - resolution * k * totals[c] / total_weight;
      };
      uint32_t best = own;
      double best_gain = 0;
      const double stay = gain(own);
      for (const auto& [c, w] : to_community)
        if (gain(c) - stay > best_gain) {
          best_gain = gain(c) - stay;
          best = c;
        }
      totals[best] += k;
      if (best != own) {
        community[u] = best;
        moved = moved_any = true;
      }
    }
  }
  return moved_any;
}

// The graph of the communities: numbered 0, 1, ... in order of their
// smallest vertex, edges between two communities summed, edges inside one
// kept only in its strength. `community` becomes the new numbering.
WeightedGraph merge(const WeightedGraph& graph, std::vector<uint32_t>& community) {
  std::unordered_map<uint32_t, uint32_t> number;
  for (uint32_t& c : community) c = number.emplace(c, number.size()).first->second;
  WeightedGraph merged;
  merged.neighbours.resize(number.size());
  merged.strength.assign(number.size(), 0);
  for (uint32_t u = 0; u < graph.neighbours.size(); ++u) {
    merged.strength[community[u]] += graph.strength[u];
    for (const auto& [v, w] : graph.neighbours[u])
      if (community[v] != community[u]) merged.neighbours[community[u]].push_back({community[v], w});
  }
  return merged;
}

}  // namespace

double modularity(const CsrGraph& graph, const std::vector<int64_t>& labels, double resolution) {
  std::unordered_map<int64_t, std::pair<double, double>> inside_and_total;
  double total_weight = 0;
  for (uint64_t u = 0; u < graph.num_vertices(); ++u)
    for (EdgeId e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const uint32_t v = graph.out_targets[e];
      const double w = weight_as_double(graph, e);
      total_weight += 2 * w;
      inside_and_total[labels[u]].second += w;
      inside_and_total[labels[v]].second += w;
      if (labels[u] == labels[v]) inside_and_total[labels[u]].first += 2 * w;
    }
  if (total_weight == 0) return 0;
  double q = 0;
  for (const auto& [label, sums] : inside_and_total) {
    const double share = sums.second / total_weight;
    q += sums.first / total_weight - resolution * share * share;
  }
  return q;
}

std::vector<int64_t> reference_louvain(const CsrGraph& graph, double resolution,
                                       double threshold, uint64_t max_levels) {
  WeightedGraph level = weighted_view(graph);
  double total_weight = 0;
  for (double s : level.strength) total_weight += s;
  std::vector<int64_t> labels(graph.num_vertices());
  for (uint64_t v = 0; v < labels.size(); ++v) labels[v] = static_cast<int64_t>(v);
  if (total_weight == 0) return labels;
  double quality = modularity(graph, labels, resolution);
  for (uint64_t done = 0; max_levels == 0 || done < max_levels; ++done) {
    std::vector<uint32_t> community(level.strength.size());
    for (uint32_t v = 0; v < community.size(); ++v) community[v] = v;
    if (!move_vertices(level, total_weight, resolution, community)) return labels;
    level = merge(level, community);
    for (int64_t& label : labels) label = community[label];
    const double next = modularity(graph, labels, resolution);
    if (next - quality <= threshold) return labels;
    quality = next;
  }
  return labels;
}

}  // namespace irgl::check
