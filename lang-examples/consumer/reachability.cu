// A user's program that calls two irglc-generated GPU programs (bfs.irgl and
// sssp.irgl, compiled by irglc_add_sources) on a graph it loads and uploads
// itself, and compares their answers: every vertex bfs reaches, sssp reaches.
#include <cstdio>
#include <cstdlib>

#include "agreement.h"
#include "bfs.h"    // irglc_bfs::run
#include "sssp.h"   // irglc_sssp::run
#include "irgl/gpu/device_info.h"
#include "irgl/graph/load.h"
#include "irgl/support/error.h"

int main(int argc, char** argv) {
  return irgl::run_tool_main("reachability", [](int argc, char** argv) {
    if (argc < 2) {
      std::fprintf(stderr, "usage: reachability GRAPH [SOURCE]\n");
      return 2;
    }
    std::string why;
    if (!irgl::gpu::gpu_available(&why)) {
      std::printf("reachability: no usable GPU (%s): skipped\n", why.c_str());
      return 77;
    }
    const irgl::lang::Node source = argc > 2 ? std::atoi(argv[2]) : 0;
    irgl::LoadOptions options;
    options.build.weights.source = irgl::WeightRule::Source::hash;  // sssp needs weights
    const irgl::CsrGraph graph = irgl::load_graph(argv[1], options);
    const irgl::gpu::DeviceGraph device_graph(graph);

    const irglc_bfs::Result levels = irglc_bfs::run(device_graph, source);
    const irglc_sssp::Result distances = irglc_sssp::run(device_graph, source);
    return report_agreement(levels.level, distances.dist, source);
  }, argc, argv);
}
