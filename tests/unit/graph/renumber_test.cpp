// Renumbering (BuildOptions::renumber, --renumber): the ids that occur in
// edges become 0, 1, ... in increasing order, the graph keeps the input's ids
// (original_ids) through builds, rebuilds, the binary format and the cache,
// and hash weights do not change.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "graph_test_util.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
#include "irgl/graph/graph_writer.h"
#include "irgl/graph/load.h"

namespace irgl {
namespace {

using testing::ScratchDir;

BuildOptions renumbering() {
  BuildOptions options;
  options.renumber = true;
  return options;
}

TEST(Renumber, UsedIdsBecomeDenseInIncreasingOrder) {
  EdgeList edges = testing::edge_list(20, {{10, 3}, {3, 7}, {7, 10}, {19, 19}});
  EXPECT_EQ(count_used_vertices(edges), 4u);
  renumber_vertices(edges);
  EXPECT_EQ(edges.num_vertices, 4u);
  EXPECT_EQ(testing::edge_list(4, {{2, 0}, {0, 1}, {1, 2}, {3, 3}}).sources, edges.sources);
  EXPECT_EQ(testing::edge_list(4, {{2, 0}, {0, 1}, {1, 2}, {3, 3}}).targets, edges.targets);
  EXPECT_EQ(edges.original_ids, (std::vector<VertexId>{3, 7, 10, 19}));
}

TEST(Renumber, ComposesWithEarlierOriginalIds) {
  EdgeList edges = testing::edge_list(4, {{3, 1}});
  edges.original_ids = {100, 200, 300, 400};
  renumber_vertices(edges);
  EXPECT_EQ(edges.original_ids, (std::vector<VertexId>{200, 400}));
  EXPECT_EQ(edges.sources, (std::vector<VertexId>{1}));
  EXPECT_EQ(edges.targets, (std::vector<VertexId>{0}));
}

TEST(Renumber, EdgeCases) {
  EdgeList none = testing::edge_list(5, {});
  EXPECT_EQ(count_used_vertices(none), 0u);
  renumber_vertices(none);
  EXPECT_EQ(none.num_vertices, 0u);
  EXPECT_TRUE(none.original_ids.empty());
  // Ids at the ends of 64-bit words and at the 32-bit limit.
  EdgeList wide = testing::edge_list(kMaxVertices, {{63, 64}, {0, VertexId(kMaxVertices - 1)}});
  renumber_vertices(wide);
  EXPECT_EQ(wide.original_ids, (std::vector<VertexId>{0, 63, 64, VertexId(kMaxVertices - 1)}));
  EXPECT_EQ(wide.sources, (std::vector<VertexId>{1, 0}));
  EXPECT_EQ(wide.targets, (std::vector<VertexId>{2, 3}));
}

// Many threads, many words: the same as a serial reference.
TEST(Renumber, MatchesASerialReference) {
  EdgeList edges = generate_from_spec("uniform:vertices=3000000,edges=100000,seed=5", false);
  std::set<VertexId> used(edges.sources.begin(), edges.sources.end());
  used.insert(edges.targets.begin(), edges.targets.end());
  std::map<VertexId, VertexId> new_id;
  for (VertexId id : used) new_id.emplace(id, VertexId(new_id.size()));
  const EdgeList before = edges;
  EXPECT_EQ(count_used_vertices(edges), used.size());
  renumber_vertices(edges);
  ASSERT_EQ(edges.num_vertices, used.size());
  EXPECT_EQ(edges.original_ids, std::vector<VertexId>(used.begin(), used.end()));
  for (uint64_t e = 0; e < edges.size(); ++e) {
    ASSERT_EQ(edges.sources[e], new_id[before.sources[e]]) << e;
    ASSERT_EQ(edges.targets[e], new_id[before.targets[e]]) << e;
  }
}

// The renumbered graph is the same graph under new names: same edges after
// mapping back, same hash weights, any build options.
TEST(Renumber, BuildCsrKeepsTheGraph) {
  const std::vector<testing::Edge> list = {{50, 7}, {7, 9}, {9, 50}, {9, 9}, {50, 7}, {1000, 7}};
  for (bool simple : {false, true}) {
    BuildOptions plain;
    plain.weights.source = WeightRule::Source::hash;
    plain.transpose = true;
    plain.symmetrize = plain.drop_self_loops = plain.drop_duplicates = simple;
    BuildOptions renumbered = plain;
    renumbered.renumber = true;
    const CsrGraph a = build_csr(testing::edge_list(1001, list), plain);
    const CsrGraph b = build_csr(testing::edge_list(1001, list), renumbered);
    b.validate();
    ASSERT_EQ(b.num_vertices(), 4u);
    EXPECT_EQ(b.original_ids, (std::vector<VertexId>{7, 9, 50, 1000}));
    EXPECT_EQ(b.symmetric, a.symmetric);
    // Edge multisets (u, v, weight) in original ids agree.
    std::multiset<std::tuple<uint64_t, uint64_t, uint32_t>> from_a, from_b;
    for (VertexId v = 0; v < a.num_vertices(); ++v)
      for (uint64_t e = a.out_offsets[v]; e < a.out_offsets[v + 1]; ++e)
        from_a.emplace(v, a.out_targets[e], a.out_weights[e]);
    for (VertexId v = 0; v < b.num_vertices(); ++v)
      for (uint64_t e = b.out_offsets[v]; e < b.out_offsets[v + 1]; ++e)
        from_b.emplace(b.original_id(v), b.original_id(b.out_targets[e]), b.out_weights[e]);
    EXPECT_EQ(from_a, from_b);
    EXPECT_EQ(b.in_sources.size(), b.num_edges());
  }
}

TEST(Renumber, RebuildKeepsAndComposesOriginalIds) {
  CsrGraph graph = build_csr(testing::edge_list(100, {{90, 10}, {10, 40}}), renumbering());
  ASSERT_EQ(graph.original_ids, (std::vector<VertexId>{10, 40, 90}));
  BuildOptions symmetrize;
  symmetrize.symmetrize = true;
  const CsrGraph symmetric = rebuild(CsrGraph(graph), symmetrize);
  EXPECT_EQ(symmetric.original_ids, graph.original_ids);
  EXPECT_TRUE(symmetric.symmetric);
  // Renumbering counts the ids of the input's edges, self-loops included,
  // before any are dropped...
  BuildOptions drop = renumbering();
  drop.drop_self_loops = true;
  CsrGraph looped = build_csr(testing::edge_list(100, {{90, 10}, {40, 40}}), drop);
  EXPECT_EQ(looped.original_ids, (std::vector<VertexId>{10, 40, 90}));
  EXPECT_EQ(testing::out_lists(looped), (std::vector<std::vector<VertexId>>{{}, {}, {0}}));
  // ...and renumbering again composes with the first renumbering.
  const CsrGraph twice = rebuild(std::move(looped), renumbering());
  EXPECT_EQ(twice.original_ids, (std::vector<VertexId>{10, 90}));
  EXPECT_EQ(testing::out_lists(twice), (std::vector<std::vector<VertexId>>{{}, {0}}));
  // Options that change nothing keep the graph as it is.
  const CsrGraph same = rebuild(CsrGraph(graph), {});
  EXPECT_EQ(same.original_ids, graph.original_ids);
}

TEST(Renumber, ValidateChecksTheOriginalIds) {
  CsrGraph graph = build_csr(testing::edge_list(10, {{2, 5}}), renumbering());
  graph.validate();
  graph.original_ids = {5, 2};
  EXPECT_THROW(graph.validate(), std::logic_error);
  graph.original_ids = {2};
  EXPECT_THROW(graph.validate(), std::logic_error);
}

// The binary format keeps the original ids (flag bit 4, an array after the
// others) and checks that they increase.
TEST(Renumber, BinaryFormatKeepsOriginalIds) {
  ScratchDir dir;
  BuildOptions options = renumbering();
  options.transpose = true;
  options.weights.source = WeightRule::Source::hash;
  const CsrGraph graph =
      build_csr(testing::edge_list(1u << 24, {{1u << 23, 5}, {5, 77}, {77, 5}}), options);
  write_irgl_binary(dir.file("g.csr"), graph, false);
  const CsrGraph read = read_irgl_binary(dir.file("g.csr"));
  testing::expect_same_graph(read, graph);
  EXPECT_EQ(read.original_ids, (std::vector<VertexId>{5, 77, 1u << 23}));

  std::string file = testing::read_file(dir.file("g.csr"));
  uint32_t flags;
  std::memcpy(&flags, &file[12], 4);
  EXPECT_EQ(flags & 16u, 16u);
  // n = 3, m = 3, weighted, transpose: the ids come last, 8-byte aligned.
  const uint64_t ids_at = file.size() - 16;
  uint32_t id;
  std::memcpy(&id, &file[ids_at + 4], 4);
  EXPECT_EQ(id, 77u);
  // Decreasing ids are refused at their byte (the checksums resealed as a
  // forger would).
  testing::write_file(dir.file("bad.csr"), file);
  CsrGraph forged = graph;
  forged.original_ids = {5, 4, 6};
  write_irgl_binary(dir.file("bad.csr"), forged, true);
  EXPECT_EQ(testing::input_error_of([&] { read_irgl_binary(dir.file("bad.csr")); }),
            dir.file("bad.csr") + ": byte " + std::to_string(ids_at + 4) +
                ": error: the original vertex ids do not increase at vertex 1 (4 after 5)");
  // A graph that was not renumbered has no such array.
  const CsrGraph plain = build_csr(testing::edge_list(3, {{0, 1}}), {});
  write_irgl_binary(dir.file("plain.csr"), plain, false);
  EXPECT_TRUE(read_irgl_binary(dir.file("plain.csr")).original_ids.empty());
}

// Loading with --renumber: text, the cache (keyed on renumber), .csr files.
TEST(Renumber, LoadGraphAndTheCache) {
  ScratchDir dir;
  testing::write_file(dir.file("sparse.txt"), "0 3000000\n5 7\n");
  LoadOptions options;
  options.show_progress = false;
  options.build.renumber = true;
  options.cache_dir = dir.file("cache");
  const CsrGraph first = load_graph(dir.file("sparse.txt"), options);
  EXPECT_EQ(first.num_vertices(), 4u);
  EXPECT_EQ(first.original_ids, (std::vector<VertexId>{0, 5, 7, 3000000}));
  ASSERT_EQ(dir.entries(), (std::vector<std::string>{"cache", "sparse.txt"}));
  const CsrGraph cached = load_graph(dir.file("sparse.txt"), options);
  testing::expect_same_graph(cached, first);
  EXPECT_EQ(cached.original_ids, first.original_ids);
  // Without renumbering, another entry (the same source, other options).
  options.cache_dir = dir.file("cache2");
  options.build.renumber = false;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(load_graph(dir.file("sparse.txt"), options).num_vertices(), 3000001u);
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("--renumber"), std::string::npos);
  EXPECT_NE(cache_path_for(dir.file("sparse.txt"), GraphFormat::edge_list, renumbering(),
                           dir.file("cache")),
            cache_path_for(dir.file("sparse.txt"), GraphFormat::edge_list, {}, dir.file("cache")));
}

TEST(Renumber, WriteOriginalIds) {
  ScratchDir dir;
  const CsrGraph graph = build_csr(testing::edge_list(100, {{90, 10}, {10, 40}}), renumbering());
  write_original_ids(dir.file("ids"), graph, false);
  EXPECT_EQ(testing::read_file(dir.file("ids")), "10\n40\n90\n");
  const CsrGraph plain = build_csr(testing::edge_list(3, {{0, 1}}), {});
  write_original_ids(dir.file("plain-ids"), plain, false);
  EXPECT_EQ(testing::read_file(dir.file("plain-ids")), "0\n1\n2\n");
  EXPECT_EQ(testing::input_error_of([&] { write_original_ids(dir.file("ids"), graph, false); }),
            dir.file("ids") + ": error: file exists; not overwriting it (use --force to replace it)");
}

}  // namespace
}  // namespace irgl
