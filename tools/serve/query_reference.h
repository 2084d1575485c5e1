// irgl-serve --check: each query answered again on the host, sequentially
// (breadth-first search, or Dijkstra over the int32 weights).
#pragma once

#include <string>

#include "irgl/graph/csr_graph.h"
#include "query_protocol.h"

namespace irgl::serve {

QueryAnswer answer_on_host(const CsrGraph& graph, const GraphQuery& query);

// Empty when `served` agrees with `expected` (sssp's relaxation rounds are
// the engine's own and not compared); else what differs.
std::string compare_answers(const GraphQuery& query, const QueryAnswer& expected,
                            const QueryAnswer& served);

}  // namespace irgl::serve
