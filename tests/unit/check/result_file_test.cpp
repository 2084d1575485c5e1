// The result file format: writer/reader round trips, the writer's checks and
// every reader error with its exact message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "input_error.h"
#include "irgl/results/result_reader.h"
#include "irgl/results/result_writer.h"
#include "irgl/support/error.h"
#include "irgl/support/output_file.h"

namespace irgl {
namespace {

namespace fs = std::filesystem;
using testing::input_error_of;

class ResultFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "irgl-results-XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write_text(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }

  static std::string read_text(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::vector<std::string> directory_listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  // The InputError message of reading `text` as a result of `algorithm`, with
  // the file's path replaced by "F".
  std::string read_error(const std::string& text, const std::string& algorithm = "bfs") const {
    const std::string file = write_text("bad.txt", text);
    std::string message = input_error_of([&] { read_result_file(file, algorithm); });
    if (message.empty()) return "no error";
    if (message.rfind(file, 0) == 0) message.replace(0, file.size(), "F");
    return message;
  }

  fs::path dir_;
};

const std::string kBfsHeader = "# irgl-result 1\n# algorithm bfs\n# vertices 3\n";

TEST_F(ResultFileTest, WritesTheDocumentedText) {
  const std::vector<uint32_t> level = {0, 1, UINT32_MAX};
  write_vertex_result(path("bfs.txt"), "bfs", level, {{{"source", "0"}}});
  EXPECT_EQ(read_text(path("bfs.txt")),
            "# irgl-result 1\n# algorithm bfs\n# vertices 3\n# source 0\n0\n1\ninf\n");
  write_scalar_result(path("tc.txt"), "tc", 45, 34);
  EXPECT_EQ(read_text(path("tc.txt")), "# irgl-result 1\n# algorithm tc\n# vertices 34\n45\n");
}

// A program's reduction of a signed type keeps its sign (four_in_a_row's
// score of a lost game).
TEST_F(ResultFileTest, SignedScalarsKeepTheirSign) {
  write_signed_scalar_result(path("score.txt"), "four_in_a_row", -1048580, 0);
  EXPECT_EQ(read_text(path("score.txt")),
            "# irgl-result 1\n# algorithm four_in_a_row\n# vertices 0\n-1048580\n");
}

TEST_F(ResultFileTest, DistancesRoundTripWithInfinity) {
  write_vertex_result(path("a.txt"), "bfs", std::vector<uint32_t>{0, UINT32_MAX, 4294967294u},
                      {{{"source", "0"}, {"time-ms", "1.5"}}});
  const ResultFile bfs = read_result_file(path("a.txt"), "bfs");
  EXPECT_EQ(bfs.format->algorithm, "bfs");
  EXPECT_EQ(bfs.num_vertices, 3u);
  EXPECT_EQ(bfs.unsigned_values, (std::vector<uint64_t>{0, kInfiniteDistance, 4294967294u}));
  ASSERT_EQ(bfs.fields.size(), 2u);
  EXPECT_EQ(bfs.fields[1].key, "time-ms");
  EXPECT_EQ(bfs.fields[1].value, "1.5");
  EXPECT_EQ(bfs.fields[1].line, 5u);
  EXPECT_EQ(bfs.unsigned_field("source"), 0u);
  EXPECT_EQ(bfs.unsigned_field("k"), std::nullopt);
  EXPECT_EQ(bfs.line_of_value(0), 6u);

  write_vertex_result(path("b.txt"), "sssp",
                      std::vector<uint64_t>{UINT64_MAX, 0, 18446744073709551614ull});
  EXPECT_EQ(read_result_file(path("b.txt"), "sssp").unsigned_values,
            (std::vector<uint64_t>{kInfiniteDistance, 0, 18446744073709551614ull}));
}

TEST_F(ResultFileTest, LabelsAndMembershipRoundTrip) {
  const std::vector<int64_t> labels = {INT64_MIN, -1, 0, INT64_MAX};
  write_vertex_result(path("cc.txt"), "cc", labels);
  EXPECT_EQ(read_result_file(path("cc.txt"), "cc").signed_values, labels);
  // Labels have no infinity: UINT32_MAX is just a label.
  write_vertex_result(path("cc32.txt"), "cc", std::vector<uint32_t>{5, UINT32_MAX, 7});
  EXPECT_EQ(read_result_file(path("cc32.txt"), "cc").signed_values,
            (std::vector<int64_t>{5, 4294967295, 7}));
  write_vertex_result(path("kcore.txt"), "kcore", std::vector<int32_t>{1, 0, 1},
                      {{{"k", "3"}}});
  const ResultFile kcore = read_result_file(path("kcore.txt"), "kcore");
  EXPECT_EQ(kcore.unsigned_values, (std::vector<uint64_t>{1, 0, 1}));
  EXPECT_EQ(kcore.unsigned_field("k"), 3u);
}

TEST_F(ResultFileTest, DoublesRoundTripExactly) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = {0.1, 1.0 / 3, 5e-324, 1.7976931348623157e308,
                                      -0.0, -2.5, inf, -inf};
  write_vertex_result(path("pr.txt"), "pr", values);
  const std::vector<double> read = read_result_file(path("pr.txt"), "pr").real_values;
  ASSERT_EQ(read.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(std::memcmp(&read[i], &values[i], sizeof(double)), 0) << "value " << i;

  write_vertex_result(path("nan.txt"), "spmv",
                      std::vector<double>{std::numeric_limits<double>::quiet_NaN()});
  EXPECT_TRUE(std::isnan(read_result_file(path("nan.txt"), "spmv").real_values[0]));
}

TEST_F(ResultFileTest, FloatsRoundTripThroughDouble) {
  const std::vector<float> values = {0.1f, 1.0f / 3, 1e-45f, 3.4028235e38f, 16777217.0f};
  write_vertex_result(path("y.txt"), "spmv", values);
  const std::vector<double> read = read_result_file(path("y.txt"), "spmv").real_values;
  for (size_t i = 0; i < values.size(); ++i)
    EXPECT_EQ(static_cast<float>(read[i]), values[i]) << "value " << i;
}

TEST_F(ResultFileTest, ScalarCountUsesAllSixtyFourBits) {
  write_scalar_result(path("tc.txt"), "tc", UINT64_MAX, 7);
  const ResultFile tc = read_result_file(path("tc.txt"), "tc");
  EXPECT_EQ(tc.num_vertices, 7u);
  EXPECT_EQ(tc.unsigned_values, (std::vector<uint64_t>{UINT64_MAX}));
}

TEST_F(ResultFileTest, LargeFilesRoundTripAcrossFormattingBlocks) {
  // Several blocks of 64Ki values per worker.
  const uint64_t n = 1'000'003;
  std::vector<uint32_t> levels(n);
  std::vector<double> ranks(n);
  for (uint64_t i = 0; i < n; ++i) {
    levels[i] = i % 1000 == 999 ? UINT32_MAX : static_cast<uint32_t>(i * 2654435761u % 100000);
    ranks[i] = 1.0 / static_cast<double>(i + 3);
  }
  write_vertex_result(path("levels.txt"), "bfs", levels);
  write_vertex_result(path("ranks.txt"), "pr", ranks);
  const ResultFile bfs = read_result_file(path("levels.txt"), "bfs");
  ASSERT_EQ(bfs.unsigned_values.size(), n);
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(bfs.unsigned_values[i],
              levels[i] == UINT32_MAX ? kInfiniteDistance : uint64_t(levels[i]))
        << "vertex " << i;
  EXPECT_EQ(read_result_file(path("ranks.txt"), "pr").real_values, ranks);
}

TEST_F(ResultFileTest, NeverOverwritesUnlessAsked) {
  const std::string file = write_text("out.txt", "precious\n");
  EXPECT_EQ(input_error_of([&] { write_vertex_result(file, "bfs", std::vector<uint32_t>{0}); }),
            file + ": error: file exists; not overwriting it (use --force to replace it)");
  EXPECT_EQ(read_text(file), "precious\n");
  ResultWriteOptions overwrite;
  overwrite.overwrite = true;
  write_vertex_result(file, "bfs", std::vector<uint32_t>{0}, overwrite);
  EXPECT_EQ(read_result_file(file, "bfs").unsigned_values, (std::vector<uint64_t>{0}));
  EXPECT_EQ(directory_listing(), (std::vector<std::string>{"out.txt"}));
}

TEST_F(ResultFileTest, FailedWriteLeavesNothingBehind) {
  const std::string file = path("missing-dir/out.txt");
  EXPECT_EQ(input_error_of([&] { write_vertex_result(file, "bfs", std::vector<uint32_t>{0}); }),
            file + ": error: directory '" + path("missing-dir") + "' does not exist");
  // A value the format cannot hold is found before anything is written.
  EXPECT_THROW(write_vertex_result(path("k.txt"), "kcore", std::vector<int32_t>{0, 2}),
               std::invalid_argument);
  EXPECT_TRUE(directory_listing().empty());
}

TEST_F(ResultFileTest, FilesWrittenTogetherAppearOnlyWhenCommitted) {
  const std::vector<uint32_t> levels{0, 1};
  {
    // The second file fails (a kcore value other than 0 or 1): the first,
    // written but not committed, is gone with it.
    OutputFile first(path("r.txt"), false);
    write_vertex_result(first, "bfs", levels.data(), levels.size(), {{"source", "0"}});
    OutputFile second(path("r.txt.core"), false);
    const std::vector<int32_t> core{0, 2};
    EXPECT_THROW(write_vertex_result(second, "kcore", core.data(), core.size(), {}),
                 std::invalid_argument);
  }
  EXPECT_TRUE(directory_listing().empty());
  OutputFile first(path("r.txt"), false);
  write_vertex_result(first, "bfs", levels.data(), levels.size(), {{"source", "0"}});
  OutputFile second(path("r.txt.count"), false);
  write_real_scalar_result(second, "louvain-modularity", 0.5, 2, {});
  EXPECT_TRUE(directory_listing().size() == 2 && directory_listing()[0][0] == '.')
      << "before the commits: two temporaries";
  first.commit();
  second.commit();
  EXPECT_EQ(directory_listing(), (std::vector<std::string>{"r.txt", "r.txt.count"}));
  EXPECT_EQ(read_result_file(path("r.txt"), "bfs").unsigned_values,
            (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(read_text(path("r.txt.count")),
            "# irgl-result 1\n# algorithm louvain-modularity\n# vertices 2\n0.5\n");
}

TEST_F(ResultFileTest, WriterRejectsCallsThatBreakTheFormat) {
  const std::string file = path("x.txt");
  const std::vector<uint32_t> ints = {0};
  auto fields = [](std::vector<ResultField> list) {
    ResultWriteOptions options;
    options.fields = std::move(list);
    return options;
  };
  EXPECT_THROW(write_vertex_result(file, "bfs", std::vector<float>{0}), std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "bfs", std::vector<int32_t>{0}), std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "pr", ints), std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "tc", ints), std::invalid_argument);
  EXPECT_THROW(write_scalar_result(file, "bfs", 1, 1), std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "BFS", ints), std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "bfs", ints, fields({{"Source", "0"}})),
               std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "bfs", ints, fields({{"vertices", "1"}})),
               std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "bfs", ints, fields({{"source", ""}})),
               std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "bfs", ints, fields({{"note", "a\nb"}})),
               std::invalid_argument);
  EXPECT_THROW(write_vertex_result(file, "bfs", ints, fields({{"k", "1"}, {"k", "2"}})),
               std::invalid_argument);
  EXPECT_TRUE(directory_listing().empty());
}

TEST_F(ResultFileTest, UnknownAlgorithmsCanBeWrittenButNotRead) {
  write_vertex_result(path("seeds.txt"), "seeds", std::vector<int32_t>{1, 0});
  EXPECT_EQ(read_text(path("seeds.txt")),
            "# irgl-result 1\n# algorithm seeds\n# vertices 2\n1\n0\n");
  write_vertex_result(path("hops.txt"), "hops", std::vector<uint64_t>{UINT64_MAX, 2});
  EXPECT_EQ(read_text(path("hops.txt")),
            "# irgl-result 1\n# algorithm hops\n# vertices 2\ninf\n2\n");
  EXPECT_THROW(read_result_file(path("seeds.txt"), "seeds"), std::invalid_argument);
}

TEST_F(ResultFileTest, ReaderAcceptsCrlfNoFinalNewlineAndTrailingBlankLines) {
  EXPECT_EQ(read_error("# irgl-result 1\r\n# algorithm bfs\r\n# vertices 2\r\n0\r\ninf\r\n"),
            "no error");
  EXPECT_EQ(read_error(kBfsHeader + "0\n1\n2"), "no error");
  EXPECT_EQ(read_error(kBfsHeader + "0\n1\n2\n\n\n"), "no error");
}

TEST_F(ResultFileTest, MissingFile) {
  EXPECT_EQ(input_error_of([&] { read_result_file(path("nope.txt"), "bfs"); }),
            path("nope.txt") + ": error: cannot open: No such file or directory");
}

TEST_F(ResultFileTest, HeaderErrors) {
  EXPECT_EQ(read_error(""),
            "F:1: error: empty file; not an irgl result file (the first line must be "
            "'# irgl-result 1')");
  EXPECT_EQ(read_error("0\n1\n"),
            "F:1: error: not an irgl result file (the first line must be '# irgl-result 1')");
  EXPECT_EQ(read_error("# irgl-result 2\n"),
            "F:1: error: unsupported result format version '2' (this reader knows version 1)");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm\n"),
            "F:2: error: malformed header line '# algorithm' (expected '# KEY VALUE')");
  EXPECT_EQ(read_error("# irgl-result 1\n#algorithm bfs\n"),
            "F:2: error: malformed header line '#algorithm bfs' (expected '# KEY VALUE')");
  EXPECT_EQ(read_error("# irgl-result 1\n# Algorithm bfs\n"),
            "F:2: error: malformed header line '# Algorithm bfs' (expected '# KEY VALUE')");
  EXPECT_EQ(read_error(kBfsHeader + "# algorithm bfs\n"),
            "F:4: error: duplicate header field 'algorithm'");
  EXPECT_EQ(read_error(kBfsHeader + "# source 1\n# source 1\n"),
            "F:5: error: duplicate header field 'source'");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm sssp\n# vertices 3\n"),
            "F:2: error: result is for algorithm 'sssp', expected 'bfs'");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm bfs\n# vertices 3x\n"),
            "F:3: error: vertex count '3x' is not an unsigned integer");
  EXPECT_EQ(read_error("# irgl-result 1\n# vertices 3\n0\n"),
            "F:3: error: missing header field 'algorithm'");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm bfs\n"),
            "F:3: error: missing header field 'vertices'");
}

TEST_F(ResultFileTest, VertexCountMustMatchTheGraph) {
  const ResultFile result = read_result_file(write_text("r.txt", kBfsHeader + "0\n1\n2\n"), "bfs");
  EXPECT_NO_THROW(result.check_vertex_count(3));
  EXPECT_EQ(input_error_of([&] { result.check_vertex_count(4); }),
            path("r.txt") + ":3: error: result has 3 vertices, the graph has 4");
}

TEST_F(ResultFileTest, HeaderFieldMustBeANumberWhenReadAsOne) {
  const ResultFile result =
      read_result_file(write_text("r.txt", kBfsHeader + "# source x1\n0\n1\n2\n"), "bfs");
  EXPECT_EQ(input_error_of([&] { result.unsigned_field("source"); }),
            path("r.txt") + ":4: error: header field 'source': 'x1' is not an unsigned integer");
}

TEST_F(ResultFileTest, ValueErrors) {
  EXPECT_EQ(read_error(kBfsHeader + "0\n1.5\n2\n"),
            "F:5: error: bfs value '1.5' is not an unsigned integer or 'inf'");
  EXPECT_EQ(read_error(kBfsHeader + "0\n-1\n2\n"),
            "F:5: error: bfs value '-1' is not an unsigned integer or 'inf'");
  EXPECT_EQ(read_error(kBfsHeader + "0\n 1\n2\n"),
            "F:5: error: bfs value ' 1' is not an unsigned integer or 'inf'");
  EXPECT_EQ(read_error(kBfsHeader + "0\n18446744073709551615\n2\n"),
            "F:5: error: bfs value '18446744073709551615' is too large (unreachable is "
            "written 'inf')");
  EXPECT_EQ(read_error(kBfsHeader + "0\n18446744073709551616\n2\n"),
            "F:5: error: bfs value '18446744073709551616' is not an unsigned integer or 'inf'");
  EXPECT_EQ(read_error(kBfsHeader + "0\n\n2\n"), "F:5: error: empty line instead of a bfs value");
  EXPECT_EQ(read_error(kBfsHeader + "0\n# note x\n2\n"),
            "F:5: error: bfs value '# note x' is not an unsigned integer or 'inf'");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm cc\n# vertices 1\n1e3\n", "cc"),
            "F:4: error: cc value '1e3' is not an integer");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm kcore\n# vertices 1\n2\n", "kcore"),
            "F:4: error: kcore value '2' is not 0 or 1");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm pr\n# vertices 1\n0.1x\n", "pr"),
            "F:4: error: pr value '0.1x' is not a number");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm tc\n# vertices 1\n-3\n", "tc"),
            "F:4: error: tc value '-3' is not an unsigned integer");
}

TEST_F(ResultFileTest, GarbageIsQuotedOnOneShortLine) {
  EXPECT_EQ(read_error(kBfsHeader + "0\n\x01\x02z\t\n"),
            "F:5: error: bfs value '??z?' is not an unsigned integer or 'inf'");
  EXPECT_EQ(read_error(kBfsHeader + std::string(50, 'x') + "\n"),
            "F:4: error: bfs value '" + std::string(40, 'x') +
                "...' is not an unsigned integer or 'inf'");
  EXPECT_EQ(read_error(kBfsHeader + std::string(3 << 20, '7')),
            "F:4: error: line longer than 1 MiB; not an irgl result file");
}

TEST_F(ResultFileTest, MissingAndTrailingValues) {
  EXPECT_EQ(read_error(kBfsHeader + "0\n1\n"), "F:6: error: file ends after 2 of 3 values");
  EXPECT_EQ(read_error(kBfsHeader), "F:4: error: file ends after 0 of 3 values");
  EXPECT_EQ(read_error(kBfsHeader + "0\n1\n2\n3\n"),
            "F:7: error: unexpected data after the last of 3 values");
  EXPECT_EQ(read_error(kBfsHeader + "0\n1\n2\n\n3\n"),
            "F:8: error: unexpected data after the last of 3 values");
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm tc\n# vertices 9\n4\n5\n", "tc"),
            "F:5: error: unexpected data after the last of 1 values");
  // A header that promises far more values than the file could hold.
  EXPECT_EQ(read_error("# irgl-result 1\n# algorithm bfs\n# vertices 99999999999999\n0\n"),
            "F:5: error: file ends after 1 of 99999999999999 values");
}

}  // namespace
}  // namespace irgl
