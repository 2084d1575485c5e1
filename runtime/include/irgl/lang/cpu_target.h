// The target of irglc's sequential CPU programs (--target=cpu): the driver
// runs on the host over a view of the host graph.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>

#include "irgl/lang/common.h"
#include "irgl/lang/program.h"

namespace irgl::lang {

// A Graph view of a host CSR graph (valid while `graph` lives).
inline Graph view_of(const CsrGraph& graph) {
  const Adjacency out = graph.out();
  const AdjacencyView out_view{out.offsets, out.neighbors, out.weight_words};
  AdjacencyView in_view{};
  if (graph.has_transpose()) {
    const Adjacency in = graph.in();
    in_view = {in.offsets, in.neighbors, in.weight_words};
  }
  Graph view(static_cast<uint32_t>(graph.num_vertices()), graph.num_edges(), out_view, in_view);
  uint64_t max_out = 0, max_in = 0;
  for (uint64_t v = 0; v < graph.num_vertices(); ++v) {
    max_out = std::max(max_out, graph.out_degree(static_cast<VertexId>(v)));
    if (graph.has_transpose()) max_in = std::max(max_in, graph.in_degree(static_cast<VertexId>(v)));
  }
  view.set_max_degrees(max_out, max_in);
  return view;
}

class CpuTarget : public ProgramTarget {
 public:
  explicit CpuTarget(std::function<void(const Graph&)> driver) : driver_(std::move(driver)) {}

  std::string device_name() override { return "CPU (sequential)"; }
  void prepare(const CsrGraph& graph) override { view_ = view_of(graph); }
  double run() override {
    const auto start = std::chrono::steady_clock::now();
    driver_(view_);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  }

 private:
  std::function<void(const Graph&)> driver_;
  Graph view_;
};

}  // namespace irgl::lang
