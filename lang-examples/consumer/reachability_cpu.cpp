// reachability.cu on the host: the same two programs compiled as CPU
// libraries (irglc_add_sources ... CPU), the sequential reference, called
// on a graph the program loads itself. No GPU or CUDA compiler needed.
#include <cstdio>
#include <cstdlib>

#include "agreement.h"
#include "bfs.h"   // irglc_bfs::run(const irgl::CsrGraph&, Node source)
#include "sssp.h"  // irglc_sssp::run
#include "irgl/graph/load.h"
#include "irgl/support/error.h"

int main(int argc, char** argv) {
  return irgl::run_tool_main("reachability-cpu", [](int argc, char** argv) {
    if (argc < 2) {
      std::fprintf(stderr, "usage: reachability-cpu GRAPH [SOURCE]\n");
      return 2;
    }
    const irgl::lang::Node source = argc > 2 ? std::atoi(argv[2]) : 0;
    irgl::LoadOptions options;
    options.build.weights.source = irgl::WeightRule::Source::hash;  // sssp needs weights
    const irgl::CsrGraph graph = irgl::load_graph(argv[1], options);
    const irglc_bfs::Result levels = irglc_bfs::run(graph, source);
    const irglc_sssp::Result distances = irglc_sssp::run(graph, source);
    return report_agreement(levels.level, distances.dist, source);
  }, argc, argv);
}
