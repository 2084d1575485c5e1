// What the reachability programs print: how many vertices bfs reaches from
// `source`, and whether sssp reaches the same ones (it must: the weights
// are positive). Returns the program's exit status.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "irgl/lang/common.h"

inline int report_agreement(const std::vector<uint32_t>& levels,
                            const std::vector<uint32_t>& distances, irgl::lang::Node source) {
  uint64_t reached = 0, disagreements = 0;
  for (size_t v = 0; v < levels.size(); ++v) {
    const bool by_bfs = levels[v] != irgl::lang::INF;
    const bool by_sssp = distances[v] != irgl::lang::INF;
    reached += by_bfs;
    disagreements += by_bfs != by_sssp;
  }
  std::printf("reachability: %llu of %zu vertices reachable from %u; bfs and sssp %s\n",
              static_cast<unsigned long long>(reached), levels.size(), source,
              disagreements == 0 ? "agree" : "DISAGREE");
  return disagreements == 0 ? 0 : 1;
}
