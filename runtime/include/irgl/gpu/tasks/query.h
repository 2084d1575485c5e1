// The graph queries the query engine answers (query_server.cuh) and what
// it answers: plain structs that travel as bytes between host and GPU, and
// the table of query kinds that every parser and printer reads.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>

#include "irgl/graph/csr_graph.h"

namespace irgl::gpu::tasks {

enum class QueryKind : uint32_t { bfs, sssp, khop };

struct QueryKindName {
  QueryKind kind;
  const char* name;
  const char* usage;  // the line that asks it
  const char* help;
};
inline constexpr QueryKindName kQueryKinds[] = {
    {QueryKind::bfs, "bfs", "bfs SOURCE [TARGET...]", "hops from SOURCE"},
    {QueryKind::sssp, "sssp", "sssp SOURCE [TARGET...]",
     "shortest-path distances from SOURCE over the int32 edge weights"},
    {QueryKind::khop, "khop", "khop SOURCE K [TARGET...]", "the vertices within K hops of SOURCE"},
};

inline const char* to_string(QueryKind kind) {
  for (const QueryKindName& entry : kQueryKinds)
    if (entry.kind == kind) return entry.name;
  return "?";
}

inline constexpr uint32_t kQueryTargets = 8;  // distances an answer carries
inline constexpr uint32_t kUnreached = 0xffffffffu;

// A query as the host sends it.
struct GraphQuery {
  uint64_t id = 0;  // the host's name for it, echoed in the answer
  QueryKind kind = QueryKind::bfs;
  uint32_t slot = 0;  // set by QueryEngine::submit
  VertexId source = 0;
  uint32_t hops = kUnreached;  // k-hop's radius; no limit otherwise
  uint32_t target_count = 0;
  VertexId targets[kQueryTargets] = {};
};

// What the device writes back when a query ends.
struct QueryAnswer {
  uint64_t id = 0;
  uint64_t reached = 0;  // vertices at a finite distance (within the radius), the source included
  uint32_t levels = 0;   // bfs, k-hop: the largest distance; sssp: relaxation rounds
  uint32_t target_count = 0;
  uint32_t distance[kQueryTargets] = {};  // of each target; kUnreached when not reached
};

}  // namespace irgl::gpu::tasks
