// What the input checks read of a graph's weights (the program driver's
// requirements, and a multi-GPU part's share of them).
#pragma once

#include <cstdint>

#include "irgl/graph/csr_graph.h"

namespace irgl {

// The out-edge weights' largest int32 value (0 for float32 weights or
// none) and the index of the first negative weight (UINT64_MAX if none).
struct WeightSummary {
  int64_t largest = 0;
  uint64_t first_negative = UINT64_MAX;
};

// Parallel over the edges.
WeightSummary summarize_weights(const CsrGraph& graph);

}  // namespace irgl
