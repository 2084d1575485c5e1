// Calls CPU libraries irglc wrote (sssp, cc, kcore) on graphs built in code
// that break the programs' require() or with a vertex parameter outside the
// graph: each call must be refused with std::invalid_argument, never run.
// check_graph() refuses the same graphs without running. Prints one line
// per case: "refused: MESSAGE" or "ran".
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cc.h"
#include "kcore.h"
#include "sssp.h"

namespace {

// A graph of `n` vertices from per-vertex lists, with int32 weights when
// `weights` is not empty (one per edge, in order).
irgl::CsrGraph graph_of(const std::vector<std::vector<uint32_t>>& lists,
                        const std::vector<int32_t>& weights = {}) {
  irgl::CsrGraph graph;
  graph.set_num_vertices(lists.size());
  graph.out_offsets.assign(1, 0);
  for (const auto& list : lists) {
    for (uint32_t target : list) graph.out_targets.push_back(target);
    graph.out_offsets.push_back(graph.out_targets.size());
  }
  if (!weights.empty()) {
    graph.weight_type = irgl::WeightType::int32;
    for (int32_t weight : weights) {
      uint32_t word;
      std::memcpy(&word, &weight, sizeof word);
      graph.out_weights.push_back(word);
    }
  }
  return graph;
}

template <class Call>
void attempt(const char* what, Call call) {
  try {
    call();
    std::printf("%s: ran\n", what);
  } catch (const std::invalid_argument& error) {
    std::printf("%s: refused: %s\n", what, error.what());
  }
}

}  // namespace

int main() {
  const irgl::CsrGraph path = graph_of({{1}, {0, 2}, {1}}, {1, 1, 2, 2});  // symmetric
  attempt("sssp source 3", [&] { irglc_sssp::run(path, 3); });
  attempt("sssp source 2", [&] { irglc_sssp::run(path, 2); });
  attempt("sssp malformed", [&] { irglc_sssp::run(graph_of({{5}, {}}, {1}), 0); });
  attempt("sssp negative", [&] { irglc_sssp::run(graph_of({{1}, {}}, {-4}), 0); });
  const int32_t most = 2147483647;  // three such edges can sum past uint32_t
  attempt("sssp overflow",
          [&] { irglc_sssp::run(graph_of({{1}, {2}, {3}, {}}, {most, most, most}), 0); });
  attempt("cc directed", [&] { irglc_cc::run(graph_of({{1}, {2}, {}})); });
  attempt("cc unsorted symmetric", [&] { irglc_cc::run(graph_of({{2, 1}, {0}, {0}})); });
  attempt("kcore self-loop", [&] { irglc_kcore::run(graph_of({{0, 1}, {0}}), 1); });
  attempt("kcore repeated edge", [&] { irglc_kcore::run(graph_of({{1, 1}, {0, 0}}), 1); });
  attempt("kcore simple", [&] { irglc_kcore::run(graph_of({{1}, {0}}), 1); });
  // check_graph: run()'s graph checks alone (what a GPU build's caller runs
  // on the host graph); it takes no vertex parameter.
  attempt("check_graph cc directed", [&] { irglc_cc::check_graph(graph_of({{1}, {2}, {}})); });
  attempt("check_graph sssp unweighted", [&] { irglc_sssp::check_graph(graph_of({{1}, {}})); });
  attempt("check_graph sssp path", [&] { irglc_sssp::check_graph(path); });
  return 0;
}
