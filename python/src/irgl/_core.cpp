// The Python module irgl._core: host graphs (irgl::CsrGraph) and the
// examples' sequential programs (irglc --emit=library --target=cpu), with
// results as numpy arrays. irgl/__init__.py is the documented surface.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bc.h"
#include "bfs.h"
#include "cc.h"
#include "coloring.h"
#include "irgl/graph/edge_list.h"
#include "irgl/graph/load.h"
#include "irgl/options/graph_options.h"
#include "irgl/support/error.h"
#include "jaccard.h"
#include "louvain.h"
#include "kcore.h"
#include "mis.h"
#include "numpy_results.h"
#include "pr.h"
#include "scc.h"
#include "sssp.h"
#include "sssp_real.h"
#include "tc.h"
#include "tc_per_vertex.h"

namespace nb = nanobind;
using irgl::python::to_numpy;
using irgl::python::without_gil;

namespace {

using Graph = std::shared_ptr<irgl::CsrGraph>;
template <class T>
using Array1d = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// A read-only numpy view of a graph array, keeping the graph alive.
template <class T>
nb::ndarray<nb::numpy, const T, nb::ndim<1>> view(const Graph& graph, const std::vector<T>& values) {
  auto* keep = new Graph(graph);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<Graph*>(p); });
  return {values.data(), {values.size()}, owner};
}

// The load options of the keyword arguments, checked as the command line's.
irgl::LoadOptions load_options(bool symmetrize, bool simple, bool drop_self_loops,
                               bool drop_duplicates, const std::string& weights,
                               const std::string& weight_type, bool transpose) {
  irgl::GraphOptionValues values;
  values.symmetrize = symmetrize;
  values.simple = simple;
  values.drop_self_loops = drop_self_loops;
  values.drop_duplicates = drop_duplicates;
  values.weights = weights;
  values.weight_type = weight_type;
  values.transpose = transpose;
  irgl::LoadOptions options = irgl::to_load_options(values);
  options.show_progress = false;
  return options;
}

Graph load(const std::string& path, bool symmetrize, bool simple, bool drop_self_loops,
           bool drop_duplicates, const std::string& weights, const std::string& weight_type,
           const std::string& format, const std::string& cache_dir) {
  irgl::LoadOptions options = load_options(symmetrize, simple, drop_self_loops, drop_duplicates,
                                           weights, weight_type, false);
  options.format = irgl::parse_graph_format(format, "format");
  options.cache_dir = cache_dir;
  nb::gil_scoped_release unlocked;
  return std::make_shared<irgl::CsrGraph>(irgl::load_graph(path, options));
}

// A graph of the edges sources[i] -> targets[i] (and weights[i], int32 or
// float32 words, when given) on num_vertices vertices.
Graph from_edges(Array1d<uint32_t> sources, Array1d<uint32_t> targets, nb::object weights,
                 uint64_t num_vertices, bool symmetrize, bool simple, bool drop_self_loops,
                 bool drop_duplicates, const std::string& weight_rule) {
  if (sources.shape(0) != targets.shape(0))
    throw std::invalid_argument("from_edges: " + std::to_string(sources.shape(0)) +
                                " sources but " + std::to_string(targets.shape(0)) + " targets");
  irgl::EdgeList edges;
  edges.name = "python edges";
  edges.num_vertices = num_vertices;
  edges.sources.assign(sources.data(), sources.data() + sources.shape(0));
  edges.targets.assign(targets.data(), targets.data() + targets.shape(0));
  for (uint64_t i = 0; i < edges.size(); ++i)
    if (edges.sources[i] >= num_vertices || edges.targets[i] >= num_vertices)
      throw std::invalid_argument("from_edges: edge " + std::to_string(i) + " (" +
                                  std::to_string(edges.sources[i]) + ", " +
                                  std::to_string(edges.targets[i]) + ") has an endpoint not below "
                                  "num_vertices = " + std::to_string(num_vertices));
  if (!weights.is_none()) {
    const auto assign_words = [&](const auto& array, irgl::WeightType type) {
      if (array.shape(0) != edges.size())
        throw std::invalid_argument("from_edges: " + std::to_string(array.shape(0)) +
                                    " weights for " + std::to_string(edges.size()) + " edges");
      edges.weight_type = type;
      edges.weights.resize(edges.size());
      std::memcpy(edges.weights.data(), array.data(), edges.size() * 4);
    };
    Array1d<int32_t> ints;
    Array1d<float> floats;
    if (nb::try_cast(weights, ints, false))
      assign_words(ints, irgl::WeightType::int32);
    else if (nb::try_cast(weights, floats, false))
      assign_words(floats, irgl::WeightType::float32);
    else
      throw std::invalid_argument("from_edges: weights must be a 1-d int32 or float32 array");
  }
  const irgl::LoadOptions options = load_options(symmetrize, simple, drop_self_loops,
                                                 drop_duplicates, weight_rule, "keep", false);
  nb::gil_scoped_release unlocked;
  return std::make_shared<irgl::CsrGraph>(irgl::build_csr(std::move(edges), options.build));
}

// Gives the graph its in-edges, which pull programs (pagerank) read: built
// once and kept (under the GIL: it changes the graph).
void ensure_transpose(const Graph& graph) {
  if (!graph->has_transpose()) graph->build_transpose();
}

// Binds a program with one vertex output as name(graph, parameters...),
// returning it as a numpy array. A program that reads in-edges refuses a
// graph without its transpose: irgl/__init__.py builds it first
// (ensure_transpose), for this build and the GPU's alike.
template <auto Run, auto Output, class... Parameters>
void def_vertex_program(nb::module_& m, const char* name) {
  m.def(name, [](const Graph& g, Parameters... parameters) {
    return to_numpy(without_gil([&] { return std::move(Run(*g, parameters...).*Output); }));
  });
}

// Each program's check_graph: run()'s checks of the graph alone, which the
// GPU path makes on the host graph (a GPU run cannot read the edges).
void check_graph(const Graph& graph, const std::string& program) {
  static const std::pair<const char*, void (*)(const irgl::CsrGraph&)> checks[] = {
      {"bfs", irglc_bfs::check_graph},   {"sssp", irglc_sssp::check_graph},
      {"sssp_real", irglc_sssp_real::check_graph},
      {"cc", irglc_cc::check_graph},     {"pr", irglc_pr::check_graph},
      {"kcore", irglc_kcore::check_graph}, {"scc", irglc_scc::check_graph},
      {"mis", irglc_mis::check_graph},   {"coloring", irglc_coloring::check_graph},
      {"tc", irglc_tc::check_graph},     {"tc_per_vertex", irglc_tc_per_vertex::check_graph},
      {"bc", irglc_bc::check_graph},     {"jaccard", irglc_jaccard::check_graph},
      {"louvain", irglc_louvain::check_graph}};
  for (const auto& [name, check] : checks)
    if (program == name) return without_gil([&] { check(*graph); });
  throw std::invalid_argument("check_graph: no program '" + program + "'");
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "irglc's host graphs and the examples' sequential programs (see irgl/__init__.py)";
  irgl::python::register_input_errors();

  nb::class_<irgl::CsrGraph>(m, "Graph", nb::dynamic_attr())
      .def_prop_ro("num_vertices", &irgl::CsrGraph::num_vertices)
      .def_prop_ro("num_edges", &irgl::CsrGraph::num_edges)
      .def_prop_ro("name", [](const irgl::CsrGraph& g) { return g.name; })
      .def_prop_ro("weight_type", [](const irgl::CsrGraph& g) { return std::string(irgl::to_string(g.weight_type)); })
      .def_prop_ro("sorted", [](const irgl::CsrGraph& g) { return g.sorted; });

  m.def("load", &load, nb::arg("path"), nb::arg("symmetrize"), nb::arg("simple"),
        nb::arg("drop_self_loops"), nb::arg("drop_duplicates"), nb::arg("weights"),
        nb::arg("weight_type"), nb::arg("format"), nb::arg("cache_dir"));
  m.def("from_edges", &from_edges, nb::arg("sources"), nb::arg("targets"), nb::arg("weights").none(),
        nb::arg("num_vertices"), nb::arg("symmetrize"), nb::arg("simple"),
        nb::arg("drop_self_loops"), nb::arg("drop_duplicates"), nb::arg("weight_rule"));
  // irgl.compile()'s programs take the graph by its address (they are built
  // against the same headers).
  m.def("graph_address", [](const Graph& g) { return reinterpret_cast<uintptr_t>(g.get()); });
  m.def("ensure_transpose", &ensure_transpose);
  m.def("check_graph", &check_graph, nb::arg("graph"), nb::arg("program"));
  m.def("indptr", [](const Graph& g) { return view(g, g->out_offsets); });
  m.def("indices", [](const Graph& g) { return view(g, g->out_targets); });
  m.def("weight_words", [](const Graph& g) { return view(g, g->out_weights); });

  // The programs with a vertex output: name(graph, parameters...).
  def_vertex_program<irglc_bfs::run, &irglc_bfs::Result::level, uint32_t>(m, "bfs");
  def_vertex_program<irglc_sssp::run, &irglc_sssp::Result::dist, uint32_t>(m, "sssp");
  def_vertex_program<irglc_sssp_real::run, &irglc_sssp_real::Result::dist, uint32_t>(
      m, "sssp_real");
  def_vertex_program<irglc_cc::run, &irglc_cc::Result::component>(m, "cc");
  def_vertex_program<irglc_pr::run, &irglc_pr::Result::rank, float, int>(m, "pr");
  def_vertex_program<irglc_kcore::run, &irglc_kcore::Result::in_core, uint32_t>(m, "kcore");
  def_vertex_program<irglc_scc::run, &irglc_scc::Result::component>(m, "scc");
  def_vertex_program<irglc_mis::run, &irglc_mis::Result::in_set>(m, "mis");
  def_vertex_program<irglc_coloring::run, &irglc_coloring::Result::color, bool>(m, "coloring");
  def_vertex_program<irglc_tc_per_vertex::run, &irglc_tc_per_vertex::Result::triangles>(
      m, "tc_per_vertex");
  def_vertex_program<irglc_bc::run, &irglc_bc::Result::centrality, uint32_t, uint32_t, bool>(
      m, "bc");
  def_vertex_program<irglc_jaccard::run, &irglc_jaccard::Result::similarity, uint32_t>(
      m, "jaccard");
  m.def("tc", [](const Graph& g) { return without_gil([&] { return irglc_tc::run(*g); }).triangles; });
  // louvain: (each vertex's community, their modularity).
  m.def("louvain", [](const Graph& g, double resolution, double threshold, uint32_t max_levels,
                      uint32_t max_iterations) {
    irglc_louvain::Result result = without_gil(
        [&] { return irglc_louvain::run(*g, resolution, threshold, max_levels, max_iterations); });
    return nb::make_tuple(to_numpy(std::move(result.label)), result.modularity);
  });
}
