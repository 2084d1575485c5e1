// The binary load cache: keys, hits, invalidation and damaged entries.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <regex>
#include <set>

#include "graph_test_util.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/load.h"
#include "test_paths.h"

namespace irgl {
namespace {

using testing::ScratchDir;

const std::string kSpec = "rmat:scale=8,edge-factor=4,seed=3";

LoadOptions cached_in(const ScratchDir& dir) {
  LoadOptions options;
  options.cache_dir = dir.file("cache");
  options.show_progress = false;
  return options;
}

// The cache directory's .csr files.
std::vector<std::string> cache_entries(const ScratchDir& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("cache")))
    names.push_back(entry.path().string());
  return names;
}

void set_mtime(const std::string& path, time_t seconds, long nanoseconds) {
  const timespec times[2] = {{seconds, nanoseconds}, {seconds, nanoseconds}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

TEST(CachePath, IsStableAndNamesTheSource) {
  ScratchDir dir;
  const std::string path = cache_path_for(kSpec, GraphFormat::automatic, {}, dir.file("a/b/cache"));
  EXPECT_EQ(path, cache_path_for(kSpec, GraphFormat::automatic, {}, dir.file("a/b/cache")));
  EXPECT_TRUE(std::regex_match(
      path,
      std::regex(dir.file("a/b/cache") + "/rmat_scale_8_edge-factor_4_seed_3-[0-9a-f]{32}\\.csr")))
      << path;
  struct stat info;
  EXPECT_EQ(::stat(dir.file("a/b/cache").c_str(), &info), 0) << "the directory is created";
  EXPECT_NE(path, cache_path_for("rmat:scale=8,edge-factor=4,seed=4", GraphFormat::automatic, {},
                                 dir.file("a/b/cache")));
}

// Regression: a file read with a forced --format must not reuse the entry of
// the auto-detected format.
TEST(CachePath, TheFormatChangesIt) {
  ScratchDir dir;
  EXPECT_NE(cache_path_for(kSpec, GraphFormat::automatic, {}, dir.path()),
            cache_path_for(kSpec, GraphFormat::edge_list, {}, dir.path()));
}

TEST(CachePath, EveryBuildOptionChangesIt) {
  ScratchDir dir;
  std::vector<BuildOptions> variants(10);
  variants[1].symmetrize = true;
  variants[2].drop_self_loops = true;
  variants[3].drop_duplicates = true;
  variants[4].sort_adjacency = false;
  variants[5].transpose = true;
  variants[6].weights.source = WeightRule::Source::unit;
  variants[7].weights.source = WeightRule::Source::hash;
  variants[8] = variants[7];
  variants[8].weights.seed = 1;
  variants[9].weights.convert_to = WeightType::float32;
  std::set<std::string> paths;
  for (const BuildOptions& options : variants)
    paths.insert(cache_path_for(kSpec, GraphFormat::automatic, options, dir.path()));
  EXPECT_EQ(paths.size(), variants.size());
  BuildOptions hash_max = variants[7];
  hash_max.weights.max = 7;
  EXPECT_EQ(paths.count(cache_path_for(kSpec, GraphFormat::automatic, hash_max, dir.path())), 0u);
}

TEST(CachePath, FollowsTheSourceFilesSizeAndModificationTime) {
  ScratchDir dir;
  const std::string source = dir.file("g.el");
  testing::write_file(source, "0 1\n");
  set_mtime(source, 1700000000, 5);
  const std::string original = cache_path_for(source, GraphFormat::automatic, {}, dir.file("cache"));
  // The same file by another name.
  const std::string relative = std::filesystem::relative(source).string();
  EXPECT_EQ(cache_path_for(relative, GraphFormat::automatic, {}, dir.file("cache")), original);

  set_mtime(source, 1700000000, 6);  // one nanosecond later
  const std::string touched = cache_path_for(source, GraphFormat::automatic, {}, dir.file("cache"));
  EXPECT_NE(touched, original);
  testing::write_file(source, "0 1\n1 0\n");
  set_mtime(source, 1700000000, 6);
  const std::string grown = cache_path_for(source, GraphFormat::automatic, {}, dir.file("cache"));
  EXPECT_NE(grown, touched) << "same time, new size";

  // Regression: an edit in place, same size, modification time put back
  // (touch -r, cp -p, rsync -t) kept the old entry.
  usleep(10000);  // status-change times have the file system's granularity
  testing::write_file(source, "1 0\n0 1\n");
  set_mtime(source, 1700000000, 6);
  EXPECT_NE(cache_path_for(source, GraphFormat::automatic, {}, dir.file("cache")), grown)
      << "same size and time, new status-change time";
}

TEST(CachePath, MissingSourceIsAnInputError) {
  ScratchDir dir;
  EXPECT_EQ(testing::input_error_of([&] { cache_path_for(dir.file("none.el"), GraphFormat::automatic, {}, dir.path()); }),
            dir.file("none.el") + ": error: cannot open: No such file or directory");
}

TEST(CachePath, UnusableDirectoryDisablesCaching) {
  ScratchDir dir;
  testing::write_file(dir.file("plain"), "");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cache_path_for(kSpec, GraphFormat::automatic, {}, dir.file("plain")), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "irgl: warning: cannot use the cache directory '" + dir.file("plain") +
                "': not a directory; not caching\n");
}

TEST(CachedGraph, RoundTripsAndIsAbsentBeforeWriting) {
  ScratchDir dir;
  const std::string path = dir.file("entry.csr");
  EXPECT_FALSE(read_cached_graph(path).has_value());
  const CsrGraph graph = build_csr(testing::edge_list(3, {{0, 1}, {2, 1}}), {});
  write_cached_graph(path, graph);
  const std::optional<CsrGraph> cached = read_cached_graph(path);
  ASSERT_TRUE(cached.has_value());
  testing::expect_same_graph(*cached, graph);
}

TEST(CachedGraph, DamagedEntryIsReportedAndRemoved) {
  ScratchDir dir;
  const std::string path = dir.file("entry.csr");
  write_cached_graph(path, build_csr(testing::edge_list(3, {{0, 1}, {2, 1}}), {}));
  std::string bytes = testing::read_file(path);
  bytes.back() ^= 1;
  testing::write_file(path, bytes);
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(read_cached_graph(path).has_value());
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(warning.rfind("irgl: warning: removing a damaged cache file (" + path +
                              ": byte 64: error: checksum mismatch",
                          0),
            0u)
      << warning;
  EXPECT_FALSE(testing::exists(path));
}

TEST(MappedCachedGraph, MapsAnEntryAndIsNullWithoutOne) {
  ScratchDir dir;
  const std::string path = dir.file("entry.csr");
  EXPECT_EQ(map_cached_graph(path), nullptr);
  const CsrGraph graph = build_csr(testing::edge_list(3, {{0, 1}, {2, 1}}), {});
  write_cached_graph(path, graph);
  const std::unique_ptr<MappedCsrFile> mapped = map_cached_graph(path);
  ASSERT_NE(mapped, nullptr);
  EXPECT_EQ(mapped->arrays().edges, 2u);
  EXPECT_EQ(mapped->arrays().out.neighbors[1], 1u);
}

// Other processes may map the same entry: a bad one is skipped, not removed.
TEST(MappedCachedGraph, DamagedOrForeignEntriesAreSkippedAndKept) {
  ScratchDir dir;
  const std::string path = dir.file("entry.csr");
  const CsrGraph graph = build_csr(testing::edge_list(3, {{0, 1}, {2, 1}}), {});
  write_cached_graph(path, graph);
  std::string bytes = testing::read_file(path);
  bytes.back() ^= 1;
  testing::write_file(path, bytes);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(map_cached_graph(path), nullptr);
  std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(warning.rfind("irgl: warning: not using a damaged cache file (" + path +
                              ": byte 64: error: checksum mismatch",
                          0),
            0u)
      << warning;
  EXPECT_TRUE(testing::exists(path));

  write_irgl_binary(path, graph, /*overwrite=*/true);  // origin 0: not written by the cache
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(map_cached_graph(path), nullptr);
  warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(warning, "irgl: warning: not using a cache file that is not the entry its name says "
                     "(copied over or renamed): " + path + "\n");
  EXPECT_TRUE(testing::exists(path));
}

TEST(MapLoadedGraph, MapsTheCacheEntryOnceALoadWroteIt) {
  ScratchDir dir;
  LoadOptions options = cached_in(dir);
  options.build.transpose = true;
  EXPECT_EQ(map_loaded_graph(kSpec, options), nullptr);
  const CsrGraph loaded = load_graph(kSpec, options);
  const std::unique_ptr<MappedCsrFile> mapped = map_loaded_graph(kSpec, options);
  ASSERT_NE(mapped, nullptr);
  EXPECT_EQ(mapped->arrays().edges, loaded.num_edges());
  EXPECT_TRUE(mapped->arrays().has_transpose());
  EXPECT_TRUE(std::equal(loaded.out_targets.begin(), loaded.out_targets.end(),
                         mapped->arrays().out.neighbors));
  options.build.symmetrize = true;  // another entry
  EXPECT_EQ(map_loaded_graph(kSpec, options), nullptr);
  options.build.symmetrize = false;
  options.cache_dir.clear();
  EXPECT_EQ(map_loaded_graph(kSpec, options), nullptr);
}

TEST(MapLoadedGraph, MapsACsrSourceThatTheOptionsLeaveAsItIs) {
  ScratchDir dir;
  const std::string path = dir.file("g.csr");
  write_irgl_binary(path, build_csr(testing::edge_list(4, {{0, 1}, {1, 2}, {3, 0}}), {}), true);
  LoadOptions options;
  options.show_progress = false;
  EXPECT_NE(map_loaded_graph(path, options), nullptr);
  options.format = GraphFormat::irgl_binary;
  EXPECT_NE(map_loaded_graph(path, options), nullptr);
  LoadOptions in_edges = options;
  in_edges.build.transpose = true;  // the file has none: the whole load builds it
  EXPECT_EQ(map_loaded_graph(path, in_edges), nullptr);
  LoadOptions symmetric = options;
  symmetric.build.symmetrize = true;
  EXPECT_EQ(map_loaded_graph(path, symmetric), nullptr);
  LoadOptions renumbered = options;
  renumbered.build.renumber = true;
  EXPECT_EQ(map_loaded_graph(path, renumbered), nullptr);
  // A bad .csr input is the load's error, not a fallback.
  testing::write_file(path, "IRGLCSR");
  EXPECT_THROW(map_loaded_graph(path, options), InputError);
  EXPECT_EQ(map_loaded_graph(dir.file("absent.csr"), options), nullptr);
}

TEST(CachedGraph, WriteFailureIsOnlyAWarning) {
  ScratchDir dir;
  const std::string path = dir.file("missing/entry.csr");
  ::testing::internal::CaptureStderr();
  write_cached_graph(path, build_csr(testing::edge_list(2, {{0, 1}}), {}));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "irgl: warning: not caching the graph: " + path +
                ": error: directory '" + dir.file("missing") + "' does not exist\n");
}

TEST(LoadGraphCache, SecondLoadReadsTheCacheFile) {
  ScratchDir dir;
  const LoadOptions options = cached_in(dir);
  const CsrGraph first = load_graph(kSpec, options);
  const std::vector<std::string> entries = cache_entries(dir);
  ASSERT_EQ(entries.size(), 1u);
  testing::expect_same_graph(read_irgl_binary(entries[0]), first);

  // Store another graph as the entry: a second load must return it, proving
  // a hit.
  const CsrGraph stand_in = build_csr(testing::edge_list(2, {{1, 0}}), {});
  write_cached_graph(entries[0], stand_in);
  const CsrGraph second = load_graph(kSpec, options);
  testing::expect_same_graph(second, stand_in);
  EXPECT_EQ(second.name, kSpec);
}

// Regression: a .csr of another graph copied over an entry was used silently.
TEST(LoadGraphCache, AForeignFileCopiedOverAnEntryIsNotUsed) {
  ScratchDir dir;
  const LoadOptions options = cached_in(dir);
  const CsrGraph original = load_graph(kSpec, options);
  const std::vector<std::string> entries = cache_entries(dir);
  ASSERT_EQ(entries.size(), 1u);
  write_irgl_binary(entries[0], build_csr(testing::edge_list(2, {{1, 0}}), {}),
                    /*overwrite=*/true);  // as irgl-graph convert writes files
  ::testing::internal::CaptureStderr();
  testing::expect_same_graph(load_graph(kSpec, options), original);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "irgl: warning: removing a cache file that is not the entry its name says (copied "
            "over or renamed): " + entries[0] + "\n");
  testing::expect_same_graph(*read_cached_graph(entries[0]), original);  // rebuilt

  // An entry of another source renamed to this one is refused the same way.
  const CsrGraph other = load_graph("grid:3x3", options);
  for (const std::string& entry : cache_entries(dir))
    if (entry != entries[0]) std::filesystem::rename(entry, entries[0]);
  ::testing::internal::CaptureStderr();
  testing::expect_same_graph(load_graph(kSpec, options), original);
  EXPECT_NE(::testing::internal::GetCapturedStderr(), "");
  (void)other;
}

TEST(LoadGraphCache, OptionChangeMisses) {
  ScratchDir dir;
  LoadOptions options = cached_in(dir);
  const CsrGraph plain = load_graph(kSpec, options);
  options.build.symmetrize = true;
  const CsrGraph symmetric = load_graph(kSpec, options);
  EXPECT_EQ(cache_entries(dir).size(), 2u);
  EXPECT_TRUE(symmetric.symmetric);
  EXPECT_GT(symmetric.num_edges(), plain.num_edges());
}

TEST(LoadGraphCache, DamagedEntryIsReplacedByAFreshLoad) {
  ScratchDir dir;
  const LoadOptions options = cached_in(dir);
  const CsrGraph original = load_graph(kSpec, options);
  const std::string entry = cache_entries(dir).at(0);
  std::string bytes = testing::read_file(entry);
  bytes.resize(bytes.size() - 4);
  testing::write_file(entry, bytes);

  ::testing::internal::CaptureStderr();
  const CsrGraph reloaded = load_graph(kSpec, options);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("irgl: warning: removing a damaged cache file (" + entry + ": byte " +
                         std::to_string(bytes.size()) + ": error: truncated"),
            std::string::npos)
      << warning;
  testing::expect_same_graph(reloaded, original);
  testing::expect_same_graph(read_irgl_binary(entry), original);
}

TEST(LoadGraphCache, ChangedSourceFileMisses) {
  ScratchDir dir;
  const LoadOptions options = cached_in(dir);
  const std::string source = dir.file("g.el");
  testing::write_file(source, "0 1\n1 2\n");
  EXPECT_EQ(load_graph(source, options).num_edges(), 2u);
  EXPECT_EQ(load_graph(source, options).num_edges(), 2u);
  EXPECT_EQ(cache_entries(dir).size(), 1u);
  testing::write_file(source, "0 1\n1 2\n2 0\n");
  EXPECT_EQ(load_graph(source, options).num_edges(), 3u);
  EXPECT_EQ(cache_entries(dir).size(), 2u);
}

}  // namespace
}  // namespace irgl
