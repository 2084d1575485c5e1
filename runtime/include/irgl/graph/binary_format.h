// Our binary CSR format (".csr"), used to store graphs and as the load cache.
//
// Layout (little-endian), version 1:
//   offset  0  char[8]   magic "IRGLCSR\0"
//   offset  8  uint32    format version (1)
//   offset 12  uint32    flags: bit 0 weighted, bit 1 has transpose,
//                        bit 2 symmetric, bit 3 sorted, bit 4 original ids
//   offset 16  uint32    weight type (0 none, 1 int32, 2 float32)
//   offset 20  uint32    reserved (0)
//   offset 24  uint64    number of vertices n
//   offset 32  uint64    number of edges m
//   offset 40  uint64    checksum of everything after the 64-byte header
//   offset 48  uint64    header checksum (of bytes 0..47)
//   offset 56  uint64    origin: 0, except in load-cache entries, where it
//                        identifies the entry (see read_cached_graph)
//   offset 64  uint64[n+1] out offsets, uint32[m] targets, [uint32[m] weights],
//              then, with a transpose, uint64[n+1] in offsets, uint32[m]
//              sources, [uint32[m] weights], then, with original ids (a
//              renumbered graph, CsrGraph::original_ids), uint32[n] original
//              ids, strictly increasing; each array starts 8-byte aligned.
//              (Readers from before bit 4 reject such files: unknown flag.)
// Checksums are XXH64: the header's over bytes 0..47; the payload's is the
// XXH64 of the XXH64s of its 4 MiB chunks (little-endian u64s), seeded with
// the payload length, so it is computed in parallel.
// Readers check the magic, version, sizes against the file length, both
// checksums, the CSR invariants and that float weights are finite, and report problems as "file: byte N: ...".
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "irgl/graph/csr_graph.h"
#include "irgl/graph/edge_list.h"
#include "irgl/graph/graph_arrays.h"
#include "irgl/graph/load.h"

namespace irgl {

inline constexpr char kIrglBinaryMagic[8] = {'I', 'R', 'G', 'L', 'C', 'S', 'R', '\0'};
inline constexpr uint32_t kIrglBinaryVersion = 1;

// Writes `graph` to `path` (OutputFile: a regular file through a temporary
// renamed into place, so a failed or interrupted write never leaves a partial
// file at `path`; "-", a pipe or a device written front to back). An existing
// file is replaced only with `overwrite`.
void write_irgl_binary(const std::string& path, const CsrGraph& graph, bool overwrite,
                       uint64_t origin = 0);

// Reads and validates a binary CSR file; throws InputError on any problem.
// `origin`, when given, receives the header's origin field.
CsrGraph read_irgl_binary(const std::string& path, uint64_t* origin = nullptr);

// A binary CSR file mapped read-only and checked as read_irgl_binary()
// checks it, for readers that take a share of a graph (a multi-GPU part)
// without copying the rest into their memory: the pages stay in the page
// cache, shared by every process that maps the file. The file must not
// change while mapped.
class MappedCsrFile {
 public:
  // InputError as read_irgl_binary() for a missing or bad file.
  explicit MappedCsrFile(const std::string& path);
  ~MappedCsrFile();
  MappedCsrFile(const MappedCsrFile&) = delete;
  MappedCsrFile& operator=(const MappedCsrFile&) = delete;

  // Valid while this object lives.
  const GraphArrays& arrays() const { return arrays_; }
  uint64_t origin() const { return origin_; }

 private:
  void unmap();

  void* map_ = nullptr;
  uint64_t bytes_ = 0;
  GraphArrays arrays_;
  uint64_t origin_ = 0;
};

// The cache file for `source` loaded with `options` in `cache_dir`: its name
// encodes the source (for files: absolute path, size, modification and
// status-change times, device and inode; for generator specs: the spec), the
// format it is read as and the build options. Creates `cache_dir` if needed.
std::string cache_path_for(const std::string& source, GraphFormat format,
                           const BuildOptions& options, const std::string& cache_dir);

// The cached graph, or nothing when the file is absent; a damaged cache file,
// or one whose origin field does not name this entry (a .csr copied over it,
// an entry renamed), is reported as a warning on stderr, removed, and
// treated as absent.
std::optional<CsrGraph> read_cached_graph(const std::string& cache_path);

// The cached graph mapped (MappedCsrFile), or null when the file is
// absent, damaged or not the entry its name says: then a warning on stderr
// and the file stays, since other processes may map it at the same moment
// (a whole load replaces it).
std::unique_ptr<MappedCsrFile> map_cached_graph(const std::string& cache_path);

// Stores a graph in the cache; failures (full disk, no permission) are
// warnings on stderr, never errors.
void write_cached_graph(const std::string& cache_path, const CsrGraph& graph);

}  // namespace irgl
