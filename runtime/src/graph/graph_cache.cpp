// The load cache: graphs stored in the binary CSR format under names that
// encode everything the loaded graph depends on.
//
// A cache file is "<source name>-<32 hex digits>.csr". The digits are two
// XXH64 hashes of a key made of: kCacheVersion; for a file, its absolute path,
// size, modification and status-change times in nanoseconds, device and inode
// (the status-change time moves with every write, even when the modification
// time is put back: touch -r, cp -p, tar); for a generator
// spec, the spec text; and every build option. Changing any of them selects a
// different file, so entries are never stale; old ones are simply no longer
// used (nothing here deletes them, except damaged ones). Each entry's header
// holds an origin derived from its name, checked on load, so a file copied
// over an entry or renamed to it is never taken for it.
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "hashing.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/load.h"
#include "irgl/support/error.h"

namespace irgl {
namespace {

// Bump when a parser, a generator or build_csr starts producing different
// graphs from the same input, so that old entries stop matching.
constexpr unsigned kCacheVersion = 3;  // 3: symmetric inputs are not mirrored again

// A reminder to extend options_key() when BuildOptions gains a field.
static_assert(sizeof(BuildOptions) == 32, "BuildOptions changed: update options_key()");

void warn(const std::string& message) { std::cerr << "irgl: warning: " << message << '\n'; }

std::string options_key(const BuildOptions& options) {
  const WeightRule& weights = options.weights;
  return "symmetrize=" + std::to_string(options.symmetrize) +
         " drop-self-loops=" + std::to_string(options.drop_self_loops) +
         " drop-duplicates=" + std::to_string(options.drop_duplicates) +
         " sort=" + std::to_string(options.sort_adjacency) +
         " transpose=" + std::to_string(options.transpose) +
         " weights=" + std::to_string(static_cast<int>(weights.source)) + ":" +
         std::to_string(weights.max) + ":" + std::to_string(weights.seed) + ":" +
         to_string(weights.convert_to) +
         // Only when on, so that the keys of earlier entries stay valid.
         (options.renumber ? " renumber=1" : "");
}

// Identifies the current contents of a file without reading it.
std::string file_key(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0)
    throw InputError::in(path, std::string("cannot open: ") + std::strerror(errno));
  char absolute[PATH_MAX];
  if (!::realpath(path.c_str(), absolute))
    throw InputError::in(path, std::string("cannot open: ") + std::strerror(errno));
  auto nanoseconds = [](const timespec& t) {
    return std::to_string(int64_t(t.tv_sec) * 1000000000 + t.tv_nsec);
  };
  return std::string("file ") + absolute + " size=" + std::to_string(info.st_size) +
         " mtime=" + nanoseconds(info.st_mtim) + " ctime=" + nanoseconds(info.st_ctim) +
         " dev=" + std::to_string(info.st_dev) +
         " ino=" + std::to_string(info.st_ino);
}

// The readable part of a cache file name: the source's base name (or spec)
// with anything unusual replaced, at most 64 characters.
std::string readable_name(const std::string& source) {
  std::string name = is_generator_spec(source) ? source : source.substr(source.rfind('/') + 1);
  if (name.size() > 64) name.resize(64);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return name;
}

// Creates `dir` and its parents; returns "" or what went wrong.
std::string make_directories(const std::string& dir) {
  for (size_t at = dir.find('/', 1);; at = dir.find('/', at + 1)) {
    const std::string prefix = dir.substr(0, at);
    if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) return std::strerror(errno);
    if (at == std::string::npos) break;
  }
  struct stat info;
  if (::stat(dir.c_str(), &info) != 0) return std::strerror(errno);
  return S_ISDIR(info.st_mode) ? "" : "not a directory";
}

// The origin an entry's header holds: a hash of its file name (which encodes
// the key), never 0 (the origin of files written outside the cache).
uint64_t origin_of(const std::string& cache_path) {
  const std::string name = cache_path.substr(cache_path.rfind('/') + 1);
  return hashing::Xxh64::of(name, 2) | 1;
}

void remove_entry(const std::string& cache_path, const std::string& why) {
  warn("removing " + why);
  if (::unlink(cache_path.c_str()) != 0)
    warn("cannot remove " + cache_path + ": " + std::strerror(errno));
}

}  // namespace

std::string cache_path_for(const std::string& source, GraphFormat format,
                           const BuildOptions& options, const std::string& cache_dir) {
  const std::string key = "irgl graph cache " + std::to_string(kCacheVersion) + "\n" +
                          (is_generator_spec(source) ? "spec " + source : file_key(source)) + "\n" +
                          "format " + to_string(format) + "\n" + options_key(options);
  const std::string problem = make_directories(cache_dir);
  if (!problem.empty()) {
    warn("cannot use the cache directory '" + cache_dir + "': " + problem + "; not caching");
    return "";
  }
  char digits[33];
  std::snprintf(digits, sizeof digits, "%016llx%016llx",
                static_cast<unsigned long long>(hashing::Xxh64::of(key, 0)),
                static_cast<unsigned long long>(hashing::Xxh64::of(key, 1)));
  return cache_dir + (cache_dir.back() == '/' ? "" : "/") + readable_name(source) + "-" + digits +
         ".csr";
}

std::optional<CsrGraph> read_cached_graph(const std::string& cache_path) {
  struct stat info;
  if (::stat(cache_path.c_str(), &info) != 0) return std::nullopt;
  try {
    uint64_t origin = 0;
    CsrGraph graph = read_irgl_binary(cache_path, &origin);
    if (origin == origin_of(cache_path)) return graph;
    remove_entry(cache_path, "a cache file that is not the entry its name says (copied over "
                             "or renamed): " + cache_path);
  } catch (const InputError& error) {
    remove_entry(cache_path, std::string("a damaged cache file (") + error.what() + ")");
  }
  return std::nullopt;
}

std::unique_ptr<MappedCsrFile> map_cached_graph(const std::string& cache_path) {
  struct stat info;
  if (::stat(cache_path.c_str(), &info) != 0) return nullptr;
  try {
    auto file = std::make_unique<MappedCsrFile>(cache_path);
    if (file->origin() == origin_of(cache_path)) return file;
    warn("not using a cache file that is not the entry its name says (copied over or renamed): " +
         cache_path);
  } catch (const InputError& error) {
    warn(std::string("not using a damaged cache file (") + error.what() + ")");
  }
  return nullptr;
}

void write_cached_graph(const std::string& cache_path, const CsrGraph& graph) {
  try {
    write_irgl_binary(cache_path, graph, /*overwrite=*/true, origin_of(cache_path));
  } catch (const InputError& error) {
    warn(std::string("not caching the graph: ") + error.what());
  }
}

}  // namespace irgl
