// The bad-input corpus (tests/inputs/bad): every file must be rejected by
// load_graph() with exactly the one-line message below. This table is the
// specification of the readers' error messages; tests/lit/formats/
// bad-inputs.test checks the same messages through irgl-graph, and a test
// here keeps the two in step.
#include <dirent.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "format_test_util.h"
#include "irgl/support/error.h"
#include "test_paths.h"

namespace irgl::testing {
namespace {

struct BadInput {
  const char* file;     // under tests/inputs/bad
  const char* format;   // the --format it is loaded with ("auto" mostly)
  const char* message;  // what follows the file's path in the error
};

const BadInput kBadInputs[] = {
    // Files and compression.
    {"empty.mtx", "auto", ": error: empty file"},
    {"directory.mtx", "auto", ": error: is a directory, not a graph file"},
    {"binary-as-text.txt", "auto",
     ":1: error: binary data (a NUL byte) where an edge list was expected"},
    {"mtx-truncated.mtx.gz", "auto", ": byte 90: error: truncated gzip stream"},
    {"gzip-magic-only.txt.gz", "auto", ": byte 2: error: truncated gzip stream"},
    {"el-corrupt.txt.gz", "auto", ": byte 147: error: corrupt gzip stream: incorrect data check"},
    {"el-trailing-garbage.txt.gz", "auto",
     ": byte 151: error: unexpected data after the end of the gzip stream"},
    {"snap-truncated.txt.xz", "auto", ": byte 60: error: truncated xz stream"},
    {"mtx-corrupt.mtx.xz", "auto",
     ": byte 78: error: corrupt xz stream: compressed data is corrupt"},

    // MatrixMarket.
    {"mtx-no-banner.mtx", "auto",
     ":1: error: missing MatrixMarket banner (expected '%%MatrixMarket matrix coordinate "
     "<field> <symmetry>')"},
    {"mtx-incomplete-banner.mtx", "auto",
     ":1: error: incomplete MatrixMarket banner (expected '%%MatrixMarket matrix coordinate "
     "<field> <symmetry>')"},
    {"mtx-vector.mtx", "auto",
     ":1: error: unsupported MatrixMarket object 'vector' (expected 'matrix')"},
    {"mtx-array.mtx", "auto",
     ":1: error: MatrixMarket 'array' (dense) format is not supported (graphs need "
     "'coordinate')"},
    {"mtx-complex.mtx", "auto",
     ":1: error: unsupported MatrixMarket field 'complex' (expected pattern, integer or real)"},
    {"mtx-hermitian.mtx", "auto",
     ":1: error: unsupported MatrixMarket symmetry 'hermitian' (expected general or symmetric)"},
    {"mtx-skew-symmetric.mtx", "auto",
     ":1: error: unsupported MatrixMarket symmetry 'skew-symmetric' (expected general or "
     "symmetric)"},
    {"mtx-missing-size-line.mtx", "auto", ":3: error: missing size line 'rows columns entries'"},
    {"mtx-short-size-line.mtx", "auto",
     ":2: error: expected the size line 'rows columns entries', found 2 fields"},
    {"mtx-negative-count.mtx", "auto", ":2: error: negative entry count -2"},
    {"mtx-not-square.mtx", "auto",
     ":3: error: matrix is 3 x 4, not square: graphs need rows == cols"},
    {"mtx-id-zero.mtx", "auto",
     ":4: error: vertex id 0 out of range 1..4 (MatrixMarket ids are 1-based)"},
    {"mtx-id-too-large.mtx", "auto",
     ":5: error: vertex id 5 out of range 1..4 (MatrixMarket ids are 1-based)"},
    {"mtx-garbage-entry.mtx", "auto", ":4: error: expected a vertex id, found 'three'"},
    {"mtx-pattern-with-value.mtx", "auto",
     ":4: error: entry has 3 fields, expected 2 ('row column') for a pattern matrix"},
    {"mtx-real-missing-value.mtx", "auto",
     ":4: error: entry has 2 fields, expected 3 ('row column value') for a real matrix"},
    {"mtx-truncated.mtx", "auto",
     ":6: error: entry has 1 field, expected 2 ('row column') for a pattern matrix"},
    {"mtx-integer-overflow.mtx", "auto", ":4: error: value 3000000000 does not fit in int32"},
    {"mtx-integer-not-integer.mtx", "auto", ":4: error: expected an integer value, found '7.5'"},
    {"mtx-real-garbage.mtx", "auto", ":4: error: expected a real value, found '1.5.2'"},
    {"mtx-real-nan.mtx", "auto", ":3: error: real value nan is not a finite number"},
    {"mtx-too-few-entries.mtx", "auto",
     ":2: error: the size line declares 4 entries, but the file has 3"},
    {"mtx-too-many-entries.mtx", "auto",
     ":2: error: the size line declares 2 entries, but the file has 3"},

    // Edge lists.
    {"el-negative-id.txt", "auto", ":3: error: negative vertex id -1"},
    {"el-id-too-large.txt", "auto", ":2: error: vertex id 4294967295 out of range 0..4294967294"},
        {"el-garbage.txt", "auto", ":2: error: expected a vertex id, found 'x2'"},
    {"el-one-column.txt", "auto", ":2: error: expected 2 or 3 columns ('u v' or 'u v w'), found 1"},
    {"el-four-columns.txt", "auto",
     ":3: error: expected 2 or 3 columns ('u v' or 'u v w'), found 4"},
    {"el-mixed-columns.txt", "auto",
     ":3: error: line has 3 columns, but the first edge line (line 1) has 2"},
    {"el-empty-field.csv", "auto",
     ":2: error: empty column (nothing between two commas, or after the last)"},
    {"el-trailing-comma.csv", "auto",
     ":2: error: empty column (nothing between two commas, or after the last)"},
    {"el-bad-weight.wel", "auto", ":2: error: expected a weight, found 'heavy'"},
    {"el-weight-overflow.wel", "auto", ":2: error: weight 2147483648 does not fit in int32"},
    {"el-float-weight-overflow.wel", "auto", ":2: error: weight 1e39 does not fit in float32"},
    {"el-infinite-weight.wel", "auto", ":1: error: weight inf is not a finite number"},
    {"el-header-line.txt", "auto",
     ":1: error: 'source target' looks like a header line (column names); edge lists have one "
     "only when named .csv or read with --header (or make it a comment: '# ...')"},
    {"el-two-header-lines.csv", "auto", ":2: error: expected a vertex id, found 'from'"},

    // DIMACS.
    {"dimacs-missing-p.gr", "auto", ":2: error: missing 'p sp <nodes> <arcs>' line"},
    {"dimacs-arc-before-p.gr", "auto", ":2: error: arc before the 'p sp <nodes> <arcs>' line"},
    {"dimacs-wrong-problem.gr", "auto",
     ":1: error: unsupported DIMACS problem 'max' (expected 'p sp <nodes> <arcs>')"},
    {"dimacs-negative-count.gr", "auto", ":1: error: negative arc count -2"},
    {"dimacs-duplicate-p.gr", "auto", ":4: error: second 'p' line (the first is line 1)"},
    {"dimacs-unknown-line.gr", "auto",
     ":3: error: unknown line type 'e' (expected 'c', 'p' or 'a')"},
    {"dimacs-id-out-of-range.gr", "auto",
     ":3: error: vertex id 4 out of range 1..3 (DIMACS ids are 1-based)"},
    {"dimacs-negative-weight.gr", "auto", ":3: error: negative arc weight -5"},
    {"dimacs-float-weight.gr", "auto", ":3: error: expected an integer arc weight, found '2.5'"},
    {"dimacs-truncated.gr", "auto", ":3: error: expected 'a <from> <to> <weight>', found 3 fields"},
    {"dimacs-arc-count.gr", "auto", ":2: error: the 'p' line declares 3 arcs, but the file has 2"},

    // Galois binary.
    {"galois-version-2.gr", "auto",
     ": byte 0: error: Galois .gr version 2 (64-bit ids) is not supported"},
    // Content detection only recognises versions 1 and 2 as binary.
    {"galois-version-7.gr", "auto", ": byte 0: error: unknown Galois .gr version 7 (expected 1)"},
    {"galois-truncated-header.gr", "auto",
     ": byte 20: error: truncated: the file ends inside the 32-byte header"},
    {"galois-truncated.gr", "auto",
     ": byte 70: error: truncated: the header promises 4 nodes and 5 edges (108 bytes), the "
     "file has 70"},
    {"galois-trailing-data.gr", "auto",
     ": byte 108: error: unexpected data after the end of the graph (the file has 116 bytes, "
     "the header promises 108)"},
    {"galois-edge-data-size.gr", "auto",
     ": byte 8: error: edge data size 8 is not supported (expected 0 or 4 bytes per edge)"},
    {"galois-too-many-nodes.gr", "auto",
     ": byte 16: error: 5000000000 nodes, more than the 4294967295 vertices a graph may have"},
    {"galois-no-nodes.gr", "auto", ": byte 24: error: the header promises 5 edges but no nodes"},
    {"galois-decreasing-index.gr", "auto",
     ": byte 48: error: edge index 1 of node 2 is below the previous one (3)"},
    {"galois-last-index.gr", "auto",
     ": byte 56: error: the last edge index is 4, but the header promises 5 edges"},
    {"galois-destination-out-of-range.gr", "auto",
     ": byte 76: error: destination 9 of edge 3 out of range 0..3"},
};

std::string bad_path(const std::string& file) { return test_input("bad/" + file); }

class BadInputTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(BadInputTest, RejectedWithExactMessage) {
  const BadInput& bad = GetParam();
  LoadOptions options;
  options.show_progress = false;
  options.format = parse_graph_format(bad.format, "--format");
  const std::string path = bad_path(bad.file);
  EXPECT_EQ(input_error_of([&] { load_graph(path, options); }), path + bad.message);
}

std::string test_name(const ::testing::TestParamInfo<BadInput>& info) {
  std::string name = info.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInputTest, ::testing::ValuesIn(kBadInputs), test_name);

std::set<std::string> corpus_entries() {
  std::set<std::string> names;
  DIR* directory = opendir(bad_path("").c_str());
  if (!directory) return names;
  while (const dirent* entry = readdir(directory))
    if (entry->d_name[0] != '.') names.insert(entry->d_name);
  closedir(directory);
  return names;
}

TEST(BadInputCorpus, EveryFileHasAnExpectedMessage) {
  std::set<std::string> listed;
  for (const BadInput& bad : kBadInputs) EXPECT_TRUE(listed.insert(bad.file).second) << bad.file;
  const std::set<std::string> present = corpus_entries();
  EXPECT_GE(present.size(), 35u);
  EXPECT_EQ(present, listed);
}

// The lit test's RUN and check lines, keyed by file: the format option and
// the expected message after the path.
std::map<std::string, std::pair<std::string, std::string>> lit_expectations() {
  std::ifstream lit(test_input("../lit/formats/bad-inputs.test"));
  const std::regex run(
      R"(RUN: not irgl-graph stats (--format (\w+) )?%inputs/bad/(\S+) 2>&1 \| FileCheck %s --check-prefix=(\w+)$)");
  const std::regex check(R"(^# (\w+): \{\{\.\*\}\}bad/(.*)$)");
  std::map<std::string, std::string> file_of_tag, format_of_tag, message_of_tag;
  std::string line;
  std::smatch match;
  while (std::getline(lit, line)) {
    if (std::regex_search(line, match, run)) {
      file_of_tag[match[4]] = match[3];
      format_of_tag[match[4]] = match[2].matched ? match[2].str() : "auto";
    } else if (std::regex_search(line, match, check)) {
      message_of_tag[match[1]] = match[2];
    }
  }
  std::map<std::string, std::pair<std::string, std::string>> expectations;
  for (const auto& [tag, file] : file_of_tag) {
    const std::string& checked = message_of_tag[tag];
    const bool names_file = checked.compare(0, file.size(), file) == 0;
    expectations[file] = {format_of_tag[tag], names_file ? checked.substr(file.size()) : checked};
  }
  return expectations;
}

TEST(BadInputCorpus, LitTestExpectsTheSameMessages) {
  const auto lit = lit_expectations();
  std::map<std::string, std::pair<std::string, std::string>> table;
  for (const BadInput& bad : kBadInputs) table[bad.file] = {bad.format, bad.message};
  EXPECT_EQ(lit, table);
}

}  // namespace
}  // namespace irgl::testing
