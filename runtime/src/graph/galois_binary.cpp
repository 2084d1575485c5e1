// Galois binary graphs (.gr), version 1. Little-endian:
//
//   offset  0  uint64  version (1)
//   offset  8  uint64  edge data size: 0 (unweighted) or 4 (int32 weights)
//   offset 16  uint64  number of nodes n
//   offset 24  uint64  number of edges m
//   offset 32  uint64  out_index[n]: the END of each node's edges
//              uint32  destinations[m]
//              uint32  padding when m is odd (always present with edge data)
//              uint32  edge data[m] (when the edge data size is 4)
//
// Uncompressed regular files are read straight into the edge arrays with a
// few large reads; compressed files and pipes are read into memory first.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "formats.h"
#include "load_progress.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"
#include "text_input.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the Galois reader copies little-endian arrays as they are");

namespace irgl {

namespace {

constexpr uint64_t kHeaderBytes = 32;

// The bytes of the file, read front to back.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t size() const = 0;
  // Reads the next `bytes` bytes (fewer only at the end).
  virtual uint64_t read(void* buffer, uint64_t bytes) = 0;
};

class FileSource final : public ByteSource {
 public:
  FileSource(const std::string& path, bool show_progress)
      : file_(path), show_progress_(show_progress) {
    if (show_progress) phase_.emplace("reading", file_.size());
  }
  uint64_t size() const override { return file_.size(); }
  uint64_t read(void* buffer, uint64_t bytes) override {
    return file_.read(buffer, bytes, show_progress_);
  }

 private:
  InputFile file_;
  bool show_progress_;
  std::optional<progress::Phase> phase_;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }
  uint64_t read(void* buffer, uint64_t bytes) override {
    const uint64_t count = std::min<uint64_t>(bytes, bytes_.size() - position_);
    std::memcpy(buffer, bytes_.data() + position_, count);
    position_ += count;
    return count;
  }

 private:
  std::string bytes_;
  uint64_t position_ = 0;
};

std::unique_ptr<ByteSource> open_source(const std::string& path, bool show_progress) {
  {
    InputFile probe(path);
    char head[kMagicBytes];
    const uint64_t got = probe.read(head, sizeof head);
    if (probe.is_regular() && detect_compression(std::string_view(head, got)) == Compression::none)
      return std::make_unique<FileSource>(path, show_progress);
  }
  return std::make_unique<MemorySource>(read_text_input(path, show_progress).data);
}

struct Header {
  uint64_t version;
  uint64_t edge_data_size;
  uint64_t nodes;
  uint64_t edges;
};

// Where the arrays lie, from a validated header.
struct Layout {
  uint64_t destinations;  // offset of the destinations
  uint64_t padding;       // bytes between the destinations and the edge data
};

std::string to_string(unsigned __int128 value) {
  std::string digits;
  do {
    digits.insert(digits.begin(), char('0' + unsigned(value % 10)));
    value /= 10;
  } while (value != 0);
  return digits;
}

class GaloisReader {
 public:
  GaloisReader(const std::string& path, bool show_progress)
      : path_(path), source_(open_source(path, show_progress)) {}

  EdgeList read() {
    const Header header = read_header();
    const Layout layout = check_layout(header);
    EdgeList edges;
    edges.name = path_;
    edges.num_vertices = header.nodes;
    const std::vector<uint64_t> ends = read_index(header);
    edges.targets.resize(header.edges);
    read_exactly(edges.targets.data(), header.edges * sizeof(VertexId));
    check_destinations(edges.targets, header, layout);
    if (header.edge_data_size == 4) {
      uint32_t padding;
      read_exactly(&padding, layout.padding);
      edges.weights.resize(header.edges);
      read_exactly(edges.weights.data(), header.edges * sizeof(uint32_t));
      edges.weight_type = WeightType::int32;
    }
    edges.sources = expand_sources(ends, header.edges);
    return edges;
  }

 private:
  [[noreturn]] void fail(uint64_t offset, const std::string& problem) const {
    throw InputError::at_byte(path_, offset, problem);
  }

  void read_exactly(void* buffer, uint64_t bytes) {
    // Sizes were checked against the file length, so a short read means the
    // file changed while we read it.
    if (source_->read(buffer, bytes) != bytes)
      fail(source_->size(), "truncated: the file shrank while being read");
  }

  Header read_header() {
    unsigned char bytes[kHeaderBytes];
    const uint64_t got = source_->read(bytes, kHeaderBytes);
    if (got < kHeaderBytes) fail(got, "truncated: the file ends inside the 32-byte header");
    Header header;
    std::memcpy(&header, bytes, sizeof header);
    if (header.version == 2) fail(0, "Galois .gr version 2 (64-bit ids) is not supported");
    if (header.version != 1)
      fail(0, "unknown Galois .gr version " + std::to_string(header.version) + " (expected 1)");
    if (header.edge_data_size != 0 && header.edge_data_size != 4)
      fail(8, "edge data size " + std::to_string(header.edge_data_size) +
                  " is not supported (expected 0 or 4 bytes per edge)");
    if (header.nodes > kMaxVertices)
      fail(16, std::to_string(header.nodes) + " nodes, more than the " +
                   std::to_string(kMaxVertices) + " vertices a graph may have");
    if (header.nodes == 0 && header.edges != 0)
      fail(24, "the header promises " + std::to_string(header.edges) + " edges but no nodes");
    return header;
  }

  // Checks the file length against the header. Files without edge data may
  // omit the padding after an odd number of destinations.
  Layout check_layout(const Header& header) const {
    using u128 = unsigned __int128;
    Layout layout;
    layout.destinations = kHeaderBytes + 8 * header.nodes;
    const u128 destinations_end = u128(layout.destinations) + u128(4) * header.edges;
    layout.padding = header.edges % 2 == 1 ? 4 : 0;
    const u128 data_end =
        destinations_end + layout.padding + u128(header.edge_data_size) * header.edges;
    const uint64_t size = source_->size();
    const bool unpadded_ok = header.edge_data_size == 0 && size == destinations_end;
    if (size < destinations_end || (size < data_end && !unpadded_ok))
      fail(size, "truncated: the header promises " + std::to_string(header.nodes) + " nodes and " +
                     std::to_string(header.edges) + " edges (" + to_string(data_end) +
                     " bytes), the file has " + std::to_string(size));
    if (size > data_end)
      fail(static_cast<uint64_t>(data_end),
           "unexpected data after the end of the graph (the file has " + std::to_string(size) +
               " bytes, the header promises " + to_string(data_end) + ")");
    return layout;
  }

  // The first i in [0, n) with bad(i), or n; in parallel.
  template <class Predicate>
  static uint64_t first_where(uint64_t n, Predicate&& bad) {
    std::vector<uint64_t> firsts(parallel_chunk_count(0, n), n);
    parallel_chunks(0, n, [&](uint64_t lo, uint64_t hi, unsigned worker) {
      for (uint64_t i = lo; i < hi; ++i)
        if (bad(i)) {
          firsts[worker] = i;
          return;
        }
    });
    return *std::min_element(firsts.begin(), firsts.end());
  }

  std::vector<uint64_t> read_index(const Header& header) {
    std::vector<uint64_t> ends(header.nodes);
    read_exactly(ends.data(), header.nodes * sizeof(uint64_t));
    const uint64_t decrease =
        first_where(header.nodes, [&](uint64_t v) { return v > 0 && ends[v] < ends[v - 1]; });
    if (decrease < header.nodes)
      fail(kHeaderBytes + 8 * decrease,
           "edge index " + std::to_string(ends[decrease]) + " of node " + std::to_string(decrease) +
               " is below the previous one (" + std::to_string(ends[decrease - 1]) + ")");
    if (header.nodes > 0 && ends.back() != header.edges)
      fail(kHeaderBytes + 8 * (header.nodes - 1),
           "the last edge index is " + std::to_string(ends.back()) + ", but the header promises " +
               std::to_string(header.edges) + " edges");
    return ends;
  }

  void check_destinations(const std::vector<VertexId>& targets, const Header& header,
                          const Layout& layout) const {
    const uint64_t bad =
        first_where(targets.size(), [&](uint64_t e) { return targets[e] >= header.nodes; });
    if (bad < targets.size())
      fail(layout.destinations + 4 * bad,
           "destination " + std::to_string(targets[bad]) + " of edge " + std::to_string(bad) +
               " out of range 0.." + std::to_string(header.nodes - 1));
  }

  // sources[e] = the node whose edges include e; in parallel over edges.
  static std::vector<VertexId> expand_sources(const std::vector<uint64_t>& ends, uint64_t edges) {
    std::vector<VertexId> sources(edges);
    parallel_chunks(0, edges, [&](uint64_t lo, uint64_t hi, unsigned) {
      uint64_t node = std::upper_bound(ends.begin(), ends.end(), lo) - ends.begin();
      for (uint64_t e = lo; e < hi; ++e) {
        while (ends[node] <= e) ++node;
        sources[e] = static_cast<VertexId>(node);
      }
    });
    return sources;
  }

  std::string path_;
  std::unique_ptr<ByteSource> source_;
};

}  // namespace

EdgeList read_galois_binary(const std::string& path, bool show_progress) {
  return GaloisReader(path, show_progress).read();
}

}  // namespace irgl
