// Reading and writing our binary CSR format; the layout is in binary_format.h.
//
// Checksums are XXH64 (see hashing.h). The header checksum is XXH64 of bytes
// 0..47, seed 0. The payload checksum covers every byte after the 64-byte
// header, padding included: the payload is cut into 4 MiB chunks (the last
// one may be shorter), chunk i hashes to d[i] = XXH64(chunk i, seed 0), and the
// checksum is XXH64 of d[0], d[1], ... stored as little-endian uint64s, seeded
// with the payload length in bytes. Chunks hash in parallel; the value does not
// depend on the number of threads.
//
// Beyond the checksums, the reader checks the CSR invariants itself, in
// parallel, to name the byte of the first violation: offsets start at 0, never
// decrease and end at m; ids are below n; lists are sorted when the sorted
// flag says so; a transpose holds exactly the reversed out-edges, and the
// symmetric flag is true (both compared as edge multisets through an
// order-independent hash, in O(m) time and no extra memory).
//
// Arrays move with one positioned read or write per thread, straight between
// the file and the graph's vectors.
#include "irgl/graph/binary_format.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "edge_parallel.h"
#include "hashing.h"
#include "load_progress.h"
#include "irgl/support/output_file.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the binary CSR format is little-endian and read with plain loads");

namespace irgl {
namespace {

using hashing::Xxh64;

constexpr uint64_t kHeaderBytes = 64;
constexpr uint64_t kChecksumChunkBytes = uint64_t(1) << 22;
// Keeps every size computed from the header far below 2^64.
constexpr uint64_t kMaxEdges = uint64_t(1) << 60;

constexpr uint32_t kFlagWeighted = 1u << 0;
constexpr uint32_t kFlagTranspose = 1u << 1;
constexpr uint32_t kFlagSymmetric = 1u << 2;
constexpr uint32_t kFlagSorted = 1u << 3;
constexpr uint32_t kFlagOriginalIds = 1u << 4;
constexpr uint32_t kKnownFlags =
    kFlagWeighted | kFlagTranspose | kFlagSymmetric | kFlagSorted | kFlagOriginalIds;

// Byte offsets of the header fields.
enum : uint64_t {
  kVersionAt = 8,
  kFlagsAt = 12,
  kWeightTypeAt = 16,
  kReserved1At = 20,
  kVerticesAt = 24,
  kEdgesAt = 32,
  kChecksumAt = 40,
  kHeaderChecksumAt = 48,
  kOriginAt = 56,
};

using HeaderBytes = std::array<unsigned char, kHeaderBytes>;

template <class T>
T load(const unsigned char* bytes, uint64_t at) {
  T value;
  std::memcpy(&value, bytes + at, sizeof value);
  return value;
}
template <class T>
void store(unsigned char* bytes, uint64_t at, T value) {
  std::memcpy(bytes + at, &value, sizeof value);
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016" PRIx64, value);
  return text;
}

// ---------------------------------------------------------------------------
// Layout

enum class Array : uint8_t {
  out_offsets,
  out_targets,
  out_weights,
  in_offsets,
  in_sources,
  in_weights,
  original_ids
};

const char* name_of(Array array) {
  switch (array) {
    case Array::out_offsets:
      return "out-edge offsets";
    case Array::out_targets:
      return "out-edge targets";
    case Array::out_weights:
      return "out-edge weights";
    case Array::in_offsets:
      return "in-edge offsets";
    case Array::in_sources:
      return "in-edge sources";
    case Array::in_weights:
      return "in-edge weights";
    case Array::original_ids:
      return "original vertex ids";
  }
  return "?";
}

// One array of the payload and the zero padding after it.
struct Section {
  Array array;
  uint64_t offset;  // in the file; a multiple of 8
  uint64_t bytes;   // of data, without the padding
  const unsigned char* data = nullptr;
  unsigned char padding[8] = {};  // as in the file (zeros when writing)

  uint64_t data_end() const { return offset + bytes; }
  uint64_t end() const { return (data_end() + 7) & ~uint64_t(7); }
};

struct Shape {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  bool weighted = false;
  bool transpose = false;
  bool original_ids = false;
};

std::vector<Section> layout(const Shape& shape) {
  std::vector<Section> sections;
  uint64_t at = kHeaderBytes;
  auto add = [&](Array array, uint64_t bytes) {
    sections.push_back({array, at, bytes});
    at = sections.back().end();
  };
  const uint64_t offsets_bytes = 8 * (shape.vertices + 1);
  const uint64_t ids_bytes = 4 * shape.edges;
  add(Array::out_offsets, offsets_bytes);
  add(Array::out_targets, ids_bytes);
  if (shape.weighted) add(Array::out_weights, ids_bytes);
  if (shape.transpose) {
    add(Array::in_offsets, offsets_bytes);
    add(Array::in_sources, ids_bytes);
    if (shape.weighted) add(Array::in_weights, ids_bytes);
  }
  if (shape.original_ids) add(Array::original_ids, 4 * shape.vertices);
  return sections;
}

// The graph vector a section holds (const when the graph is).
template <class Graph>
auto section_data(Graph& graph, Array array)
    -> std::conditional_t<std::is_const_v<Graph>, const void*, void*> {
  switch (array) {
    case Array::out_offsets:
      return graph.out_offsets.data();
    case Array::out_targets:
      return graph.out_targets.data();
    case Array::out_weights:
      return graph.out_weights.data();
    case Array::in_offsets:
      return graph.in_offsets.data();
    case Array::in_sources:
      return graph.in_sources.data();
    case Array::in_weights:
      return graph.in_weights.data();
    case Array::original_ids:
      return graph.original_ids.data();
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Checksums

uint64_t header_checksum(const unsigned char* header) {
  return Xxh64::of(header, kHeaderChecksumAt);
}

// Feeds file bytes [lo, hi) of the payload (data and padding) to `hash`.
void hash_file_range(Xxh64& hash, const std::vector<Section>& sections, uint64_t lo, uint64_t hi) {
  auto section = std::upper_bound(sections.begin(), sections.end(), lo,
                                  [](uint64_t at, const Section& s) { return at < s.end(); });
  for (; section != sections.end() && section->offset < hi; ++section) {
    const uint64_t data_lo = std::max(lo, section->offset);
    const uint64_t data_hi = std::min(hi, section->data_end());
    if (data_lo < data_hi)
      hash.update(section->data + (data_lo - section->offset), data_hi - data_lo);
    const uint64_t pad_lo = std::max(lo, section->data_end());
    const uint64_t pad_hi = std::min(hi, section->end());
    if (pad_lo < pad_hi)
      hash.update(section->padding + (pad_lo - section->data_end()), pad_hi - pad_lo);
  }
}

uint64_t payload_checksum(const std::vector<Section>& sections) {
  const uint64_t length = sections.back().end() - kHeaderBytes;
  const uint64_t chunks = (length + kChecksumChunkBytes - 1) / kChecksumChunkBytes;
  std::vector<uint64_t> digests(chunks);
  // Split by bytes (for parallelism), then hash each fixed chunk in the
  // worker whose range holds its first byte.
  parallel_chunks(0, length, [&](uint64_t lo, uint64_t hi, unsigned) {
    for (uint64_t c = (lo + kChecksumChunkBytes - 1) / kChecksumChunkBytes;
         c * kChecksumChunkBytes < hi; ++c) {
      Xxh64 hash;
      const uint64_t chunk_lo = c * kChecksumChunkBytes;
      const uint64_t chunk_hi = std::min(length, chunk_lo + kChecksumChunkBytes);
      hash_file_range(hash, sections, kHeaderBytes + chunk_lo, kHeaderBytes + chunk_hi);
      digests[c] = hash.digest();
      progress::advance(chunk_hi - chunk_lo);
    }
  });
  return Xxh64::of(digests.data(), digests.size() * sizeof(uint64_t), length);
}

// One direction's arrays with their lengths (a graph's vectors or a mapped
// file's sections).
struct Lists {
  ArrayView<uint64_t> offsets;
  ArrayView<VertexId> neighbors;
  ArrayView<uint32_t> weights;  // empty when unweighted
};

Lists lists_of(const Adjacency& adjacency, uint64_t vertices, uint64_t edges) {
  return {{adjacency.offsets, vertices + 1},
          {adjacency.neighbors, edges},
          {adjacency.weight_words, adjacency.weight_words ? edges : 0}};
}

// Order-independent hash of the multiset of edges (u, v, weight word) that an
// adjacency holds: (v, neighbor) pairs, or (neighbor, v) when `reversed`.
// Compares edge sets (transpose, symmetry) in O(m) time without extra memory.
uint64_t edge_multiset_hash(const Lists& lists, bool reversed) {
  std::vector<uint64_t> sums(parallel_chunk_count(0, lists.offsets.back()), 0);
  parallel_for_edges(lists.offsets, [&](uint64_t v, uint64_t e, unsigned worker) {
    const uint64_t a = reversed ? lists.neighbors[e] : v;
    const uint64_t b = reversed ? v : lists.neighbors[e];
    const uint64_t w = lists.weights.empty() ? 0 : lists.weights[e];
    sums[worker] += hashing::mix64((a << 32 | b) * hashing::kGolden + hashing::mix64(w));
  });
  uint64_t total = 0;
  for (uint64_t sum : sums) total += sum;
  return total;
}

// ---------------------------------------------------------------------------
// Files

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

// A status from transfer(): 0, an errno value, or kEndOfFile when a read ran
// past the end of the file.
constexpr int kEndOfFile = -1;

// Reads or writes `bytes` at file offset `offset` with positioned I/O, in
// steps of at most 64 MiB that advance the current progress phase.
int transfer_serial(int fd, unsigned char* buffer, uint64_t bytes, uint64_t offset, bool writing) {
  while (bytes > 0) {
    const size_t step = static_cast<size_t>(std::min<uint64_t>(bytes, uint64_t(64) << 20));
    const ssize_t done = writing ? ::pwrite(fd, buffer, step, static_cast<off_t>(offset))
                                 : ::pread(fd, buffer, step, static_cast<off_t>(offset));
    if (done < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (done == 0) return writing ? EIO : kEndOfFile;
    progress::advance(static_cast<uint64_t>(done));
    buffer += done;
    bytes -= static_cast<uint64_t>(done);
    offset += static_cast<uint64_t>(done);
  }
  return 0;
}

// transfer_serial() split across the worker threads.
int transfer(int fd, unsigned char* buffer, uint64_t bytes, uint64_t offset, bool writing) {
  std::atomic<int> status{0};
  parallel_chunks(0, bytes, [&](uint64_t lo, uint64_t hi, unsigned) {
    const int result = transfer_serial(fd, buffer + lo, hi - lo, offset + lo, writing);
    if (result != 0) status.store(result);
  });
  return status.load();
}

std::string describe_read_failure(int status) {
  return status == kEndOfFile ? "the file ended early (did it change while being read?)"
                              : std::string("read error: ") + std::strerror(status);
}

// ---------------------------------------------------------------------------
// Reading: header checks, then sizes, then data, then structure.

[[noreturn]] void fail_at(const std::string& path, uint64_t byte, const std::string& problem) {
  throw InputError::at_byte(path, byte, problem);
}

// Checks the header fields and returns the shape they describe.
Shape check_header(const std::string& path, const unsigned char* header, uint64_t file_size) {
  const uint64_t available = std::min(file_size, kHeaderBytes);
  if (std::memcmp(header, kIrglBinaryMagic, std::min<uint64_t>(available, 8)) != 0)
    fail_at(path, 0, "not an irgl binary CSR file (bad magic bytes)");
  if (file_size < kHeaderBytes)
    fail_at(path, file_size,
            "truncated: the file has " + std::to_string(file_size) +
                " bytes, less than the 64-byte header");
  const auto version = load<uint32_t>(header, kVersionAt);
  if (version != kIrglBinaryVersion)
    fail_at(path, kVersionAt,
            "unsupported format version " + std::to_string(version) +
                " (this reader reads version " + std::to_string(kIrglBinaryVersion) + ")");
  const auto stored = load<uint64_t>(header, kHeaderChecksumAt);
  const uint64_t computed = header_checksum(header);
  if (stored != computed)
    fail_at(path, kHeaderChecksumAt,
            "header checksum mismatch (stored " + hex(stored) + ", computed " + hex(computed) +
                "): the header is damaged");
  const auto flags = load<uint32_t>(header, kFlagsAt);
  if (flags & ~kKnownFlags)
    fail_at(path, kFlagsAt, "unknown flag bits " + hex(flags & ~kKnownFlags) + " are set");
  const auto weight_type = load<uint32_t>(header, kWeightTypeAt);
  if (weight_type > uint32_t(WeightType::float32))
    fail_at(path, kWeightTypeAt,
            "unknown weight type " + std::to_string(weight_type) +
                " (expected 0 none, 1 int32 or 2 float32)");
  const bool weighted = flags & kFlagWeighted;
  if (weighted != (weight_type != 0))
    fail_at(path, kWeightTypeAt,
            std::string("weight type ") + to_string(WeightType(weight_type)) +
                " contradicts the weighted flag, which is " + (weighted ? "set" : "clear"));
  auto check_reserved = [&](uint64_t at, uint64_t value) {
    if (value != 0) fail_at(path, at, "reserved field is " + std::to_string(value) + ", not 0");
  };
  check_reserved(kReserved1At, load<uint32_t>(header, kReserved1At));
  Shape shape;
  shape.vertices = load<uint64_t>(header, kVerticesAt);
  shape.edges = load<uint64_t>(header, kEdgesAt);
  shape.weighted = weighted;
  shape.transpose = flags & kFlagTranspose;
  shape.original_ids = flags & kFlagOriginalIds;
  if (shape.vertices > kMaxVertices)
    fail_at(path, kVerticesAt,
            "vertex count " + std::to_string(shape.vertices) + " exceeds the limit of 2^32-1");
  if (shape.edges > kMaxEdges)
    fail_at(path, kEdgesAt, "edge count " + std::to_string(shape.edges) + " is impossibly large");
  return shape;
}

void check_file_size(const std::string& path, const Shape& shape,
                     const std::vector<Section>& sections, uint64_t file_size) {
  const uint64_t expected = sections.back().end();
  const std::string promise = "the header promises " + std::to_string(shape.vertices) +
                              " vertices and " + std::to_string(shape.edges) +
                              " edges: " + std::to_string(expected) + " bytes";
  if (file_size < expected) {
    const auto section =
        std::upper_bound(sections.begin(), sections.end(), file_size,
                         [](uint64_t at, const Section& s) { return at < s.end(); });
    fail_at(path, file_size,
            std::string("truncated: the file ends in the ") + name_of(section->array) + " (" +
                promise + ", the file has " + std::to_string(file_size) + ")");
  }
  if (file_size > expected)
    fail_at(path, expected,
            "trailing data: " + promise + ", the file has " + std::to_string(file_size));
}

// Reads each section (and its padding) straight into its graph vector.
void read_sections(const std::string& path, int fd, std::vector<Section>& sections,
                   CsrGraph& graph) {
  for (Section& section : sections) {
    auto* data = static_cast<unsigned char*>(section_data(graph, section.array));
    section.data = data;
    int status = transfer(fd, data, section.bytes, section.offset, false);
    if (status != 0) fail_at(path, section.offset, describe_read_failure(status));
    status = transfer_serial(fd, section.padding, section.end() - section.data_end(),
                             section.data_end(), false);
    if (status != 0) fail_at(path, section.data_end(), describe_read_failure(status));
  }
}

// Padding must be zero (a writer bug or a forged file otherwise).
void check_padding(const std::string& path, const std::vector<Section>& sections) {
  for (const Section& section : sections)
    for (uint64_t i = 0; i < section.end() - section.data_end(); ++i)
      if (section.padding[i] != 0)
        fail_at(path, section.data_end() + i,
                std::string("nonzero padding after the ") + name_of(section.array));
}

void allocate(CsrGraph& graph, const Shape& shape) {
  graph.set_num_vertices(shape.vertices);
  graph.out_offsets.resize(shape.vertices + 1);
  graph.out_targets.resize(shape.edges);
  if (shape.weighted) graph.out_weights.resize(shape.edges);
  if (shape.transpose) {
    graph.in_offsets.resize(shape.vertices + 1);
    graph.in_sources.resize(shape.edges);
    if (shape.weighted) graph.in_weights.resize(shape.edges);
  }
  if (shape.original_ids) graph.original_ids.resize(shape.vertices);
}

const Section& find_section(const std::vector<Section>& sections, Array array) {
  return *std::find_if(sections.begin(), sections.end(),
                       [array](const Section& s) { return s.array == array; });
}

// Checks one direction's CSR invariants, naming the byte of the first
// violation: offsets from 0 to m without decreasing, neighbor ids below n, and
// with `sorted`, every list in increasing order.
void check_adjacency(const std::string& path, const Section& offsets_section,
                     const Section& neighbors_section, const Lists& lists, bool sorted) {
  const ArrayView<uint64_t>& offsets = lists.offsets;
  const ArrayView<VertexId>& neighbors = lists.neighbors;
  const uint64_t n = offsets.size() - 1;
  const uint64_t m = neighbors.size();
  const char* offsets_name = name_of(offsets_section.array);
  const char* neighbors_name = name_of(neighbors_section.array);
  if (offsets[0] != 0)
    fail_at(path, offsets_section.offset,
            std::string(offsets_name) + " start at " + std::to_string(offsets[0]) + ", not 0");
  const uint64_t v = find_first(0, n, [&](uint64_t i) { return offsets[i + 1] < offsets[i]; });
  if (v < n)
    fail_at(path, offsets_section.offset + 8 * (v + 1),
            std::string(offsets_name) + " decrease at vertex " + std::to_string(v) + " (" +
                std::to_string(offsets[v + 1]) + " after " + std::to_string(offsets[v]) + ")");
  if (offsets[n] != m)
    fail_at(path, offsets_section.offset + 8 * n,
            std::string("the last of the ") + offsets_name + " is " + std::to_string(offsets[n]) +
                ", not the edge count " + std::to_string(m));
  const uint64_t e = find_first(0, m, [&](uint64_t i) { return neighbors[i] >= n; });
  if (e < m)
    fail_at(path, neighbors_section.offset + 4 * e,
            "vertex id " + std::to_string(neighbors[e]) + " in the " + neighbors_name +
                " is out of range (the graph has " + std::to_string(n) + " vertices)");
  if (!sorted) return;
  const uint64_t unsorted = find_first_edge(offsets, [&](uint64_t v, uint64_t e) {
    return e > offsets[v] && neighbors[e] < neighbors[e - 1];
  });
  if (unsorted < m)
    fail_at(path, neighbors_section.offset + 4 * unsorted,
            "the list of vertex " + std::to_string(vertex_of_edge(offsets, unsorted)) + " in the " +
                neighbors_name + " is not sorted, but the sorted flag is set");
}

// Float weights must be numbers, as every text reader requires: a NaN or an
// infinity makes every sum and comparison of a program meaningless.
void check_finite(const std::string& path, const Section& section,
                  const ArrayView<uint32_t>& weights) {
  const uint64_t e = find_first(0, weights.size(), [&](uint64_t i) {
    float value;
    std::memcpy(&value, &weights[i], sizeof value);
    return !std::isfinite(value);
  });
  if (e == weights.size()) return;
  float value;
  std::memcpy(&value, &weights[e], sizeof value);
  fail_at(path, section.offset + 4 * e,
          std::string("weight ") + std::to_string(value) + " of edge " + std::to_string(e) +
              " in the " + name_of(section.array) + " is not a finite number");
}

// Everything CsrGraph::validate() checks (which works serially and names no
// byte), then what the flags promise.
void check_structure(const std::string& path, const GraphArrays& graph,
                     const ArrayView<VertexId>& original_ids,
                     const std::vector<Section>& sections) {
  const Lists out = lists_of(graph.out, graph.vertices, graph.edges);
  const Lists in = graph.has_transpose() ? lists_of(graph.in, graph.vertices, graph.edges) : Lists{};
  if (graph.weight_type == WeightType::float32) {
    check_finite(path, find_section(sections, Array::out_weights), out.weights);
    if (graph.has_transpose())
      check_finite(path, find_section(sections, Array::in_weights), in.weights);
  }
  check_adjacency(path, find_section(sections, Array::out_offsets),
                  find_section(sections, Array::out_targets), out, graph.sorted);
  const uint64_t out_hash = edge_multiset_hash(out, false);
  if (graph.has_transpose()) {
    const Section& in_offsets = find_section(sections, Array::in_offsets);
    check_adjacency(path, in_offsets, find_section(sections, Array::in_sources), in, false);
    if (edge_multiset_hash(in, true) != out_hash)
      fail_at(path, in_offsets.offset, "the in-edges are not the transpose of the out-edges");
  }
  if (graph.symmetric && edge_multiset_hash(out, true) != out_hash)
    fail_at(path, kFlagsAt, "the symmetric flag is set, but some edge lacks its reverse");
  if (!original_ids.empty()) {
    const ArrayView<VertexId>& ids = original_ids;
    const uint64_t v = find_first(1, ids.size(), [&](uint64_t i) { return ids[i] <= ids[i - 1]; });
    if (v < ids.size())
      fail_at(path, find_section(sections, Array::original_ids).offset + 4 * v,
              "the original vertex ids do not increase at vertex " + std::to_string(v) + " (" +
                  std::to_string(ids[v]) + " after " + std::to_string(ids[v - 1]) + ")");
  }
}

// Opens `path` for reading; InputError unless it is a file that opens.
int open_for_reading(const std::string& path, uint64_t& file_size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError::in(path, std::string("cannot open: ") + std::strerror(errno));
  FileDescriptor closes_on_error(fd);
  struct stat info;
  if (::fstat(fd, &info) != 0)
    throw InputError::in(path, std::string("cannot open: ") + std::strerror(errno));
  if (S_ISDIR(info.st_mode)) throw InputError::in(path, "is a directory, not a graph file");
  file_size = static_cast<uint64_t>(info.st_size);
  return closes_on_error.release();
}

// What a checked header says and where its sections lie.
struct Contents {
  Shape shape;
  std::vector<Section> sections;
  uint32_t flags = 0;
  WeightType weight_type = WeightType::none;
  uint64_t checksum = 0, origin = 0;
};

Contents check_contents(const std::string& path, const HeaderBytes& header, uint64_t file_size) {
  Contents contents;
  contents.shape = check_header(path, header.data(), file_size);
  contents.sections = layout(contents.shape);
  check_file_size(path, contents.shape, contents.sections, file_size);
  contents.flags = load<uint32_t>(header.data(), kFlagsAt);
  contents.weight_type = static_cast<WeightType>(load<uint32_t>(header.data(), kWeightTypeAt));
  contents.checksum = load<uint64_t>(header.data(), kChecksumAt);
  contents.origin = load<uint64_t>(header.data(), kOriginAt);
  return contents;
}

// The checksum, padding and structure of sections whose data are in place.
void check_payload(const std::string& path, const Contents& contents, const GraphArrays& graph,
                   const ArrayView<VertexId>& original_ids) {
  const uint64_t payload_bytes = contents.sections.back().end() - kHeaderBytes;
  std::optional<progress::Phase> phase;
  phase.emplace("verifying the checksum", payload_bytes);
  const uint64_t computed = payload_checksum(contents.sections);
  if (contents.checksum != computed)
    fail_at(path, kHeaderBytes,
            "checksum mismatch (stored " + hex(contents.checksum) + ", computed " + hex(computed) +
                "): the data after the header is damaged");
  check_padding(path, contents.sections);
  phase.emplace("checking the CSR", 0);
  check_structure(path, graph, original_ids, contents.sections);
}

// The checked arrays of a file mapped at `bytes`.
GraphArrays mapped_arrays(const std::string& path, const unsigned char* bytes, uint64_t file_size,
                          uint64_t& origin) {
  HeaderBytes header{};
  if (file_size > 0) std::memcpy(header.data(), bytes, std::min(file_size, kHeaderBytes));
  Contents contents = check_contents(path, header, file_size);
  for (Section& section : contents.sections) {
    section.data = bytes + section.offset;
    std::memcpy(section.padding, bytes + section.data_end(), section.end() - section.data_end());
  }
  auto data = [&](Array array) {
    return reinterpret_cast<const void*>(find_section(contents.sections, array).data);
  };
  const Shape& shape = contents.shape;
  GraphArrays arrays;
  arrays.name = path;
  arrays.vertices = shape.vertices;
  arrays.edges = shape.edges;
  arrays.weight_type = contents.weight_type;
  arrays.symmetric = contents.flags & kFlagSymmetric;
  arrays.sorted = contents.flags & kFlagSorted;
  arrays.renumbered = shape.original_ids;
  arrays.out = {static_cast<const uint64_t*>(data(Array::out_offsets)),
                 static_cast<const VertexId*>(data(Array::out_targets)),
                 shape.weighted ? static_cast<const uint32_t*>(data(Array::out_weights)) : nullptr};
  if (shape.transpose)
    arrays.in = {static_cast<const uint64_t*>(data(Array::in_offsets)),
                  static_cast<const VertexId*>(data(Array::in_sources)),
                  shape.weighted ? static_cast<const uint32_t*>(data(Array::in_weights)) : nullptr};
  const ArrayView<VertexId> original_ids =
      shape.original_ids
          ? ArrayView<VertexId>(static_cast<const VertexId*>(data(Array::original_ids)),
                                shape.vertices)
          : ArrayView<VertexId>();
  check_payload(path, contents, arrays, original_ids);
  origin = contents.origin;
  return arrays;
}

// The shape of an in-memory graph; throws std::logic_error when its arrays
// disagree (a bug in the caller, not bad input).
Shape shape_of(const CsrGraph& graph) {
  Shape shape{graph.num_vertices(), graph.num_edges(), graph.has_weights(), graph.has_transpose(),
              graph.renumbered()};
  const bool consistent =
      shape.vertices <= kMaxVertices && graph.out_offsets.size() == shape.vertices + 1 &&
      graph.out_weights.size() == (shape.weighted ? shape.edges : 0) &&
      (!shape.transpose ||
       (graph.in_offsets.size() == shape.vertices + 1 && graph.in_sources.size() == shape.edges &&
        graph.in_weights.size() == (shape.weighted ? shape.edges : 0))) &&
      (!shape.original_ids || graph.original_ids.size() == shape.vertices);
  if (!consistent) throw std::logic_error("write_irgl_binary: the graph's arrays are inconsistent");
  return shape;
}

HeaderBytes encode_header(const CsrGraph& graph, const Shape& shape, uint64_t checksum,
                          uint64_t origin) {
  HeaderBytes header{};
  std::memcpy(header.data(), kIrglBinaryMagic, sizeof kIrglBinaryMagic);
  const uint32_t flags = (shape.weighted ? kFlagWeighted : 0) |
                         (shape.transpose ? kFlagTranspose : 0) |
                         (graph.symmetric ? kFlagSymmetric : 0) | (graph.sorted ? kFlagSorted : 0) |
                         (shape.original_ids ? kFlagOriginalIds : 0);
  store<uint32_t>(header.data(), kVersionAt, kIrglBinaryVersion);
  store<uint32_t>(header.data(), kFlagsAt, flags);
  store<uint32_t>(header.data(), kWeightTypeAt, static_cast<uint32_t>(graph.weight_type));
  store<uint64_t>(header.data(), kVerticesAt, shape.vertices);
  store<uint64_t>(header.data(), kEdgesAt, shape.edges);
  store<uint64_t>(header.data(), kChecksumAt, checksum);
  store<uint64_t>(header.data(), kHeaderChecksumAt, header_checksum(header.data()));
  store<uint64_t>(header.data(), kOriginAt, origin);
  return header;
}

// Writes the header, then each section and its padding, front to back: for
// destinations that cannot seek (standard output, a pipe, a device).
void write_in_order(OutputFile& file, const HeaderBytes& header,
                    const std::vector<Section>& sections) {
  static const char kZeros[8] = {};
  constexpr uint64_t kStep = uint64_t(64) << 20;  // progress granularity
  file.write(reinterpret_cast<const char*>(header.data()), kHeaderBytes);
  uint64_t at = kHeaderBytes;
  for (const Section& section : sections) {
    file.write(kZeros, section.offset - at);
    for (uint64_t done = 0; done < section.bytes; done += kStep) {
      const uint64_t step = std::min(kStep, section.bytes - done);
      file.write(reinterpret_cast<const char*>(section.data) + done, step);
      progress::advance(step);
    }
    file.write(kZeros, section.end() - section.data_end());
    at = section.end();
  }
}

}  // namespace

void write_irgl_binary(const std::string& path, const CsrGraph& graph, bool overwrite,
                       uint64_t origin) {
  const Shape shape = shape_of(graph);
  std::vector<Section> sections = layout(shape);
  for (Section& section : sections)
    section.data = static_cast<const unsigned char*>(section_data(graph, section.array));
  uint64_t checksum;
  {
    const progress::Phase phase("computing the checksum", sections.back().end() - kHeaderBytes);
    checksum = payload_checksum(sections);
  }
  const HeaderBytes header = encode_header(graph, shape, checksum, origin);

  OutputFile file(path, overwrite);
  const progress::Phase phase("writing " + path, sections.back().end());
  if (!file.seekable()) {
    write_in_order(file, header, sections);
    file.commit();
    return;
  }
  // Sizing the file first leaves the padding as zeros.
  if (::ftruncate(file.fd(), static_cast<off_t>(sections.back().end())) != 0)
    file.fail("cannot write", errno);
  int status =
      transfer_serial(file.fd(), const_cast<unsigned char*>(header.data()), kHeaderBytes, 0, true);
  for (const Section& section : sections)
    if (status == 0)
      status = transfer(file.fd(), const_cast<unsigned char*>(section.data), section.bytes,
                        section.offset, true);
  if (status != 0) file.fail("cannot write", status);
  file.commit(/*durable=*/true);
}

CsrGraph read_irgl_binary(const std::string& path, uint64_t* origin) {
  uint64_t file_size = 0;
  FileDescriptor file(open_for_reading(path, file_size));
  HeaderBytes header{};
  const int status =
      transfer_serial(file.get(), header.data(), std::min(file_size, kHeaderBytes), 0, false);
  if (status != 0) fail_at(path, 0, describe_read_failure(status));
  Contents contents = check_contents(path, header, file_size);

  CsrGraph graph;
  graph.name = path;
  if (origin) *origin = contents.origin;
  graph.weight_type = contents.weight_type;
  graph.symmetric = contents.flags & kFlagSymmetric;
  graph.sorted = contents.flags & kFlagSorted;
  allocate(graph, contents.shape);
  {
    const progress::Phase phase("reading", file_size);
    read_sections(path, file.get(), contents.sections, graph);
  }
  check_payload(path, contents, arrays_of(graph), graph.original_ids);
  return graph;
}

MappedCsrFile::MappedCsrFile(const std::string& path) {
  uint64_t file_size = 0;
  const FileDescriptor file(open_for_reading(path, file_size));
  if (file_size > 0) {
    void* map = ::mmap(nullptr, file_size, PROT_READ, MAP_SHARED, file.get(), 0);
    if (map == MAP_FAILED)
      throw InputError::in(path, std::string("cannot map: ") + std::strerror(errno));
    map_ = map;
    bytes_ = file_size;
  }
  try {
    arrays_ = mapped_arrays(path, static_cast<const unsigned char*>(map_), file_size, origin_);
  } catch (...) {
    unmap();
    throw;
  }
}

MappedCsrFile::~MappedCsrFile() { unmap(); }

void MappedCsrFile::unmap() {
  if (map_) ::munmap(map_, bytes_);
  map_ = nullptr;
}

}  // namespace irgl
