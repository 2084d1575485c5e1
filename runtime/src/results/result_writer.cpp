#include "irgl/results/result_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "irgl/support/output_file.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"

namespace irgl {
namespace {

// Room for the longest formatted value ("-2.2250738585072014e-308",
// "18446744073709551615") and its newline.
constexpr size_t kMaxValueChars = 32;
// Values each worker formats before the buffers are written out.
constexpr uint64_t kValuesPerWorkerBlock = uint64_t(1) << 16;

template <class T>
char* format_value(char* out, T value, bool max_is_infinity) {
  if constexpr (std::is_unsigned_v<T>) {
    if (max_is_infinity && value == std::numeric_limits<T>::max()) {
      std::memcpy(out, kInfinityWord.data(), kInfinityWord.size());
      return out + kInfinityWord.size();
    }
  }
  // Integers in decimal; floating point in the shortest round-trip form.
  return std::to_chars(out, out + kMaxValueChars - 1, value).ptr;
}

// Formats values[0..count) one per line, in parallel, and writes them in
// order through large buffers.
template <class T>
void write_value_lines(OutputFile& file, const T* values, uint64_t count,
                       bool max_is_infinity) {
  const unsigned threads = host_threads();
  std::vector<std::vector<char>> buffers(threads);
  std::vector<size_t> used(threads, 0);
  const uint64_t round = kValuesPerWorkerBlock * threads;
  for (uint64_t begin = 0; begin < count; begin += round) {
    const uint64_t end = std::min(count, begin + round);
    parallel_chunks(begin, end, [&](uint64_t lo, uint64_t hi, unsigned worker) {
      std::vector<char>& buffer = buffers[worker];
      buffer.resize((hi - lo) * kMaxValueChars);
      char* out = buffer.data();
      for (uint64_t i = lo; i < hi; ++i) {
        out = format_value(out, values[i], max_is_infinity);
        *out++ = '\n';
      }
      used[worker] = static_cast<size_t>(out - buffer.data());
    });
    for (unsigned worker = 0, chunks = parallel_chunk_count(begin, end); worker < chunks;
         ++worker)
      file.write(buffers[worker].data(), used[worker]);
  }
}

template <class T>
bool type_suits(ValueSyntax syntax) {
  switch (syntax) {
    case ValueSyntax::distance:
    case ValueSyntax::count: return std::is_integral_v<T> && std::is_unsigned_v<T>;
    case ValueSyntax::label:
    case ValueSyntax::membership: return std::is_integral_v<T>;
    case ValueSyntax::real: return std::is_floating_point_v<T>;
  }
  return false;
}

// Checks the algorithm name and fields against the format's rules; returns
// the algorithm's format (nullptr for an algorithm the format does not know).
const ResultFormat* check_header(std::string_view algorithm, ResultShape shape,
                                 const std::vector<ResultField>& fields) {
  if (!is_valid_field_key(algorithm))
    throw std::invalid_argument("result algorithm name '" + std::string(algorithm) +
                                "' is not a lowercase word");
  const ResultFormat* format = find_result_format(algorithm);
  if (format && format->shape != shape)
    throw std::invalid_argument(std::string(algorithm) + " results are " +
                                (format->shape == ResultShape::scalar ? "scalar" : "per vertex"));
  for (size_t i = 0; i < fields.size(); ++i) {
    const ResultField& field = fields[i];
    if (!is_valid_field_key(field.key) || field.key == "algorithm" || field.key == "vertices")
      throw std::invalid_argument("bad result header field name '" + field.key + "'");
    if (field.value.empty() || field.value.find_first_of("\r\n") != std::string::npos)
      throw std::invalid_argument("result header field '" + field.key +
                                  "' has an empty or multi-line value");
    for (size_t j = 0; j < i; ++j)
      if (fields[j].key == field.key)
        throw std::invalid_argument("duplicate result header field '" + field.key + "'");
  }
  return format;
}

std::string header_text(std::string_view algorithm, uint64_t num_vertices,
                        const std::vector<ResultField>& fields) {
  std::string text(kResultMagic);
  text += "\n# algorithm ";
  text += algorithm;
  text += "\n# vertices ";
  text += std::to_string(num_vertices);
  text += '\n';
  for (const ResultField& field : fields) text += "# " + field.key + " " + field.value + "\n";
  return text;
}

template <class T>
void check_membership_values(std::string_view algorithm, const T* values, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i)
    if (values[i] != 0 && values[i] != 1)
      throw std::invalid_argument(std::string(algorithm) + " value of vertex " +
                                  std::to_string(i) + " is " + std::to_string(values[i]) +
                                  ", not 0 or 1");
}

// The format's checks of a per-vertex result, before anything is opened or
// written; returns the algorithm's format (nullptr: one the format does not
// know).
template <class T>
const ResultFormat* check_vertex_result(std::string_view algorithm, const T* values,
                                        uint64_t count, const std::vector<ResultField>& fields) {
  const ResultFormat* format = check_header(algorithm, ResultShape::per_vertex, fields);
  if (format && !type_suits<T>(format->syntax))
    throw std::invalid_argument(std::string(algorithm) +
                                " results cannot be written from this value type");
  if constexpr (std::is_integral_v<T>)
    if (format && format->syntax == ValueSyntax::membership)
      check_membership_values(algorithm, values, count);
  return format;
}
}  // namespace

template <class T>
void write_vertex_result(OutputFile& file, std::string_view algorithm, const T* values,
                         uint64_t count, const std::vector<ResultField>& fields) {
  const ResultFormat* format = check_vertex_result(algorithm, values, count, fields);
  file.write(header_text(algorithm, count, fields));
  // Labels, counts and memberships have no infinity: their maximum is a number.
  const bool max_is_infinity = !format || format->syntax == ValueSyntax::distance;
  write_value_lines(file, values, count, max_is_infinity);
}

template <class T>
void write_vertex_result(const std::string& path, std::string_view algorithm,
                         const T* values, uint64_t count, const ResultWriteOptions& options) {
  // A refused call opens nothing (a FIFO would wait for a reader).
  check_vertex_result(algorithm, values, count, options.fields);
  OutputFile file(path, options.overwrite);
  write_vertex_result(file, algorithm, values, count, options.fields);
  file.commit();
}

#define IRGL_WRITE_VERTEX_RESULT(T)                                                          \
  template void write_vertex_result<T>(const std::string&, std::string_view, const T*,       \
                                       uint64_t, const ResultWriteOptions&);                 \
  template void write_vertex_result<T>(OutputFile&, std::string_view, const T*, uint64_t,    \
                                       const std::vector<ResultField>&);
IRGL_WRITE_VERTEX_RESULT(uint32_t)
IRGL_WRITE_VERTEX_RESULT(uint64_t)
IRGL_WRITE_VERTEX_RESULT(int32_t)
IRGL_WRITE_VERTEX_RESULT(int64_t)
IRGL_WRITE_VERTEX_RESULT(float)
IRGL_WRITE_VERTEX_RESULT(double)
#undef IRGL_WRITE_VERTEX_RESULT

namespace {
template <class T>
void write_scalar(OutputFile& file, std::string_view algorithm, T value, uint64_t num_vertices,
                  const std::vector<ResultField>& fields) {
  check_header(algorithm, ResultShape::scalar, fields);
  file.write(header_text(algorithm, num_vertices, fields));
  char line[kMaxValueChars];
  char* end = std::to_chars(line, line + sizeof line - 1, value).ptr;
  *end++ = '\n';
  file.write(line, static_cast<size_t>(end - line));
}

template <class T>
void write_scalar(const std::string& path, std::string_view algorithm, T value,
                  uint64_t num_vertices, const ResultWriteOptions& options) {
  check_header(algorithm, ResultShape::scalar, options.fields);
  OutputFile file(path, options.overwrite);
  write_scalar(file, algorithm, value, num_vertices, options.fields);
  file.commit();
}
}  // namespace

void write_scalar_result(const std::string& path, std::string_view algorithm, uint64_t value,
                         uint64_t num_vertices, const ResultWriteOptions& options) {
  write_scalar(path, algorithm, value, num_vertices, options);
}

void write_signed_scalar_result(const std::string& path, std::string_view algorithm,
                                int64_t value, uint64_t num_vertices,
                                const ResultWriteOptions& options) {
  write_scalar(path, algorithm, value, num_vertices, options);
}

void write_real_scalar_result(const std::string& path, std::string_view algorithm, double value,
                              uint64_t num_vertices, const ResultWriteOptions& options) {
  write_scalar(path, algorithm, value, num_vertices, options);
}

void write_scalar_result(OutputFile& file, std::string_view algorithm, uint64_t value,
                         uint64_t num_vertices, const std::vector<ResultField>& fields) {
  write_scalar(file, algorithm, value, num_vertices, fields);
}

void write_signed_scalar_result(OutputFile& file, std::string_view algorithm, int64_t value,
                                uint64_t num_vertices, const std::vector<ResultField>& fields) {
  write_scalar(file, algorithm, value, num_vertices, fields);
}

void write_real_scalar_result(OutputFile& file, std::string_view algorithm, double value,
                              uint64_t num_vertices, const std::vector<ResultField>& fields) {
  write_scalar(file, algorithm, value, num_vertices, fields);
}

}  // namespace irgl
