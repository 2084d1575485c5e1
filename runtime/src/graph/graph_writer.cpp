// Writing graphs as MatrixMarket and edge-list text, or in the binary format
// (graph_writer.h). Text is formatted in parallel, in blocks of about a
// million edges, and written in order.
#include "irgl/graph/graph_writer.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "irgl/graph/binary_format.h"
#include "irgl/support/error.h"
#include "irgl/support/output_file.h"
#include "irgl/support/parallel.h"
#include "load_progress.h"

namespace irgl {

namespace {

constexpr OutputFormat kOutputFormats[] = {OutputFormat::irgl_binary, OutputFormat::matrix_market,
                                           OutputFormat::edge_list, OutputFormat::tsv,
                                           OutputFormat::csv};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The extension of the last path component ("" when none).
std::string extension_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

constexpr const char* kKnownExtensions = ".csr, .mtx, .el, .txt, .edges, .wel, .tsv or .csv";

// ---------------------------------------------------------------------------
// Text

template <class Integer>
void append_integer(std::string& out, Integer value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, result.ptr);
}

// A weight as the readers parse it back: int32 words as integers, float32
// words in the shortest form that reads back to the same float, with ".0"
// added to integral values so that a file of floats stays floats.
void append_weight(std::string& out, uint32_t word, WeightType type) {
  if (type == WeightType::int32) {
    int32_t value;
    std::memcpy(&value, &word, sizeof value);
    append_integer(out, value);
    return;
  }
  float value;
  std::memcpy(&value, &word, sizeof value);
  char digits[48];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, result.ptr);
  if (std::all_of(digits, result.ptr, [](char c) { return c == '-' || (c >= '0' && c <= '9'); }))
    out += ".0";
}

// Vertex ranges holding about kBlockEdges edges (and at most kBlockVertices
// vertices) each: bounds[b] .. bounds[b + 1].
std::vector<uint64_t> block_bounds(const CsrGraph& graph) {
  constexpr uint64_t kBlockEdges = uint64_t(1) << 20, kBlockVertices = uint64_t(1) << 20;
  const uint64_t n = graph.num_vertices();
  std::vector<uint64_t> bounds{0};
  while (bounds.back() < n) {
    const uint64_t v = bounds.back();
    const uint64_t by_edges = static_cast<uint64_t>(
        std::upper_bound(graph.out_offsets.begin() + v + 1, graph.out_offsets.begin() + n,
                         graph.out_offsets[v] + kBlockEdges) -
        graph.out_offsets.begin());
    bounds.push_back(std::min({n, v + kBlockVertices, std::max(by_edges, v + 1)}));
  }
  return bounds;
}

// Writes the text format(out, first_vertex, end_vertex) produces for every
// block, in order; blocks are formatted a batch at a time in parallel.
template <class Format>
void write_blocks(OutputFile& file, const CsrGraph& graph, Format&& format) {
  const std::vector<uint64_t> bounds = block_bounds(graph);
  const uint64_t blocks = bounds.size() - 1;
  const uint64_t batch = 2 * uint64_t(host_threads());
  std::vector<std::string> texts(batch);
  for (uint64_t first = 0; first < blocks; first += batch) {
    const uint64_t count = std::min(batch, blocks - first);
    parallel_tasks(count, [&](uint64_t t, unsigned) {
      texts[t].clear();
      format(texts[t], bounds[first + t], bounds[first + t + 1]);
    });
    for (uint64_t t = 0; t < count; ++t) {
      file.write(texts[t]);
      progress::advance(graph.out_offsets[bounds[first + t + 1]] -
                        graph.out_offsets[bounds[first + t]]);
    }
  }
}

// MatrixMarket: entry (u+1, v+1) per edge u -> v; a symmetric graph keeps
// the lower triangle (u >= v), which the reader mirrors back.
void write_matrix_market(OutputFile& file, const CsrGraph& graph) {
  const bool lower_only = graph.symmetric;
  const uint64_t n = graph.num_vertices();
  uint64_t entries = graph.num_edges();
  if (lower_only) {
    std::vector<uint64_t> counts(parallel_chunk_count(0, n), 0);
    parallel_chunks(0, n, [&](uint64_t lo, uint64_t hi, unsigned w) {
      uint64_t count = 0;
      for (uint64_t u = lo; u < hi; ++u)
        for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e)
          count += graph.out_targets[e] <= u;
      counts[w] = count;
    });
    entries = 0;
    for (uint64_t count : counts) entries += count;
  }
  const char* field = graph.weight_type == WeightType::int32     ? "integer"
                      : graph.weight_type == WeightType::float32 ? "real"
                                                                 : "pattern";
  std::string header = std::string("%%MatrixMarket matrix coordinate ") + field +
                       (lower_only ? " symmetric\n" : " general\n");
  append_integer(header, n);
  header += ' ';
  append_integer(header, n);
  header += ' ';
  append_integer(header, entries);
  header += '\n';
  file.write(header);
  write_blocks(file, graph, [&](std::string& out, uint64_t lo, uint64_t hi) {
    for (uint64_t u = lo; u < hi; ++u)
      for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
        const VertexId v = graph.out_targets[e];
        if (lower_only && v > u) continue;
        append_integer(out, u + 1);
        out += ' ';
        append_integer(out, uint64_t(v) + 1);
        if (graph.has_weights()) {
          out += ' ';
          append_weight(out, graph.out_weights[e], graph.weight_type);
        }
        out += '\n';
      }
  });
}

// Edge lists: "u v [w]" per edge, separated by `separator`.
void write_edge_list(OutputFile& file, const CsrGraph& graph, char separator, bool csv_header) {
  std::string header = "# Nodes: ";
  append_integer(header, graph.num_vertices());
  header += " Edges: ";
  append_integer(header, graph.num_edges());
  header += '\n';
  if (csv_header) header += graph.has_weights() ? "source,target,weight\n" : "source,target\n";
  file.write(header);
  write_blocks(file, graph, [&](std::string& out, uint64_t lo, uint64_t hi) {
    for (uint64_t u = lo; u < hi; ++u)
      for (uint64_t e = graph.out_offsets[u]; e < graph.out_offsets[u + 1]; ++e) {
        append_integer(out, u);
        out += separator;
        append_integer(out, graph.out_targets[e]);
        if (graph.has_weights()) {
          out += separator;
          append_weight(out, graph.out_weights[e], graph.weight_type);
        }
        out += '\n';
      }
  });
}

}  // namespace

const char* to_string(OutputFormat format) {
  switch (format) {
    case OutputFormat::irgl_binary: return "csr";
    case OutputFormat::matrix_market: return "mtx";
    case OutputFormat::edge_list: return "edgelist";
    case OutputFormat::tsv: return "tsv";
    case OutputFormat::csv: return "csv";
  }
  return "?";
}

OutputFormat parse_output_format(const std::string& name, const std::string& option) {
  for (OutputFormat format : kOutputFormats)
    if (name == to_string(format)) return format;
  throw InputError::in(option, "unknown output format '" + name +
                                   "' (expected csr, mtx, edgelist, tsv or csv)");
}

std::optional<OutputFormat> output_format_of(const std::string& path) {
  const std::string extension = extension_of(path);
  if (extension == ".csr") return OutputFormat::irgl_binary;
  if (extension == ".mtx") return OutputFormat::matrix_market;
  for (const char* name : {".el", ".txt", ".edges", ".wel"})
    if (extension == name) return OutputFormat::edge_list;
  if (extension == ".tsv") return OutputFormat::tsv;
  if (extension == ".csv") return OutputFormat::csv;
  return std::nullopt;
}

OutputFormat choose_output_format(const std::string& path, bool path_is_stream,
                                  std::optional<OutputFormat> requested) {
  if (ends_with(path, ".gz") || ends_with(path, ".xz"))
    throw InputError::in(path, "compressed output is not supported (write to '-' with "
                               "--output-format and pipe it through gzip or xz)");
  if (requested) return *requested;
  if (const auto format = output_format_of(path)) return *format;
  if (path_is_stream) return OutputFormat::irgl_binary;
  const std::string extension = extension_of(path);
  throw InputError::in(
      path, (extension.empty() ? std::string("no extension")
                               : "unknown extension '" + extension + "'") +
                ": cannot tell the output format (expected " + kKnownExtensions +
                ", or --output-format csr|mtx|edgelist|tsv|csv)");
}

void write_graph(const std::string& path, const CsrGraph& graph, OutputFormat format,
                 bool overwrite, bool show_progress) {
  const progress::Report report(path, show_progress);
  if (format == OutputFormat::irgl_binary) {
    write_irgl_binary(path, graph, overwrite);
    return;
  }
  OutputFile file(path, overwrite);
  const progress::Phase phase(std::string("writing ") + to_string(format), graph.num_edges());
  switch (format) {
    case OutputFormat::matrix_market: write_matrix_market(file, graph); break;
    case OutputFormat::edge_list: write_edge_list(file, graph, ' ', false); break;
    case OutputFormat::tsv: write_edge_list(file, graph, '\t', false); break;
    case OutputFormat::csv: write_edge_list(file, graph, ',', true); break;
    case OutputFormat::irgl_binary: break;
  }
  file.commit();
}

void write_original_ids(OutputFile& file, const CsrGraph& graph) {
  std::string text;
  for (uint64_t v = 0; v < graph.num_vertices(); ++v) {
    append_integer(text, graph.original_id(static_cast<VertexId>(v)));
    text += '\n';
    if (text.size() >= (uint64_t(1) << 20)) {
      file.write(text);
      text.clear();
    }
  }
  file.write(text);
}

void write_original_ids(const std::string& path, const CsrGraph& graph, bool overwrite) {
  OutputFile file(path, overwrite);
  write_original_ids(file, graph);
  file.commit();
}

}  // namespace irgl
