// Writing result files (format: result_format.h, docs/results.md).
//
// Generated programs call these after copying their results to the host:
//
//   std::vector<uint32_t> level = ...;           // UINT32_MAX = unreachable
//   irgl::write_vertex_result("out.txt", "bfs", level,
//                             {{{"source", "0"}}, /*overwrite=*/force});
//
// Files are written to a temporary file in the same directory and renamed
// into place, so an interrupted or failed write never leaves a partial file at
// `path`. Numbers are formatted in parallel into large buffers (33M values in
// well under a second).
//
// Value conventions:
//   * unsigned integers for bfs and sssp (and for algorithms the format does
//     not know): the type's maximum (UINT32_MAX, UINT64_MAX) means
//     unreachable / infinite and is written as "inf"; for cc, kcore and tc it
//     is written as a number;
//   * float and double are written in the shortest form that reads back to
//     the same float or double ("inf" and "nan" as such);
//   * signed integers are written as they are.
//
// Problems with the file system (directory missing, disk full, `path` exists
// and overwrite is false) throw InputError naming `path`. Calls that break the
// format's rules (a malformed algorithm name or field, a value type that the
// algorithm's format cannot hold, a scalar algorithm written per vertex)
// throw std::invalid_argument: they are bugs in the caller.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "irgl/results/result_format.h"

namespace irgl {

class OutputFile;

struct ResultWriteOptions {
  // Header fields after "algorithm" and "vertices", in this order (e.g.
  // {"source", "0"} for bfs and sssp, {"k", "3"} for kcore).
  std::vector<ResultField> fields;
  // Replace an existing file at the path (tools expose this as --force).
  bool overwrite = false;
};

// Writes one value per vertex: values[i] is vertex i's. T is one of uint32_t,
// uint64_t, int32_t, int64_t, float, double. For the known algorithms the type
// must suit the format: unsigned integers for bfs, sssp and tc; integers for
// cc and kcore (kcore values must be 0 or 1); float or double for pr, spmv and
// vector. Unknown algorithm names (lowercase words) accept any type.
template <class T>
void write_vertex_result(const std::string& path, std::string_view algorithm,
                         const T* values, uint64_t count,
                         const ResultWriteOptions& options = {});

template <class T>
void write_vertex_result(const std::string& path, std::string_view algorithm,
                         const std::vector<T>& values,
                         const ResultWriteOptions& options = {}) {
  write_vertex_result(path, algorithm, values.data(), values.size(), options);
}

// Writes a scalar result (e.g. "tc", the triangle count) for a graph with
// `num_vertices` vertices.
void write_scalar_result(const std::string& path, std::string_view algorithm,
                         uint64_t value, uint64_t num_vertices,
                         const ResultWriteOptions& options = {});
// The same for a signed value (a program's reduction of a signed type).
// A real scalar (a floating-point reduction), in the shortest form that
// reads back to the same double.
void write_real_scalar_result(const std::string& path, std::string_view algorithm, double value,
                              uint64_t num_vertices,
                              const ResultWriteOptions& options = ResultWriteOptions());
void write_signed_scalar_result(const std::string& path, std::string_view algorithm,
                                int64_t value, uint64_t num_vertices,
                                const ResultWriteOptions& options = {});

// The same into `file`, which the caller commits: files that must appear
// together (a program's outputs) are all written before any is committed,
// so a failure leaves none of them (see OutputFile).
template <class T>
void write_vertex_result(OutputFile& file, std::string_view algorithm, const T* values,
                         uint64_t count, const std::vector<ResultField>& fields);
void write_scalar_result(OutputFile& file, std::string_view algorithm, uint64_t value,
                         uint64_t num_vertices, const std::vector<ResultField>& fields);
void write_signed_scalar_result(OutputFile& file, std::string_view algorithm, int64_t value,
                                uint64_t num_vertices, const std::vector<ResultField>& fields);
void write_real_scalar_result(OutputFile& file, std::string_view algorithm, double value,
                              uint64_t num_vertices, const std::vector<ResultField>& fields);

}  // namespace irgl
