// irgl-serve --check's host answers (query_reference.h).
#include "query_reference.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace irgl::serve {

using gpu::tasks::kUnreached;
using gpu::tasks::QueryKind;

namespace {

// Hop distances from the source, not beyond `hops`.
std::vector<uint32_t> hop_distances(const CsrGraph& graph, VertexId source, uint32_t hops) {
  std::vector<uint32_t> dist(graph.num_vertices(), kUnreached);
  std::vector<VertexId> frontier{source}, next;
  dist[source] = 0;
  for (uint32_t level = 0; !frontier.empty() && level < hops; ++level) {
    next.clear();
    for (VertexId u : frontier)
      for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
        const VertexId v = graph.out_targets[e];
        if (dist[v] != kUnreached) continue;
        dist[v] = level + 1;
        next.push_back(v);
      }
    std::swap(frontier, next);
  }
  return dist;
}

std::vector<uint32_t> weighted_distances(const CsrGraph& graph, VertexId source) {
  std::vector<uint64_t> dist(graph.num_vertices(), UINT64_MAX);
  using Entry = std::pair<uint64_t, VertexId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  dist[source] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d != dist[u]) continue;
    for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
      const VertexId v = graph.out_targets[e];
      const uint64_t candidate = d + uint64_t(graph.out_weight<int32_t>(e));
      if (candidate < dist[v]) {
        dist[v] = candidate;
        queue.push({candidate, v});
      }
    }
  }
  std::vector<uint32_t> narrow(dist.size());
  for (size_t v = 0; v < dist.size(); ++v)
    narrow[v] = dist[v] == UINT64_MAX ? kUnreached : uint32_t(dist[v]);
  return narrow;
}

}  // namespace

QueryAnswer answer_on_host(const CsrGraph& graph, const GraphQuery& query) {
  const std::vector<uint32_t> dist =
      query.kind == QueryKind::sssp ? weighted_distances(graph, query.source)
                                    : hop_distances(graph, query.source, query.hops);
  QueryAnswer answer;
  answer.id = query.id;
  for (uint32_t d : dist) {
    if (d == kUnreached) continue;
    ++answer.reached;
    answer.levels = std::max(answer.levels, d);
  }
  answer.target_count = query.target_count;
  for (uint32_t t = 0; t < query.target_count; ++t) answer.distance[t] = dist[query.targets[t]];
  return answer;
}

std::string compare_answers(const GraphQuery& query, const QueryAnswer& expected,
                            const QueryAnswer& served) {
  std::string differences;
  const auto differ = [&](const std::string& what, uint64_t want, uint64_t got) {
    if (want != got)
      differences += (differences.empty() ? "" : ", ") + what + " " + std::to_string(got) +
                     " (expected " + std::to_string(want) + ")";
  };
  differ("reached", expected.reached, served.reached);
  if (query.kind != QueryKind::sssp) differ("levels", expected.levels, served.levels);
  for (uint32_t t = 0; t < query.target_count; ++t)
    differ("distance to " + std::to_string(query.targets[t]), expected.distance[t],
           served.distance[t]);
  return differences;
}

}  // namespace irgl::serve
