#include "irgl/graph/load.h"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "formats.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
#include "irgl/support/error.h"
#include "load_progress.h"

namespace irgl {

const char* to_string(GraphFormat format) {
  switch (format) {
    case GraphFormat::automatic: return "auto";
    case GraphFormat::matrix_market: return "mtx";
    case GraphFormat::edge_list: return "edgelist";
    case GraphFormat::dimacs: return "dimacs";
    case GraphFormat::galois_binary: return "galois";
    case GraphFormat::irgl_binary: return "csr";
  }
  return "?";
}

GraphFormat parse_graph_format(const std::string& name, const std::string& option) {
  for (GraphFormat format : {GraphFormat::automatic, GraphFormat::matrix_market,
                             GraphFormat::edge_list, GraphFormat::dimacs,
                             GraphFormat::galois_binary, GraphFormat::irgl_binary})
    if (name == to_string(format)) return format;
  throw InputError::in(option, "unknown graph format '" + name +
                                   "' (expected mtx, edgelist, dimacs, galois, csr or auto)");
}

bool is_generator_spec(const std::string& source) {
  for (const char* prefix : {"rmat:", "grid:", "uniform:"})
    if (source.rfind(prefix, 0) == 0) return true;
  return false;
}

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The name without a trailing compression suffix.
std::string strip_compression_suffix(const std::string& path) {
  for (const char* suffix : {".gz", ".xz"})
    if (ends_with(path, suffix)) return path.substr(0, path.size() - 3);
  return path;
}

}  // namespace

GraphFormat detect_format(const std::string& path) {
  const std::string head = peek_decompressed(path, 16);
  if (head.rfind(std::string(kIrglBinaryMagic, sizeof kIrglBinaryMagic), 0) == 0)
    return GraphFormat::irgl_binary;
  const std::string name = strip_compression_suffix(path);
  if (ends_with(name, ".mtx") || head.rfind("%%MatrixMarket", 0) == 0)
    return GraphFormat::matrix_market;
  if (ends_with(name, ".gr")) {
    // Galois binary files begin with the 64-bit little-endian version word
    // (a NUL byte among the first 8 means binary; the reader checks the version).
    if (head.size() >= 8 && head.substr(0, 8).find('\0') != std::string::npos)
      return GraphFormat::galois_binary;
    return GraphFormat::dimacs;
  }
  if (ends_with(name, ".csr")) return GraphFormat::irgl_binary;
  return GraphFormat::edge_list;
}

namespace {

CsrGraph parse_file(const std::string& path, GraphFormat format, const LoadOptions& options) {
  EdgeList edges;
  switch (format) {
    case GraphFormat::irgl_binary:
      return rebuild(read_irgl_binary(path), options.build);
    case GraphFormat::galois_binary:
      edges = read_galois_binary(path, options.show_progress);
      break;
    case GraphFormat::matrix_market:
      edges = parse_matrix_market(read_text_input(path, options.show_progress));
      break;
    case GraphFormat::dimacs:
      edges = parse_dimacs(read_text_input(path, options.show_progress));
      break;
    case GraphFormat::edge_list: {
      EdgeListOptions edge_list;
      edge_list.header = options.edge_list_header;
      edge_list.renumbering = options.build.renumber;
      edges = parse_edge_list(read_text_input(path, options.show_progress), edge_list);
      break;
    }
    case GraphFormat::automatic:
      break;
  }
  return build_csr(std::move(edges), options.build);
}

// The cache file of a load of `source` read as `format`, or "" where the
// load is not cached (no cache directory, a binary CSR input, an unusable
// directory).
std::string cache_entry(const std::string& source, GraphFormat format,
                        const LoadOptions& options) {
  if (options.cache_dir.empty() || format == GraphFormat::irgl_binary) return "";
  return cache_path_for(source, format, options.build, options.cache_dir);
}

CsrGraph load_uncached(const std::string& source, GraphFormat format,
                       const LoadOptions& options) {
  if (is_generator_spec(source)) {
    EdgeList edges = generate_from_spec(source, options.show_progress);
    return build_csr(std::move(edges), options.build);
  }
  return parse_file(source, format, options);
}

}  // namespace

CsrGraph load_graph(const std::string& source, const LoadOptions& options) {
  GraphFormat format = options.format;
  if (!is_generator_spec(source)) {
    struct stat info;
    if (stat(source.c_str(), &info) != 0)
      throw InputError::in(source, "cannot open: no such file");
    if (S_ISDIR(info.st_mode)) throw InputError::in(source, "is a directory, not a graph file");
    if (format == GraphFormat::automatic) format = detect_format(source);
  }
  if (options.edge_list_header && format != GraphFormat::edge_list)
    throw InputError::in("--header", "only edge lists have a header line, and " + source +
                                         " is " +
                                         (is_generator_spec(source)
                                              ? std::string("a generator spec")
                                              : std::string("read as ") + to_string(format)));
  // Progress lines for every phase below (load_progress.h).
  const progress::Report report(source, options.show_progress);
  const std::string cached = cache_entry(source, format, options);
  if (!cached.empty()) {
    if (auto graph = read_cached_graph(cached)) {
      graph->name = source;
      return std::move(*graph);
    }
  }
  CsrGraph graph = load_uncached(source, format, options);
  graph.name = source;
  if (!cached.empty()) write_cached_graph(cached, graph);
  return graph;
}

std::unique_ptr<MappedCsrFile> map_loaded_graph(const std::string& source,
                                                const LoadOptions& options) {
  if (options.build.renumber || options.edge_list_header) return nullptr;
  const bool spec = is_generator_spec(source);
  GraphFormat format = options.format;
  if (!spec) {
    struct stat info;
    if (stat(source.c_str(), &info) != 0 || S_ISDIR(info.st_mode)) return nullptr;
    if (format == GraphFormat::automatic) format = detect_format(source);
  }
  const progress::Report report(source, options.show_progress);
  std::unique_ptr<MappedCsrFile> file;
  if (!spec && format == GraphFormat::irgl_binary) {
    file = std::make_unique<MappedCsrFile>(source);
    const GraphArrays& graph = file->arrays();
    if (graph.renumbered || !rebuild_keeps(graph.weight_type, graph.sorted, options.build))
      return nullptr;
  } else if (const std::string cached = cache_entry(source, format, options); !cached.empty()) {
    file = map_cached_graph(cached);
  }
  if (file && options.build.transpose && !file->arrays().has_transpose()) return nullptr;
  return file;
}

}  // namespace irgl
