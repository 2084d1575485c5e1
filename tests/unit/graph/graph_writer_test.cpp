// Writing graphs as MatrixMarket and edge-list text (graph_writer.h): every
// text output reads back to the same graph (edges, weights and their type,
// vertex count), the format follows the extension, and bad names are refused.
#include "irgl/graph/graph_writer.h"

#include <gtest/gtest.h>

#include <limits>

#include "graph_test_util.h"
#include "irgl/graph/generators.h"
#include "irgl/graph/load.h"

namespace irgl {
namespace {

using testing::ScratchDir;

CsrGraph load(const std::string& path, BuildOptions build = {}) {
  LoadOptions options;
  options.build = build;
  options.show_progress = false;
  return load_graph(path, options);
}

// The same edges, weights, weight type and vertex count.
void expect_same_edges(const CsrGraph& read, const CsrGraph& graph) {
  EXPECT_EQ(read.num_vertices(), graph.num_vertices());
  EXPECT_EQ(read.weight_type, graph.weight_type);
  EXPECT_EQ(read.out_offsets, graph.out_offsets);
  EXPECT_EQ(read.out_targets, graph.out_targets);
  EXPECT_EQ(read.out_weights, graph.out_weights);
}

constexpr const char* kTextNames[] = {"g.mtx", "g.el", "g.txt", "g.edges", "g.wel", "g.tsv",
                                      "g.csv"};

// Writes `graph` under every text name and reads each file back.
void expect_text_round_trips(const CsrGraph& graph) {
  ScratchDir dir;
  for (const char* name : kTextNames) {
    SCOPED_TRACE(name);
    const std::string path = dir.file(name);
    write_graph(path, graph, *output_format_of(path), /*overwrite=*/false);
    const CsrGraph read = load(path);
    expect_same_edges(read, graph);
    // MatrixMarket keeps the symmetric flag (symmetric storage); an edge list
    // holds both directions of every edge but has no flag.
    if (std::string(name) == "g.mtx") {
      EXPECT_EQ(read.symmetric, graph.symmetric);
    }
  }
}

// 6 vertices (the last two isolated), a self-loop, a duplicate edge.
const std::vector<testing::Edge> kEdges = {{0, 1}, {0, 2}, {1, 2}, {2, 0}, {2, 2}, {3, 1}, {0, 1}};

TEST(GraphWriter, UnweightedGraphsRoundTrip) {
  expect_text_round_trips(build_csr(testing::edge_list(6, kEdges), {}));
}

TEST(GraphWriter, IntWeightedGraphsRoundTrip) {
  const CsrGraph graph = build_csr(
      testing::weighted_edge_list<int32_t>(
          5, {{0, 1, 5}, {0, 2, -3}, {1, 2, 0}, {2, 0, std::numeric_limits<int32_t>::max()},
              {2, 3, std::numeric_limits<int32_t>::min()}, {3, 3, 1}, {0, 1, 2}}),
      {});
  expect_text_round_trips(graph);
}

// Floats keep every bit, and stay floats when all of them are integral.
TEST(GraphWriter, FloatWeightedGraphsRoundTrip) {
  expect_text_round_trips(build_csr(
      testing::weighted_edge_list<float>(
          4, {{0, 1, 0.1f}, {0, 2, -2.5f}, {1, 2, 1e-7f}, {2, 0, 3.4e38f}, {2, 3, -0.0f},
              {3, 0, 16777216.0f}, {3, 1, 1.0f / 3}, {1, 1, 1e-40f}}),
      {}));
  expect_text_round_trips(build_csr(
      testing::weighted_edge_list<float>(3, {{0, 1, 2.0f}, {1, 2, -7.0f}, {2, 0, 0.0f}}), {}));
}

// A symmetric graph: MatrixMarket stores one triangle (entries with
// row >= column) and reads back symmetric, self-loops once.
TEST(GraphWriter, SymmetricGraphsRoundTrip) {
  BuildOptions options;
  options.symmetrize = true;
  options.weights.source = WeightRule::Source::hash;
  const CsrGraph graph = build_csr(testing::edge_list(6, kEdges), options);
  ASSERT_TRUE(graph.symmetric);
  expect_text_round_trips(graph);

  ScratchDir dir;
  write_graph(dir.file("s.mtx"), graph, OutputFormat::matrix_market, false);
  const std::string text = testing::read_file(dir.file("s.mtx"));
  EXPECT_EQ(text.substr(0, text.find('\n', text.find('\n') + 1) + 1),
            "%%MatrixMarket matrix coordinate integer symmetric\n6 6 7\n");
}

TEST(GraphWriter, GeneratedGraphsRoundTrip) {
  BuildOptions options;
  options.weights.source = WeightRule::Source::hash;
  expect_text_round_trips(build_csr(generate_from_spec("rmat:scale=12,edge-factor=8", false),
                                    options));
  BuildOptions simple;
  simple.symmetrize = simple.drop_self_loops = simple.drop_duplicates = true;
  expect_text_round_trips(build_csr(generate_from_spec("rmat:scale=10", false), simple));
}

TEST(GraphWriter, EmptyGraphsRoundTrip) {
  expect_text_round_trips(build_csr(testing::edge_list(3, {}), {}));
  expect_text_round_trips(build_csr(testing::edge_list(0, {}), {}));
}

// The documented text of each format.
TEST(GraphWriter, WritesTheDocumentedText) {
  const CsrGraph graph = build_csr(
      testing::weighted_edge_list<float>(4, {{0, 1, 0.5f}, {2, 0, 2.0f}}), {});
  ScratchDir dir;
  auto text_of = [&](const std::string& name) {
    write_graph(dir.file(name), graph, *output_format_of(name), false);
    return testing::read_file(dir.file(name));
  };
  EXPECT_EQ(text_of("g.mtx"), "%%MatrixMarket matrix coordinate real general\n4 4 2\n1 2 0.5\n3 1 2.0\n");
  EXPECT_EQ(text_of("g.el"), "# Nodes: 4 Edges: 2\n0 1 0.5\n2 0 2.0\n");
  EXPECT_EQ(text_of("g.tsv"), "# Nodes: 4 Edges: 2\n0\t1\t0.5\n2\t0\t2.0\n");
  EXPECT_EQ(text_of("g.csv"), "# Nodes: 4 Edges: 2\nsource,target,weight\n0,1,0.5\n2,0,2.0\n");
  const CsrGraph plain = build_csr(testing::edge_list(3, {{1, 2}}), {});
  write_graph(dir.file("p.mtx"), plain, OutputFormat::matrix_market, false);
  EXPECT_EQ(testing::read_file(dir.file("p.mtx")),
            "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n2 3\n");
}

TEST(GraphWriter, FormatFollowsTheExtension) {
  EXPECT_EQ(output_format_of("a/b.csr"), OutputFormat::irgl_binary);
  EXPECT_EQ(output_format_of("b.mtx"), OutputFormat::matrix_market);
  for (const char* name : {"b.el", "b.txt", "b.edges", "b.wel"})
    EXPECT_EQ(output_format_of(name), OutputFormat::edge_list) << name;
  EXPECT_EQ(output_format_of("b.tsv"), OutputFormat::tsv);
  EXPECT_EQ(output_format_of("b.csv"), OutputFormat::csv);
  for (const char* name : {"b", "b.gr", "b.mtx.gz", "dir.mtx/b", "-", "/dev/null"})
    EXPECT_FALSE(output_format_of(name)) << name;

  EXPECT_EQ(choose_output_format("-", true, std::nullopt), OutputFormat::irgl_binary);
  EXPECT_EQ(choose_output_format("/dev/null", true, std::nullopt), OutputFormat::irgl_binary);
  EXPECT_EQ(choose_output_format("-", true, OutputFormat::csv), OutputFormat::csv);
  EXPECT_EQ(choose_output_format("x.csr", false, OutputFormat::matrix_market),
            OutputFormat::matrix_market);
  EXPECT_EQ(parse_output_format("edgelist", "--output-format"), OutputFormat::edge_list);
}

TEST(GraphWriter, UnknownExtensionsAreRefused) {
  EXPECT_EQ(testing::input_error_of([] { choose_output_format("out.gr", false, std::nullopt); }),
            "out.gr: error: unknown extension '.gr': cannot tell the output format (expected "
            ".csr, .mtx, .el, .txt, .edges, .wel, .tsv or .csv, or --output-format "
            "csr|mtx|edgelist|tsv|csv)");
  EXPECT_EQ(testing::input_error_of([] { choose_output_format("dir.x/out", false, std::nullopt); }),
            "dir.x/out: error: no extension: cannot tell the output format (expected .csr, .mtx, "
            ".el, .txt, .edges, .wel, .tsv or .csv, or --output-format csr|mtx|edgelist|tsv|csv)");
  for (const char* name : {"g.mtx.gz", "g.el.xz"})
    EXPECT_EQ(testing::input_error_of([&] {
                choose_output_format(name, false, OutputFormat::matrix_market);
              }),
              std::string(name) +
                  ": error: compressed output is not supported (write to '-' with "
                  "--output-format and pipe it through gzip or xz)");
  EXPECT_EQ(testing::input_error_of([] { parse_output_format("gr", "--output-format"); }),
            "--output-format: error: unknown output format 'gr' (expected csr, mtx, edgelist, tsv "
            "or csv)");
}

// Text goes through OutputFile like the binary format: no replacing without
// overwrite, and no file left behind by a refused write.
TEST(GraphWriter, NeverReplacesWithoutOverwrite) {
  ScratchDir dir;
  const CsrGraph graph = build_csr(testing::edge_list(2, {{0, 1}}), {});
  testing::write_file(dir.file("g.el"), "precious\n");
  EXPECT_EQ(testing::input_error_of(
                [&] { write_graph(dir.file("g.el"), graph, OutputFormat::edge_list, false); }),
            dir.file("g.el") + ": error: file exists; not overwriting it (use --force to replace it)");
  EXPECT_EQ(testing::read_file(dir.file("g.el")), "precious\n");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"g.el"});
  write_graph(dir.file("g.el"), graph, OutputFormat::edge_list, true);
  EXPECT_EQ(testing::read_file(dir.file("g.el")), "# Nodes: 2 Edges: 1\n0 1\n");
}

// Large enough for several blocks formatted in parallel: the order holds.
TEST(GraphWriter, ManyBlocksKeepTheirOrder) {
  BuildOptions options;
  options.sort_adjacency = false;
  const CsrGraph graph = build_csr(generate_from_spec("rmat:scale=17,edge-factor=12", false),
                                   options);
  ASSERT_GT(graph.num_edges(), 1u << 20);
  ScratchDir dir;
  write_graph(dir.file("g.el"), graph, OutputFormat::edge_list, false);
  BuildOptions unsorted;
  unsorted.sort_adjacency = false;
  expect_same_edges(load(dir.file("g.el"), unsorted), graph);
}

}  // namespace
}  // namespace irgl
