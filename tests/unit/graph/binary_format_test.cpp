// The binary CSR format: round trips, the documented layout and checksums,
// and the reader's error for every kind of damage.
#include "irgl/graph/binary_format.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include <cstring>

#include "graph_test_util.h"
#include "hashing.h"
#include "irgl/graph/generators.h"

namespace irgl {
namespace {

using hashing::Xxh64;
using testing::ScratchDir;

// ---------------------------------------------------------------------------
// The format as documented, re-implemented here independently.

constexpr uint64_t kChecksumChunk = uint64_t(1) << 22;

uint64_t round_up8(uint64_t x) { return (x + 7) / 8 * 8; }

uint64_t documented_size(uint64_t n, uint64_t m, bool weighted, bool transpose) {
  const uint64_t direction = 8 * (n + 1) + round_up8(4 * m) * (weighted ? 2 : 1);
  return 64 + direction * (transpose ? 2 : 1);
}

uint64_t documented_payload_checksum(const std::string& file) {
  const uint64_t length = file.size() - 64;
  std::vector<uint64_t> digests;
  for (uint64_t at = 0; at < length; at += kChecksumChunk)
    digests.push_back(Xxh64::of(file.data() + 64 + at, std::min(kChecksumChunk, length - at)));
  return Xxh64::of(digests.data(), 8 * digests.size(), length);
}

template <class T>
void put(std::string& file, uint64_t at, T value) {
  std::memcpy(&file[at], &value, sizeof value);
}
template <class T>
T get(const std::string& file, uint64_t at) {
  T value;
  std::memcpy(&value, &file[at], sizeof value);
  return value;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

// Recomputes both checksums, as a forger (or a buggy writer) would.
void reseal(std::string& file) {
  put<uint64_t>(file, 40, documented_payload_checksum(file));
  put<uint64_t>(file, 48, Xxh64::of(file.data(), 48));
}

// ---------------------------------------------------------------------------

TEST(Xxh64, MatchesReferenceVectors) {
  EXPECT_EQ(Xxh64::of(""), 0xef46db3751d8e999ull);
  EXPECT_EQ(Xxh64::of("a"), 0xd24ec4f1a98c6e5bull);
  EXPECT_EQ(Xxh64::of("abc"), 0x44bc2cf5ad770999ull);
  EXPECT_EQ(Xxh64::of("Nobody inspects the spammish repetition"), 0xfbcea83c8a378bf1ull);
}

TEST(Xxh64, StreamingEqualsOneShot) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += static_cast<char>(i * 37);
  for (size_t piece : {1, 3, 8, 31, 32, 33, 100}) {
    Xxh64 hash(7);
    for (size_t at = 0; at < text.size(); at += piece)
      hash.update(text.data() + at, std::min(piece, text.size() - at));
    EXPECT_EQ(hash.digest(), Xxh64::of(text, 7)) << "pieces of " << piece;
  }
}

// Regression for the switch from a hand-written XXH64 to libxxhash: values
// computed by the former implementation, for inputs that reach every code
// path (several stripes, a tail of 8-, 4- and 1-byte pieces, large seeds).
TEST(Xxh64, MatchesTheFormerImplementation) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += static_cast<char>(i * 37);
  EXPECT_EQ(Xxh64::of(text, 7), 0xafe757508f119ea1ull);
  EXPECT_EQ(Xxh64::of(text, 0), 0xbfba0b19df72611cull);
  EXPECT_EQ(Xxh64::of(text.substr(0, 31), 0x9e3779b97f4a7c15ull), 0x04eadc4334a97fe8ull);
  EXPECT_EQ(Xxh64::of(text.substr(0, 33), 1), 0x78481049d5bcb04bull);
}

// 5 vertices, 7 int-weighted edges (an odd count, so arrays get padding).
CsrGraph sample_graph(bool transpose) {
  BuildOptions options;
  options.transpose = transpose;
  return build_csr(
      testing::weighted_edge_list<int32_t>(
          5, {{0, 1, 5}, {0, 2, 3}, {1, 2, 1}, {2, 0, 7}, {2, 3, 2}, {3, 4, 4}, {4, 0, -6}}),
      options);
}

CsrGraph write_and_read(const CsrGraph& graph) {
  ScratchDir dir;
  const std::string path = dir.file("g.csr");
  write_irgl_binary(path, graph, /*overwrite=*/true);
  EXPECT_EQ(testing::read_file(path).size(),
            documented_size(graph.num_vertices(), graph.num_edges(), graph.has_weights(),
                            graph.has_transpose()));
  CsrGraph read = read_irgl_binary(path);
  EXPECT_EQ(read.name, path);
  read.validate();
  return read;
}

// The arrays of a mapped file are the file's graph.
void expect_mapped_as_read(const CsrGraph& graph) {
  ScratchDir dir;
  const std::string path = dir.file("g.csr");
  write_irgl_binary(path, graph, /*overwrite=*/true, /*origin=*/77);
  const CsrGraph read = read_irgl_binary(path);
  const MappedCsrFile mapped(path);
  const GraphArrays& arrays = mapped.arrays();
  EXPECT_EQ(arrays.name, path);
  EXPECT_EQ(mapped.origin(), 77u);
  EXPECT_EQ(arrays.vertices, read.num_vertices());
  EXPECT_EQ(arrays.edges, read.num_edges());
  EXPECT_EQ(arrays.weight_type, read.weight_type);
  EXPECT_EQ(arrays.symmetric, read.symmetric);
  EXPECT_EQ(arrays.sorted, read.sorted);
  EXPECT_EQ(arrays.renumbered, read.renumbered());
  EXPECT_EQ(arrays.has_transpose(), read.has_transpose());
  const uint64_t n = read.num_vertices(), m = read.num_edges();
  auto same = [](const auto* items, const auto& vector) {
    return std::equal(vector.begin(), vector.end(), items);
  };
  EXPECT_TRUE(same(arrays.out.offsets, read.out_offsets));
  EXPECT_TRUE(same(arrays.out.neighbors, read.out_targets));
  EXPECT_EQ(arrays.out.weight_words != nullptr, read.has_weights());
  if (read.has_weights()) {
    EXPECT_TRUE(same(arrays.out.weight_words, read.out_weights));
  }
  if (read.has_transpose()) {
    EXPECT_TRUE(same(arrays.in.offsets, read.in_offsets));
    EXPECT_TRUE(same(arrays.in.neighbors, read.in_sources));
    if (read.has_weights()) {
      EXPECT_TRUE(same(arrays.in.weight_words, read.in_weights));
    }
  }
  EXPECT_EQ(read.out_offsets.size(), n + 1);
  EXPECT_EQ(read.out_targets.size(), m);
}

TEST(MappedCsrFile, HoldsWhatReadingGives) {
  expect_mapped_as_read(sample_graph(false));
  expect_mapped_as_read(sample_graph(true));
  CsrGraph empty;
  expect_mapped_as_read(empty);
  BuildOptions symmetric;
  symmetric.symmetrize = true;
  expect_mapped_as_read(build_csr(testing::edge_list(4, {{0, 1}, {1, 2}, {3, 3}}), symmetric));
  CsrGraph renumbered = sample_graph(false);
  renumbered.original_ids = {2, 4, 6, 8, 10};
  expect_mapped_as_read(renumbered);
}

TEST(MappedCsrFile, ReportsMissingFilesAndDirectories) {
  ScratchDir dir;
  EXPECT_EQ(testing::input_error_of([&] { MappedCsrFile mapped(dir.file("none.csr")); }),
            testing::input_error_of([&] { read_irgl_binary(dir.file("none.csr")); }));
  EXPECT_EQ(testing::input_error_of([&] { MappedCsrFile mapped(dir.path()); }),
            testing::input_error_of([&] { read_irgl_binary(dir.path()); }));
}

TEST(BinaryFormat, RoundTripsWeightedGraphsWithAndWithoutTranspose) {
  for (bool transpose : {false, true}) {
    const CsrGraph graph = sample_graph(transpose);
    testing::expect_same_graph(write_and_read(graph), graph);
  }
}

TEST(BinaryFormat, RoundTripsUnweightedAndFloatGraphs) {
  const CsrGraph plain = build_csr(testing::edge_list(4, {{0, 1}, {1, 2}, {3, 3}}), {});
  testing::expect_same_graph(write_and_read(plain), plain);
  BuildOptions options;
  options.symmetrize = true;
  options.transpose = true;
  const CsrGraph floats = build_csr(
      testing::weighted_edge_list<float>(3, {{0, 1, 0.25f}, {1, 2, -1e9f}, {2, 2, 3.5f}}), options);
  const CsrGraph read = write_and_read(floats);
  testing::expect_same_graph(read, floats);
  EXPECT_TRUE(read.symmetric);
  EXPECT_EQ(read.out_weight<float>(1), floats.out_weight<float>(1));
}

TEST(BinaryFormat, RoundTripsUnsortedAndEmptyGraphs) {
  BuildOptions options;
  options.sort_adjacency = false;
  const CsrGraph unsorted = build_csr(testing::edge_list(3, {{0, 2}, {0, 1}}), options);
  const CsrGraph read = write_and_read(unsorted);
  EXPECT_FALSE(read.sorted);
  testing::expect_same_graph(read, unsorted);
  testing::expect_same_graph(write_and_read(CsrGraph()), CsrGraph());
  testing::expect_same_graph(write_and_read(build_csr(testing::edge_list(6, {}), {})),
                             build_csr(testing::edge_list(6, {}), {}));
}

TEST(BinaryFormat, HeaderFollowsTheDocumentedLayout) {
  ScratchDir dir;
  const CsrGraph graph = sample_graph(true);
  write_irgl_binary(dir.file("g.csr"), graph, /*overwrite=*/true);
  const std::string file = testing::read_file(dir.file("g.csr"));
  EXPECT_EQ(file.substr(0, 8), std::string("IRGLCSR\0", 8));
  EXPECT_EQ(get<uint32_t>(file, 8), 1u);             // version
  EXPECT_EQ(get<uint32_t>(file, 12), 1u | 2u | 8u);  // weighted, transpose, sorted
  EXPECT_EQ(get<uint32_t>(file, 16), 1u);            // int32
  EXPECT_EQ(get<uint32_t>(file, 20), 0u);
  EXPECT_EQ(get<uint64_t>(file, 24), 5u);
  EXPECT_EQ(get<uint64_t>(file, 32), 7u);
  EXPECT_EQ(get<uint64_t>(file, 40), documented_payload_checksum(file));
  EXPECT_EQ(get<uint64_t>(file, 48), Xxh64::of(file.data(), 48));
  EXPECT_EQ(get<uint64_t>(file, 56), 0u);
  // The arrays, each 8-byte aligned.
  EXPECT_EQ(get<uint64_t>(file, 64 + 8 * 5), 7u);             // last out offset
  EXPECT_EQ(get<uint32_t>(file, 112), graph.out_targets[0]);  // first target
  EXPECT_EQ(get<int32_t>(file, 144 + 4 * 6), -6);             // last out weight
  EXPECT_EQ(get<uint64_t>(file, 176 + 8 * 5), 7u);            // last in offset
  EXPECT_EQ(get<uint32_t>(file, 224), graph.in_sources[0]);   // first source
  EXPECT_EQ(file.size(), 288u);
}

// The checksums of a fixed graph, as files written before the switch to
// libxxhash hold them: files written then still read, and new ones match.
TEST(BinaryFormat, ChecksumsAreUnchanged) {
  ScratchDir dir;
  write_irgl_binary(dir.file("g.csr"), sample_graph(true), /*overwrite=*/true);
  const std::string file = testing::read_file(dir.file("g.csr"));
  EXPECT_EQ(hex(get<uint64_t>(file, 40)), "0x5c07b6f0e86d5e7c");
  EXPECT_EQ(hex(get<uint64_t>(file, 48)), "0xc9f79f3dfb932a78");
}

TEST(BinaryFormat, LargeGraphsUseSeveralChecksumChunks) {
  ScratchDir dir;
  const std::string path = dir.file("rmat.csr");
  BuildOptions options;
  options.transpose = true;
  options.weights.source = WeightRule::Source::hash;
  const CsrGraph graph =
      build_csr(generate_from_spec("rmat:scale=15,edge-factor=16", false), options);
  write_irgl_binary(path, graph, /*overwrite=*/true);
  std::string file = testing::read_file(path);
  ASSERT_GT(file.size(), 2 * kChecksumChunk + 12345);
  EXPECT_EQ(get<uint64_t>(file, 40), documented_payload_checksum(file));
  testing::expect_same_graph(read_irgl_binary(path), graph);

  const uint64_t damaged_at = 64 + 2 * kChecksumChunk + 12345;
  file[damaged_at] ^= 0x10;
  testing::write_file(path, file);
  EXPECT_EQ(testing::input_error_of([&] { read_irgl_binary(path); }),
            path + ": byte 64: error: checksum mismatch (stored " + hex(get<uint64_t>(file, 40)) +
                ", computed " + hex(documented_payload_checksum(file)) +
                "): the data after the header is damaged");
}

// Regression: .csr files with NaN or infinite weights were accepted although
// every text reader rejects them.
TEST(BinaryFormat, NonFiniteFloatWeightsAreRejected) {
  for (bool transpose : {false, true}) {
    BuildOptions options;
    options.transpose = transpose;
    CsrGraph graph = build_csr(
        testing::weighted_edge_list<float>(3, {{0, 1, 0.5f}, {1, 2, 1.5f}, {2, 0, 2.5f}}),
        options);
    const float bad[] = {std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::infinity()};
    for (float value : bad) {
      CsrGraph damaged = graph;
      std::memcpy(&damaged.out_weights[1], &value, sizeof value);
      ScratchDir dir;
      write_irgl_binary(dir.file("g.csr"), damaged, /*overwrite=*/true);
      const std::string error =
          testing::input_error_of([&] { read_irgl_binary(dir.file("g.csr")); });
      // Byte 64 + 32 (4 offsets) + 16 (3 targets, padded) + 4 (edge 1).
      EXPECT_NE(error.find(": byte 116: error: weight "), std::string::npos) << error;
      EXPECT_NE(error.find("of edge 1 in the out-edge weights is not a finite number"),
                std::string::npos)
          << error;
    }
  }
}

TEST(BinaryFormat, TheOriginFieldRoundTrips) {
  ScratchDir dir;
  uint64_t origin = 1;
  write_irgl_binary(dir.file("plain.csr"), sample_graph(false), /*overwrite=*/true);
  read_irgl_binary(dir.file("plain.csr"), &origin);
  EXPECT_EQ(origin, 0u);
  write_irgl_binary(dir.file("entry.csr"), sample_graph(false), /*overwrite=*/true, 0xabcdef);
  read_irgl_binary(dir.file("entry.csr"), &origin);
  EXPECT_EQ(origin, 0xabcdefu);
}

TEST(BinaryFormat, WriteReplacesAtomicallyAndLeavesNoTemporaryFiles) {
  ScratchDir dir;
  const std::string path = dir.file("g.csr");
  write_irgl_binary(path, sample_graph(false), /*overwrite=*/true);
  const CsrGraph replacement = build_csr(testing::edge_list(2, {{1, 0}}), {});
  write_irgl_binary(path, replacement, /*overwrite=*/true);
  testing::expect_same_graph(read_irgl_binary(path), replacement);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"g.csr"});
}

TEST(BinaryFormat, WriteIntoAMissingDirectoryFailsCleanly) {
  ScratchDir dir;
  const std::string path = dir.file("missing/g.csr");
  EXPECT_EQ(testing::input_error_of(
                [&] { write_irgl_binary(path, sample_graph(false), /*overwrite=*/true); }),
            path + ": error: directory '" + dir.file("missing") + "' does not exist");
  EXPECT_TRUE(dir.entries().empty());
}

TEST(BinaryFormat, ReportsMissingFilesAndDirectories) {
  ScratchDir dir;
  EXPECT_EQ(testing::input_error_of([&] { read_irgl_binary(dir.file("none.csr")); }),
            dir.file("none.csr") + ": error: cannot open: No such file or directory");
  EXPECT_EQ(testing::input_error_of([&] { read_irgl_binary(dir.path()); }),
            dir.path() + ": error: is a directory, not a graph file");
}

// ---------------------------------------------------------------------------
// Damage. The sample file (weighted, with transpose) is laid out as:
//   0 header | 64 out offsets | 112 targets | 144 weights | 176 in offsets |
//   224 sources | 256 in weights | 288 end; 4 bytes of padding end each
//   4-byte array (140, 172, 252, 284).

class DamagedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    write_irgl_binary(path_, sample_graph(true), /*overwrite=*/true);
    file_ = testing::read_file(path_);
    ASSERT_EQ(file_.size(), 288u);
  }

  // The reader's message for `file`, without the "path: " prefix; the
  // mapping reader must say the same.
  std::string error_for(const std::string& file) {
    testing::write_file(path_, file);
    const std::string message = testing::input_error_of([&] { read_irgl_binary(path_); });
    EXPECT_EQ(testing::input_error_of([&] { MappedCsrFile mapped(path_); }), message);
    EXPECT_EQ(message.rfind(path_ + ": ", 0), 0u) << message;
    return message.substr(std::min(message.size(), path_.size() + 2));
  }
  // The same after fixing up both checksums.
  std::string error_for_resealed(std::string file) {
    reseal(file);
    return error_for(file);
  }

  ScratchDir dir_;
  std::string path_ = dir_.file("g.csr");
  std::string file_;
};

TEST_F(DamagedFile, BadMagic) {
  std::string file = file_;
  file[3] = 'X';
  EXPECT_EQ(error_for(file), "byte 0: error: not an irgl binary CSR file (bad magic bytes)");
  EXPECT_EQ(error_for("%%MatrixMarket matrix coordinate pattern general\n"),
            "byte 0: error: not an irgl binary CSR file (bad magic bytes)");
  EXPECT_EQ(error_for("IRX"), "byte 0: error: not an irgl binary CSR file (bad magic bytes)");
}

TEST_F(DamagedFile, TruncatedHeader) {
  for (uint64_t size : {0, 3, 8, 40, 63})
    EXPECT_EQ(error_for(file_.substr(0, size)),
              "byte " + std::to_string(size) + ": error: truncated: the file has " +
                  std::to_string(size) + " bytes, less than the 64-byte header");
}

TEST_F(DamagedFile, UnsupportedVersion) {
  std::string file = file_;
  put<uint32_t>(file, 8, 2);
  EXPECT_EQ(error_for(file),
            "byte 8: error: unsupported format version 2 (this reader reads version 1)");
}

TEST_F(DamagedFile, HeaderChecksum) {
  std::string file = file_;
  file[24] ^= 1;  // the vertex count
  EXPECT_EQ(error_for(file), "byte 48: error: header checksum mismatch (stored " +
                                 hex(get<uint64_t>(file, 48)) + ", computed " +
                                 hex(Xxh64::of(file.data(), 48)) + "): the header is damaged");
}

TEST_F(DamagedFile, UnknownFlags) {
  std::string file = file_;
  put<uint32_t>(file, 12, get<uint32_t>(file, 12) | 0x60);  // bit 4 is the original ids
  EXPECT_EQ(error_for_resealed(file),
            "byte 12: error: unknown flag bits 0x0000000000000060 are set");
}

TEST_F(DamagedFile, WeightType) {
  std::string file = file_;
  put<uint32_t>(file, 16, 3);
  EXPECT_EQ(error_for_resealed(file),
            "byte 16: error: unknown weight type 3 (expected 0 none, 1 int32 or 2 float32)");
  put<uint32_t>(file, 16, 0);
  EXPECT_EQ(error_for_resealed(file),
            "byte 16: error: weight type none contradicts the weighted flag, which is set");
  put<uint32_t>(file, 16, 2);
  put<uint32_t>(file, 12, get<uint32_t>(file, 12) & ~1u);
  EXPECT_EQ(error_for_resealed(file),
            "byte 16: error: weight type float32 contradicts the weighted flag, which is clear");
}

TEST_F(DamagedFile, ReservedFields) {
  std::string file = file_;
  put<uint32_t>(file, 20, 7);
  EXPECT_EQ(error_for_resealed(file), "byte 20: error: reserved field is 7, not 0");
}

TEST_F(DamagedFile, ImpossibleCounts) {
  std::string file = file_;
  put<uint64_t>(file, 24, uint64_t(1) << 32);
  EXPECT_EQ(error_for_resealed(file),
            "byte 24: error: vertex count 4294967296 exceeds the limit of 2^32-1");
  file = file_;
  put<uint64_t>(file, 32, uint64_t(1) << 62);
  EXPECT_EQ(error_for_resealed(file),
            "byte 32: error: edge count 4611686018427387904 is impossibly large");
}

TEST_F(DamagedFile, TruncatedInEachSection) {
  const std::pair<uint64_t, const char*> cuts[] = {
      {64, "out-edge offsets"},  {100, "out-edge offsets"}, {112, "out-edge targets"},
      {141, "out-edge targets"}, {150, "out-edge weights"}, {176, "in-edge offsets"},
      {230, "in-edge sources"},  {287, "in-edge weights"}};
  for (auto [size, section] : cuts)
    EXPECT_EQ(error_for(file_.substr(0, size)),
              "byte " + std::to_string(size) + ": error: truncated: the file ends in the " +
                  section +
                  " (the header promises 5 vertices and 7 edges: 288 bytes, the file has " +
                  std::to_string(size) + ")");
}

TEST_F(DamagedFile, HeaderPromisesMoreThanTheFileHolds) {
  std::string file = file_;
  put<uint64_t>(file, 24, 6);
  EXPECT_EQ(error_for_resealed(file),
            "byte 288: error: truncated: the file ends in the in-edge weights (the header "
            "promises 6 vertices and 7 edges: 304 bytes, the file has 288)");
}

TEST_F(DamagedFile, TrailingData) {
  EXPECT_EQ(error_for(file_ + std::string(8, '\0')),
            "byte 288: error: trailing data: the header promises 5 vertices and 7 edges: 288 "
            "bytes, the file has 296");
}

TEST_F(DamagedFile, FlippedPayloadByte) {
  for (uint64_t at : {64, 130, 287}) {
    std::string file = file_;
    file[at] ^= 0x40;
    EXPECT_EQ(error_for(file), "byte 64: error: checksum mismatch (stored " +
                                   hex(get<uint64_t>(file, 40)) + ", computed " +
                                   hex(documented_payload_checksum(file)) +
                                   "): the data after the header is damaged");
  }
}

TEST_F(DamagedFile, NonzeroPadding) {
  std::string file = file_;
  file[141] = 1;
  EXPECT_EQ(error_for_resealed(file),
            "byte 141: error: nonzero padding after the out-edge targets");
}

// Damage with valid checksums: the CSR checks must catch it.
TEST_F(DamagedFile, OffsetsThatDoNotStartAtZero) {
  std::string file = file_;
  put<uint64_t>(file, 64, 1);
  EXPECT_EQ(error_for_resealed(file), "byte 64: error: out-edge offsets start at 1, not 0");
}

TEST_F(DamagedFile, DecreasingOffsets) {
  std::string file = file_;  // out offsets are 0 2 3 5 6 7
  put<uint64_t>(file, 80, 1);
  EXPECT_EQ(error_for_resealed(file),
            "byte 80: error: out-edge offsets decrease at vertex 1 (1 after 2)");
}

TEST_F(DamagedFile, LastOffsetDisagreesWithEdgeCount) {
  std::string file = file_;
  put<uint64_t>(file, 104, 6);
  EXPECT_EQ(error_for_resealed(file),
            "byte 104: error: the last of the out-edge offsets is 6, not the edge count 7");
}

TEST_F(DamagedFile, VertexIdOutOfRange) {
  std::string file = file_;
  put<uint32_t>(file, 124, 9);
  EXPECT_EQ(error_for_resealed(file),
            "byte 124: error: vertex id 9 in the out-edge targets is out of range (the graph "
            "has 5 vertices)");
  file = file_;
  put<uint32_t>(file, 224 + 4 * 6, 5);
  EXPECT_EQ(error_for_resealed(file),
            "byte 248: error: vertex id 5 in the in-edge sources is out of range (the graph "
            "has 5 vertices)");
}

TEST_F(DamagedFile, UnsortedListWithSortedFlag) {
  std::string file = file_;  // vertex 0 lists targets 1 2
  put<uint32_t>(file, 112, 2);
  put<uint32_t>(file, 116, 1);
  EXPECT_EQ(error_for_resealed(file),
            "byte 116: error: the list of vertex 0 in the out-edge targets is not sorted, but the "
            "sorted flag is set");
}

TEST_F(DamagedFile, TransposeThatDoesNotMatch) {
  std::string file = file_;
  put<int32_t>(file, 256, 99);  // an in-edge weight
  EXPECT_EQ(error_for_resealed(file),
            "byte 176: error: the in-edges are not the transpose of the out-edges");
}

TEST_F(DamagedFile, SymmetricFlagOnAnAsymmetricGraph) {
  std::string file = file_;
  put<uint32_t>(file, 12, get<uint32_t>(file, 12) | 4);
  EXPECT_EQ(error_for_resealed(file),
            "byte 12: error: the symmetric flag is set, but some edge lacks its reverse");
}

}  // namespace
}  // namespace irgl
