// A user's program that calls two CPU libraries irglc wrote (sssp.irgl and
// pr.irgl, --emit=library --target=cpu) on a graph it loads itself: prints
// sssp's distances from vertex 0, one a line; then pr's refusal of a graph
// without in-edges, and pr's vertex count and rank total once it has them.
#include <cstdio>
#include <stdexcept>

#include "irgl/graph/load.h"
#include "pr.h"
#include "sssp.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  irgl::LoadOptions options;
  options.build.weights.source = irgl::WeightRule::Source::hash;  // sssp.irgl reads weights
  irgl::CsrGraph graph = irgl::load_graph(argv[1], options);
  for (uint32_t distance : irglc_sssp::run(graph, 0).dist) std::printf("%u\n", distance);
  try {
    irglc_pr::run(graph);
  } catch (const std::invalid_argument& error) {
    std::printf("refused: %s\n", error.what());
  }
  graph.build_transpose();
  const irglc_pr::Result ranks = irglc_pr::run(graph, 1e-6f);
  double total = 0;
  for (float rank : ranks.rank) total += rank;
  std::printf("pr: %zu ranks, total %.3f\n", ranks.rank.size(), total);
  return 0;
}
