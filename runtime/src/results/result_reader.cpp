#include "irgl/results/result_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "irgl/support/error.h"

namespace irgl {
namespace {

// Reads a file line by line through one large buffer (no per-line allocation).
class LineReader {
 public:
  // Lines longer than this are not part of any result file; reporting them
  // keeps binary garbage from being buffered whole.
  static constexpr size_t kMaxLineBytes = size_t(1) << 20;

  explicit LineReader(std::string path) : path_(std::move(path)) {
    fd_ = open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail("cannot open");
    struct stat info;
    if (fstat(fd_, &info) == 0) file_size_ = static_cast<uint64_t>(info.st_size);
    buffer_.resize(4 * kMaxLineBytes);
  }
  ~LineReader() { close(fd_); }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Sets `line` to the next line, without its "\n" or "\r\n"; false at the end
  // of the file. A last line without a newline counts.
  bool next(std::string_view& line) {
    for (;;) {
      const char* start = buffer_.data() + begin_;
      if (const void* newline = std::memchr(start, '\n', end_ - begin_)) {
        const size_t length = static_cast<const char*>(newline) - start;
        begin_ += length + 1;
        return take(line, start, length);
      }
      if (end_ - begin_ >= kMaxLineBytes)
        throw InputError::at_line(path_, line_number_ + 1,
                                  "line longer than 1 MiB; not an irgl result file");
      if (at_eof_) {
        if (begin_ == end_) return false;
        const size_t length = end_ - begin_;
        begin_ = end_;
        return take(line, start, length);
      }
      refill();
    }
  }

  // The number of the line last returned by next() (1-based).
  uint64_t line_number() const { return line_number_; }
  uint64_t file_size() const { return file_size_; }
  const std::string& path() const { return path_; }

 private:
  bool take(std::string_view& line, const char* start, size_t length) {
    if (length > 0 && start[length - 1] == '\r') --length;
    line = std::string_view(start, length);
    ++line_number_;
    return true;
  }

  // Moves the unread tail to the front and reads more after it.
  void refill() {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    for (;;) {
      const ssize_t got = read(fd_, buffer_.data() + end_, buffer_.size() - end_);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail("cannot read");
      if (got == 0) at_eof_ = true;
      end_ += static_cast<size_t>(got);
      return;
    }
  }

  [[noreturn]] void fail(const char* what) const {
    throw InputError::in(path_, std::string(what) + ": " + std::strerror(errno));
  }

  std::string path_;
  int fd_ = -1;
  uint64_t file_size_ = 0;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  bool at_eof_ = false;
  uint64_t line_number_ = 0;
};

// `text` quoted for a one-line message: at most 40 characters, control and
// non-ASCII bytes shown as '?'.
std::string quoted(std::string_view text) {
  constexpr size_t kShown = 40;
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < kShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  if (text.size() > kShown) out += "...";
  return out + "'";
}

template <class T>
bool parse_whole(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && ptr == end;
}

const char* expected_syntax(ValueSyntax syntax) {
  switch (syntax) {
    case ValueSyntax::distance: return "an unsigned integer or 'inf'";
    case ValueSyntax::count: return "an unsigned integer";
    case ValueSyntax::label: return "an integer";
    case ValueSyntax::membership: return "0 or 1";
    case ValueSyntax::real: return "a number";
  }
  return "?";
}

// Parses one value line into the vector that suits the syntax.
class ValueParser {
 public:
  ValueParser(ResultFile& result, const LineReader& lines)
      : result_(result), lines_(lines), syntax_(result.format->syntax) {}

  void reserve(uint64_t count) {
    // A header may promise more values than the file can hold (each takes at
    // least two bytes); do not reserve for those.
    const uint64_t possible = std::min(count, lines_.file_size() / 2 + 1);
    switch (syntax_) {
      case ValueSyntax::label: result_.signed_values.reserve(possible); break;
      case ValueSyntax::real: result_.real_values.reserve(possible); break;
      default: result_.unsigned_values.reserve(possible); break;
    }
  }

  void parse(std::string_view text) {
    if (text.empty()) fail("empty line instead of " + what());
    bool ok = false;
    switch (syntax_) {
      case ValueSyntax::distance: ok = parse_distance(text); break;
      case ValueSyntax::count: ok = push(text, result_.unsigned_values); break;
      case ValueSyntax::label: ok = push(text, result_.signed_values); break;
      case ValueSyntax::membership:
        ok = text == "0" || text == "1";
        if (ok) result_.unsigned_values.push_back(text == "1");
        break;
      case ValueSyntax::real: ok = push(text, result_.real_values); break;
    }
    if (!ok)
      fail(std::string(result_.format->algorithm) + " value " + quoted(text) + " is not " +
           expected_syntax(syntax_));
  }

 private:
  std::string what() const { return "a " + std::string(result_.format->algorithm) + " value"; }

  bool parse_distance(std::string_view text) {
    if (text == kInfinityWord) {
      result_.unsigned_values.push_back(kInfiniteDistance);
      return true;
    }
    uint64_t value;
    if (!parse_whole(text, value)) return false;
    if (value == kInfiniteDistance)
      fail(std::string(result_.format->algorithm) + " value " + quoted(text) +
           " is too large (unreachable is written 'inf')");
    result_.unsigned_values.push_back(value);
    return true;
  }

  template <class T>
  bool push(std::string_view text, std::vector<T>& values) {
    T value;
    if (!parse_whole(text, value)) return false;
    values.push_back(value);
    return true;
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError::at_line(result_.path, lines_.line_number(), problem);
  }

  ResultFile& result_;
  const LineReader& lines_;
  ValueSyntax syntax_;
};

// Reads the header lines into `result`; leaves in `line` the first line after
// them and returns whether there is one.
bool read_header(LineReader& lines, ResultFile& result, std::string_view algorithm,
                 std::string_view& line) {
  const std::string& path = result.path;
  const std::string first_line_rule =
      "not an irgl result file (the first line must be '" + std::string(kResultMagic) + "')";
  if (!lines.next(line)) throw InputError::at_line(path, 1, "empty file; " + first_line_rule);
  if (line != kResultMagic) {
    constexpr std::string_view kMagicStem = "# irgl-result ";
    if (line.substr(0, kMagicStem.size()) == kMagicStem)
      throw InputError::at_line(path, 1, "unsupported result format version " +
                                             quoted(line.substr(kMagicStem.size())) +
                                             " (this reader knows version 1)");
    throw InputError::at_line(path, 1, first_line_rule);
  }
  bool have_algorithm = false;
  bool have_vertices = false;
  bool more = lines.next(line);
  for (; more && !line.empty() && line[0] == '#'; more = lines.next(line)) {
    const uint64_t at = lines.line_number();
    const size_t space = line.find(' ', 2);
    if (line.substr(0, 2) != "# " || space == std::string_view::npos ||
        space + 1 == line.size() || !is_valid_field_key(line.substr(2, space - 2)))
      throw InputError::at_line(path, at, "malformed header line " + quoted(line) +
                                              " (expected '# KEY VALUE')");
    const std::string_view key = line.substr(2, space - 2);
    const std::string_view value = line.substr(space + 1);
    const bool duplicate = (key == "algorithm" && have_algorithm) ||
                           (key == "vertices" && have_vertices) || result.field(key);
    if (duplicate)
      throw InputError::at_line(path, at, "duplicate header field '" + std::string(key) + "'");
    if (key == "algorithm") {
      have_algorithm = true;
      if (value != algorithm)
        throw InputError::at_line(path, at, "result is for algorithm " + quoted(value) +
                                                ", expected '" + std::string(algorithm) + "'");
    } else if (key == "vertices") {
      have_vertices = true;
      if (!parse_whole(value, result.num_vertices))
        throw InputError::at_line(path, at,
                                  "vertex count " + quoted(value) + " is not an unsigned integer");
      result.vertices_line = at;
    } else {
      result.fields.push_back({std::string(key), std::string(value), at});
    }
  }
  const uint64_t after_header = lines.line_number() + (more ? 0 : 1);
  for (const auto& [present, name] : {std::pair{have_algorithm, "algorithm"},
                                      std::pair{have_vertices, "vertices"}})
    if (!present)
      throw InputError::at_line(path, after_header,
                                "missing header field '" + std::string(name) + "'");
  result.first_value_line = after_header;
  return more;
}

}  // namespace

const ResultHeaderField* ResultFile::field(std::string_view key) const {
  for (const ResultHeaderField& candidate : fields)
    if (candidate.key == key) return &candidate;
  return nullptr;
}

std::optional<uint64_t> ResultFile::unsigned_field(std::string_view key) const {
  const ResultHeaderField* found = field(key);
  if (!found) return std::nullopt;
  uint64_t value;
  if (!parse_whole(std::string_view(found->value), value))
    throw InputError::at_line(path, found->line, "header field '" + found->key + "': " +
                                                     quoted(found->value) +
                                                     " is not an unsigned integer");
  return value;
}

void ResultFile::check_vertex_count(uint64_t graph_vertices) const {
  if (num_vertices != graph_vertices)
    throw InputError::at_line(path, vertices_line,
                              "result has " + std::to_string(num_vertices) +
                                  " vertices, the graph has " + std::to_string(graph_vertices));
}

ResultFile read_result_file(const std::string& path, std::string_view algorithm) {
  ResultFile result;
  result.path = path;
  result.format = find_result_format(algorithm);
  if (!result.format)
    throw std::invalid_argument("read_result_file: unknown algorithm '" +
                                std::string(algorithm) + "'");
  LineReader lines(path);
  std::string_view line;
  bool more = read_header(lines, result, algorithm, line);

  const uint64_t count =
      result.format->shape == ResultShape::scalar ? 1 : result.num_vertices;
  ValueParser parser(result, lines);
  parser.reserve(count);
  for (uint64_t i = 0; i < count; ++i, more = lines.next(line)) {
    if (!more)
      throw InputError::at_line(path, lines.line_number() + 1,
                                "file ends after " + std::to_string(i) + " of " +
                                    std::to_string(count) + " values");
    parser.parse(line);
  }
  // Blank lines may follow the values; anything else may not.
  for (; more; more = lines.next(line))
    if (!line.empty())
      throw InputError::at_line(path, lines.line_number(),
                                "unexpected data after the last of " + std::to_string(count) +
                                    " values");
  return result;
}

}  // namespace irgl
