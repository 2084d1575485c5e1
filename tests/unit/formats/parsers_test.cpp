// The graph file readers on valid inputs: the small files in
// tests/inputs/good (one per format and compression) and in-memory texts for
// the finer points (separators, weight typing, parallel chunks, errors).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <thread>

#include "format_test_util.h"
#include "irgl/support/error.h"
#include "test_paths.h"

namespace irgl::testing {
namespace {

std::string good(const std::string& file) { return test_input("good/" + file); }

constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();

// --- MatrixMarket -----------------------------------------------------------

TEST(MatrixMarket, PatternGeneralKeepsFileOrderAndConvertsToZeroBased) {
  const EdgeList edges = read_edges(good("pattern-general.mtx"));
  EXPECT_EQ(edges.name, good("pattern-general.mtx"));
  EXPECT_EQ(edges.num_vertices, 4u);
  EXPECT_EQ(edges.weight_type, WeightType::none);
  EXPECT_TRUE(edges.weights.empty());
  EXPECT_FALSE(edges.symmetric);
  EXPECT_EQ(edges_of(edges), (std::vector<Edge>{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}}));
}

TEST(MatrixMarket, SymmetricMirrorsOffDiagonalEntries) {
  const EdgeList edges = read_edges(good("symmetric-real.mtx"));
  EXPECT_EQ(edges.num_vertices, 3u);
  EXPECT_TRUE(edges.symmetric);
  ASSERT_EQ(edges.weight_type, WeightType::float32);
  EXPECT_EQ(weighted_edges_of<float>(edges), (std::vector<RealEdge>{{0, 0, 4.5f},
                                                                    {1, 0, -1.25f},
                                                                    {0, 1, -1.25f},
                                                                    {2, 0, 2e-3f},
                                                                    {0, 2, 2e-3f},
                                                                    {2, 1, 7.0f},
                                                                    {1, 2, 7.0f}}));
}

TEST(MatrixMarket, IntegerValuesAreInt32WithTheirExtremes) {
  const EdgeList edges = read_edges(good("integer.mtx"));
  ASSERT_EQ(edges.weight_type, WeightType::int32);
  EXPECT_EQ(weighted_edges_of<int32_t>(edges),
            (std::vector<IntEdge>{{0, 1, -7}, {1, 2, kIntMax}, {2, 0, kIntMin}}));
}

TEST(MatrixMarket, XzCompressedReadsLikeThePlainFile) {
  const EdgeList plain = read_edges(good("integer.mtx"));
  const EdgeList packed = read_edges(good("integer.mtx.xz"));
  EXPECT_EQ(weighted_edges_of<int32_t>(packed), weighted_edges_of<int32_t>(plain));
  EXPECT_EQ(packed.num_vertices, plain.num_vertices);
}

TEST(MatrixMarket, AcceptsCommentsAndBlankLinesAmongEntriesAndOddSpacing) {
  const EdgeList edges =
      parse_matrix_market(text_input("%%MatrixMarket matrix coordinate integer general\n"
                                     "%\n\n  3 3 3  \n"
                                     "1\t2\t+5\r\n"
                                     "% a comment among the entries\n"
                                     "\n"
                                     "2 3 0000000012\n"
                                     "3 1 2147483647"));  // no final newline
  EXPECT_EQ(weighted_edges_of<int32_t>(edges),
            (std::vector<IntEdge>{{0, 1, 5}, {1, 2, 12}, {2, 0, kIntMax}}));
}

TEST(MatrixMarket, RealValuesInEveryNotation) {
  const EdgeList edges =
      parse_matrix_market(text_input("%%MatrixMarket matrix coordinate real general\n"
                                     "2 2 4\n1 1 1\n1 2 -.5\n2 1 6.02E+3\n2 2 1e-50\n"));
  EXPECT_EQ(weighted_edges_of<float>(edges),
            (std::vector<RealEdge>{{0, 0, 1.0f}, {0, 1, -0.5f}, {1, 0, 6020.0f}, {1, 1, 0.0f}}));
}

TEST(MatrixMarket, EmptyMatrixIsAGraphWithoutEdges) {
  const EdgeList edges = parse_matrix_market(
      text_input("%%MatrixMarket matrix coordinate pattern symmetric\n5 5 0\n"));
  EXPECT_EQ(edges.num_vertices, 5u);
  EXPECT_EQ(edges.size(), 0u);
}

TEST(MatrixMarket, ErrorsNameTheLine) {
  EXPECT_EQ(
      input_error_of([] {
        parse_matrix_market(text_input(
            "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1 x\n", "m.mtx"));
      }),
      "m.mtx:4: error: entry has 3 fields, expected 2 ('row column') for a pattern matrix");
  EXPECT_EQ(input_error_of([] {
              parse_matrix_market(
                  text_input("%%MatrixMarket matrix coordinate real general extra\n", "m.mtx"));
            }),
            "m.mtx:1: error: unexpected 'extra' after the MatrixMarket banner");
  EXPECT_EQ(input_error_of([] {
              parse_matrix_market(
                  text_input("%%MatrixMarket matrix coordinate pattern general\n"
                             "5000000000 5000000000 0\n",
                             "m.mtx"));
            }),
            "m.mtx:2: error: matrix has 5000000000 rows, more than the 4294967295 vertices a "
            "graph may have");
}

// --- Edge lists -------------------------------------------------------------

TEST(EdgeListFormat, SnapHeaderGivesTheVertexCount) {
  const EdgeList edges = read_edges(good("snap.txt"));
  EXPECT_EQ(edges.num_vertices, 7u);  // vertex 6 has no edges
  EXPECT_EQ(edges.weight_type, WeightType::none);
  EXPECT_EQ(edges_of(edges), (std::vector<Edge>{{0, 1}, {0, 2}, {1, 2}, {2, 5}, {3, 4}, {5, 0}}));
}

TEST(EdgeListFormat, GzipAndMultiMemberGzipReadLikeThePlainFile) {
  const EdgeList plain = read_edges(good("snap.txt"));
  for (const char* file : {"snap.txt.gz", "two-members.txt.gz"}) {
    const EdgeList packed = read_edges(good(file));
    EXPECT_EQ(edges_of(packed), edges_of(plain)) << file;
    EXPECT_EQ(packed.num_vertices, plain.num_vertices) << file;
  }
}

TEST(EdgeListFormat, WithoutHeaderVerticesAreMaxIdPlusOne) {
  const EdgeList edges = parse_edge_list(text_input("3 9\n9 3\n"));
  EXPECT_EQ(edges.num_vertices, 10u);
}

TEST(EdgeListFormat, IntegerWeightsAreInt32) {
  const EdgeList edges = read_edges(good("weighted.wel"));
  EXPECT_EQ(edges.num_vertices, 4u);
  ASSERT_EQ(edges.weight_type, WeightType::int32);
  EXPECT_EQ(weighted_edges_of<int32_t>(edges),
            (std::vector<IntEdge>{{0, 1, 5}, {1, 2, -3}, {2, 0, 0}, {2, 3, kIntMax}}));
}

TEST(EdgeListFormat, OneNonIntegerWeightMakesAllFloat32) {
  const EdgeList edges = read_edges(good("float-weights.txt"));
  ASSERT_EQ(edges.weight_type, WeightType::float32);
  EXPECT_EQ(weighted_edges_of<float>(edges),
            (std::vector<RealEdge>{{0, 1, 1.0f}, {1, 2, 2.5f}, {2, 0, -300.0f}}));
}

TEST(EdgeListFormat, CsvWithSpacesAndCrLf) {
  const EdgeList edges = read_edges(good("edges.csv"));
  EXPECT_EQ(edges.num_vertices, 4u);
  EXPECT_EQ(edges_of(edges), (std::vector<Edge>{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
}

TEST(EdgeListFormat, UnusualButValidNumbers) {
  // A '+' sign, leading zeros and 10-digit values take the careful path.
  const EdgeList edges =
      parse_edge_list(text_input("0 1 +5\n1 2 0000000007\n2 0 2147483647\n"
                                 "0000000000000000000003 0 -2147483648\n"));
  EXPECT_EQ(weighted_edges_of<int32_t>(edges),
            (std::vector<IntEdge>{{0, 1, 5}, {1, 2, 7}, {2, 0, kIntMax}, {3, 0, kIntMin}}));
}

TEST(EdgeListFormat, CommentsOnlyMakeAnEmptyGraph) {
  EXPECT_EQ(parse_edge_list(text_input("# nothing\n% here\n")).num_vertices, 0u);
  const EdgeList declared = parse_edge_list(text_input("# Nodes: 3 Edges: 0\n"));
  EXPECT_EQ(declared.num_vertices, 3u);
  EXPECT_EQ(declared.size(), 0u);
}

// Regression: SNAP's "Nodes: N" is a lower bound, since published files such
// as roadNet-CA have ids at or above N.
TEST(EdgeListFormat, IdsBeyondTheNodesCommentRaiseTheVertexCount) {
  const CsrGraph graph = load_graph(testing::test_input("good/el-ids-beyond-nodes-header.txt"), {});
  EXPECT_EQ(graph.num_vertices(), 4u);
  EXPECT_EQ(graph.num_edges(), 2u);
  EXPECT_EQ(parse_edge_list(text_input("# Nodes: 10 Edges: 1\n0 1\n")).num_vertices, 10u);
}

// --- Header lines and CSV ----------------------------------------------------

TEST(EdgeListFormat, CsvMayStartWithAHeaderLine) {
  const EdgeList edges = parse_edge_list(
      text_input("# from irgl-graph\nsource,target,weight\n0,1,2.5\n1,2,3\n", "g.csv"));
  EXPECT_EQ(weighted_edges_of<float>(edges), (std::vector<RealEdge>{{0, 1, 2.5f}, {1, 2, 3.0f}}));
  // Quoted names, a compressed .csv name, and no header at all.
  EXPECT_EQ(edges_of(parse_edge_list(text_input("\"src\",\"dst\"\n1,2\n", "g.csv.gz"))),
            (std::vector<Edge>{{1, 2}}));
  EXPECT_EQ(edges_of(parse_edge_list(text_input("1,2\n", "g.csv"))), (std::vector<Edge>{{1, 2}}));
  // Only one header, before the first edge.
  EXPECT_EQ(input_error_of([] { parse_edge_list(text_input("a,b\nc,d\n1,2\n", "two.csv")); }),
            "two.csv:2: error: expected a vertex id, found 'c'");
  EXPECT_EQ(input_error_of([] { parse_edge_list(text_input("1,2\na,b\n", "late.csv")); }),
            "late.csv:2: error: expected a vertex id, found 'a'");
}

// Regression: a header line in a whitespace edge list was reported as a bad
// vertex id. It stays an error, but says what the line looks like and how to
// read it; --header (EdgeListOptions::header) accepts it.
TEST(EdgeListFormat, HeaderLinesElsewhereNeedTheHeaderOption) {
  EXPECT_EQ(input_error_of([] { parse_edge_list(text_input("# c\nsource target\n0 1\n", "g.txt")); }),
            "g.txt:2: error: 'source target' looks like a header line (column names); edge lists "
            "have one only when named .csv or read with --header (or make it a comment: '# ...')");
  EdgeListOptions header;
  header.header = true;
  EXPECT_EQ(edges_of(parse_edge_list(text_input("source target\n0 1\n", "g.txt"), header)),
            (std::vector<Edge>{{0, 1}}));
  EXPECT_EQ(input_error_of([&] { parse_edge_list(text_input("0 1\n1 2\n", "g.txt"), header); }),
            "g.txt:1: error: --header: expected a line of column names before the first edge, "
            "found '0 1'");
  // Not a header: a field that starts with a digit or a sign.
  EXPECT_EQ(input_error_of([] { parse_edge_list(text_input("x 1\n", "g.txt")); }),
            "g.txt:1: error: expected a vertex id, found 'x'");
  EXPECT_EQ(input_error_of([] { parse_edge_list(text_input("source,-1\n", "g.csv")); }),
            "g.csv:1: error: expected a vertex id, found 'source'");
}

// --- Sparse ids ----------------------------------------------------------------

// What parse_edge_list prints on stderr for `text`.
std::string warning_for(const std::string& text, EdgeListOptions options = {}) {
  ::testing::internal::CaptureStderr();
  parse_edge_list(text_input(text, "s.txt"), options);
  return ::testing::internal::GetCapturedStderr();
}

// Lines "k k" for k < count, then `last`.
std::string loops(uint64_t count, const std::string& last) {
  std::string text;
  for (uint64_t k = 0; k < count; ++k) text += std::to_string(k) + ' ' + std::to_string(k) + '\n';
  return text + last;
}

// Regression: two edges "0 214000000" made a 214 M-vertex graph (5.9 GB,
// 20 s) without a word. More than 1 M vertices and more than 4 times the
// distinct ids: a warning naming --renumber.
TEST(EdgeListFormat, SparseIdsWarnAboutRenumbering) {
  EXPECT_EQ(warning_for("0 214000000\n5 7\n"),
            "irgl: warning: s.txt: vertex ids reach 214000000, but only 4 distinct ids occur: the "
            "graph gets 214000001 vertices, 213999997 of them without edges (--renumber numbers "
            "the used ids 0..3 and keeps the original ids)\n");
  EdgeListOptions renumbering;
  renumbering.renumbering = true;
  EXPECT_EQ(warning_for("0 214000000\n", renumbering), "");
  // A declared vertex count covers the ids: the file says they are vertices.
  EXPECT_EQ(warning_for("# Nodes: 214000001\n0 214000000\n"), "");
  // 1 M vertices is not more than 1 M.
  EXPECT_EQ(warning_for("0 999999\n"), "");
  EXPECT_NE(warning_for("0 1000000\n"), "");
  // 1.2 M vertices: 300 000 distinct ids are a quarter, not fewer.
  EXPECT_EQ(warning_for(loops(299999, "0 1199999\n")), "");
  EXPECT_NE(warning_for(loops(299998, "0 1199999\n")), "");
}

// A big edge list (several parallel chunks, more than one block each) of
// edges i -> i+1 with weight i, optionally with a different last line.
std::string chain(uint64_t edges, const std::string& last_line = "") {
  std::string text = "# Nodes: 1000000\n";
  for (uint64_t i = 0; i < edges; ++i)
    text += std::to_string(i) + ' ' + std::to_string(i + 1) + ' ' + std::to_string(i) + '\n';
  return text + last_line;
}

TEST(EdgeListFormat, LargeInputComesOutInFileOrder) {
  constexpr uint64_t kEdges = 600000;  // ~12 MB
  const EdgeList edges = parse_edge_list(text_input(chain(kEdges)));
  ASSERT_EQ(edges.size(), kEdges);
  ASSERT_EQ(edges.weight_type, WeightType::int32);
  const auto triples = weighted_edges_of<int32_t>(edges);
  for (uint64_t i = 0; i < kEdges; ++i)
    ASSERT_EQ(triples[i], IntEdge(VertexId(i), VertexId(i + 1), int32_t(i))) << i;
}

TEST(EdgeListFormat, LateRealWeightTurnsEarlierChunksToFloat) {
  constexpr uint64_t kEdges = 300000;
  const EdgeList edges = parse_edge_list(text_input(chain(kEdges, "0 0 0.5\n")));
  ASSERT_EQ(edges.weight_type, WeightType::float32);
  const auto triples = weighted_edges_of<float>(edges);
  ASSERT_EQ(triples.size(), kEdges + 1);
  for (uint64_t i = 0; i < kEdges; ++i) ASSERT_EQ(std::get<2>(triples[i]), float(i)) << i;
  EXPECT_EQ(std::get<2>(triples.back()), 0.5f);
}

TEST(EdgeListFormat, HugeIntegerWeightIsAnErrorEvenAmongReals) {
  // Whether the file is float or not, an integer must fit int32: the outcome
  // cannot depend on which chunk saw the real weight first.
  EXPECT_EQ(
      input_error_of([] { parse_edge_list(text_input("0 1 0.5\n1 2 3000000000\n", "w.txt")); }),
      "w.txt:2: error: weight 3000000000 does not fit in int32");
}

TEST(EdgeListFormat, ErrorLineIsCountedAcrossChunks) {
  constexpr uint64_t kEdges = 500000;
  EXPECT_EQ(
      input_error_of([] { parse_edge_list(text_input(chain(kEdges, "1 x 1\n"), "big.txt")); }),
      "big.txt:" + std::to_string(kEdges + 2) + ": error: expected a vertex id, found 'x'");
}

TEST(EdgeListFormat, EarliestOfSeveralErrorsIsReported) {
  std::string text = chain(400000);
  text.replace(text.find("\n7 8 7\n") + 1, 5, "7 8 z");    // early
  text.replace(text.rfind("\n399990 ") + 1, 6, "-39999");  // late
  EXPECT_EQ(input_error_of([&] { parse_edge_list(text_input(text, "two.txt")); }),
            "two.txt:9: error: expected a weight, found 'z'");
}

TEST(EdgeListFormat, VertexIdsBeyondThe32BitLimitAreRejected) {
  EXPECT_EQ(input_error_of(
                [] { parse_edge_list(text_input("0 99999999999999999999999\n", "big-id.txt")); }),
            "big-id.txt:1: error: vertex id 99999999999999999999999 out of range 0..4294967294");
  EXPECT_EQ(input_error_of([] { parse_edge_list(text_input("# Nodes: 4294967296\n", "n.txt")); }),
            "n.txt:1: error: 'Nodes: 4294967296' is more than the 4294967295 vertices a graph "
            "may have");
}

// --- DIMACS -----------------------------------------------------------------

TEST(Dimacs, ArcsAreOneBasedWithInt32Weights) {
  const EdgeList edges = read_edges(good("road.gr"));
  EXPECT_EQ(edges.num_vertices, 4u);
  ASSERT_EQ(edges.weight_type, WeightType::int32);
  EXPECT_EQ(weighted_edges_of<int32_t>(edges),
            (std::vector<IntEdge>{{0, 1, 7}, {1, 2, 1}, {2, 3, 0}, {3, 0, 12}, {0, 2, kIntMax}}));
}

TEST(Dimacs, GzipReadsLikeThePlainFile) {
  EXPECT_EQ(weighted_edges_of<int32_t>(read_edges(good("road.gr.gz"))),
            weighted_edges_of<int32_t>(read_edges(good("road.gr"))));
}

TEST(Dimacs, CommentLinesNeedOnlyStartWithC) {
  const EdgeList edges = parse_dimacs(text_input("c-----\ncomment\np sp 2 1\nc\na 2 1 +3\n"));
  EXPECT_EQ(weighted_edges_of<int32_t>(edges), (std::vector<IntEdge>{{1, 0, 3}}));
}

// --- Galois binary ----------------------------------------------------------

std::vector<IntEdge> sorted(std::vector<IntEdge> edges) {
  std::sort(edges.begin(), edges.end());
  return edges;
}

TEST(GaloisBinary, HoldsTheSameGraphAsTheDimacsFile) {
  const EdgeList galois = read_edges(good("galois.gr"));
  EXPECT_EQ(galois.name, good("galois.gr"));
  EXPECT_EQ(galois.num_vertices, 4u);
  ASSERT_EQ(galois.weight_type, WeightType::int32);
  // Galois files group edges by source; DIMACS keeps the file's order.
  EXPECT_EQ(weighted_edges_of<int32_t>(galois),
            (std::vector<IntEdge>{{0, 1, 7}, {0, 2, kIntMax}, {1, 2, 1}, {2, 3, 0}, {3, 0, 12}}));
  EXPECT_EQ(sorted(weighted_edges_of<int32_t>(galois)),
            sorted(weighted_edges_of<int32_t>(read_edges(good("road.gr")))));
}

TEST(GaloisBinary, GzipCompressedFileIsReadThroughMemory) {
  EXPECT_EQ(weighted_edges_of<int32_t>(read_galois_binary(good("galois.gr.gz"), false)),
            weighted_edges_of<int32_t>(read_galois_binary(good("galois.gr"), false)));
}

TEST(GaloisBinary, UnweightedWithoutPadding) {
  const EdgeList edges = read_galois_binary(good("galois-unweighted.gr"), false);
  EXPECT_EQ(edges.num_vertices, 3u);
  EXPECT_EQ(edges.weight_type, WeightType::none);
  EXPECT_TRUE(edges.weights.empty());
  EXPECT_EQ(edges_of(edges), (std::vector<Edge>{{0, 1}, {0, 2}, {2, 0}}));
}

TEST(GaloisBinary, DetectedByContent) {
  EXPECT_EQ(detect_format(good("galois.gr")), GraphFormat::galois_binary);
  EXPECT_EQ(detect_format(good("galois.gr.gz")), GraphFormat::galois_binary);
  EXPECT_EQ(detect_format(good("road.gr")), GraphFormat::dimacs);
}

// --- Reading files ----------------------------------------------------------

TEST(InputFiles, MissingFileAndDirectoryAreInputErrors) {
  const std::string missing = test_input("good/no-such-file.txt");
  EXPECT_EQ(input_error_of([&] { read_text_input(missing, false); }),
            missing + ": error: cannot open: No such file or directory");
  const std::string directory = test_input("bad/directory.mtx");
  EXPECT_EQ(input_error_of([&] { read_text_input(directory, false); }),
            directory + ": error: cannot read: Is a directory");
}

TEST(InputFiles, PeekDecompressesOnlyTheStart) {
  EXPECT_EQ(peek_decompressed(good("snap.txt.gz"), 9), "# Directe");
  EXPECT_EQ(peek_decompressed(good("integer.mtx.xz"), 14), "%%MatrixMarket");
  EXPECT_EQ(peek_decompressed(good("road.gr"), 3), "c A");
  EXPECT_EQ(peek_decompressed(good("road.gr"), 1000), read_text_input(good("road.gr"), false).data);
}

TEST(InputFiles, PeekIgnoresABrokenStreamThatReadingReports) {
  const std::string truncated = test_input("bad/mtx-truncated.mtx.gz");
  EXPECT_EQ(peek_decompressed(truncated, 14), "%%MatrixMarket");
  EXPECT_NE(input_error_of([&] { read_text_input(truncated, false); }), "");
}

TEST(InputFiles, ReadsCompressedDataFromAPipe) {
  // Pipes have no size: the reader must grow its buffers as data arrives.
  const std::string fifo = ::testing::TempDir() + "formats_test_fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::ifstream packed(good("snap.txt.gz"), std::ios::binary);
    std::ofstream(fifo, std::ios::binary) << packed.rdbuf();
  });
  const TextInput input = read_text_input(fifo, false);
  writer.join();
  std::remove(fifo.c_str());
  EXPECT_EQ(input.data, read_text_input(good("snap.txt"), false).data);
}

}  // namespace
}  // namespace irgl::testing
