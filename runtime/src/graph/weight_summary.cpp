// What the input checks read of a graph's weights (irgl/graph/weight_summary.h).
#include "irgl/graph/weight_summary.h"

#include <algorithm>
#include <vector>

#include "irgl/support/parallel.h"

namespace irgl {

WeightSummary summarize_weights(const CsrGraph& graph) {
  if (!graph.has_weights()) return {};
  const bool integral = graph.weight_type == WeightType::int32;
  std::vector<WeightSummary> partial(parallel_chunk_count(0, graph.num_edges()));
  parallel_chunks(0, graph.num_edges(), [&](uint64_t lo, uint64_t hi, unsigned worker) {
    WeightSummary& mine = partial[worker];
    for (uint64_t e = lo; e < hi; ++e) {
      const double weight = integral ? graph.out_weight<int32_t>(e) : graph.out_weight<float>(e);
      if (integral) mine.largest = std::max<int64_t>(mine.largest, graph.out_weight<int32_t>(e));
      // NaN counts as negative: no program could order paths through it.
      if (!(weight >= 0) && mine.first_negative == UINT64_MAX) mine.first_negative = e;
    }
  });
  WeightSummary all;
  for (const WeightSummary& part : partial) {
    all.largest = std::max(all.largest, part.largest);
    all.first_negative = std::min(all.first_negative, part.first_negative);
  }
  return all;
}

}  // namespace irgl
