// Scanning primitives shared by the text graph parsers (MatrixMarket, edge
// lists, DIMACS): splitting a line into fields, reading numbers without
// locales or iostreams, and reporting problems by position.
//
// Parsers never track line numbers while scanning: a problem is thrown as a
// ParseError holding a pointer into the input, and the line number is counted
// only when the error is reported (located()).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "formats.h"
#include "irgl/support/error.h"

namespace irgl::text {

// A problem at `at`, a position inside the input's data.
struct ParseError {
  const char* at;
  std::string problem;
};

// The number of '\n' in [begin, end), eight bytes at a time.
uint64_t count_newlines(const char* begin, const char* end);

// The 1-based number of the line holding byte `offset` of `data`. The end of
// a file that ends with a newline counts as its last line.
uint64_t line_number_at(std::string_view data, uint64_t offset);

// "<file>:<line>: error: <problem>" for `error`.
InputError located(const TextInput& input, const ParseError& error);

// Throws "<file>: error: empty file" when there is no data at all.
void reject_empty(const TextInput& input);

// Throws "<file>:<line>: error: binary data (a NUL byte) where <expected> was
// expected" when the first kilobyte holds a NUL byte, as binary files do and
// text never does.
void reject_binary(const TextInput& input, std::string_view expected);

// `text` for a message: at most 32 bytes, non-printable bytes as \xNN, "..."
// when cut. quoted() adds single quotes around it.
std::string excerpt(std::string_view text);
std::string quoted(std::string_view text);

inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

inline const char* skip_blanks(const char* p, const char* end) {
  while (p < end && is_blank(*p)) ++p;
  return p;
}

// The position after the newline ending the line at `p` (or `end`).
inline const char* next_line(const char* p, const char* end) {
  const void* newline = std::memchr(p, '\n', end - p);
  return newline ? static_cast<const char*>(newline) + 1 : end;
}

// The line starting at `p` (up to, not including, its newline).
inline std::string_view line_at(const char* p, const char* end) {
  const void* newline = std::memchr(p, '\n', end - p);
  return std::string_view(p, (newline ? static_cast<const char*>(newline) : end) - p);
}

// The fields of one line. Fields are separated by blanks, and when `commas`
// is set also by one comma with optional blanks around it (so "1,,2" has an
// empty middle field). `count` is the true number of fields; only the first
// kMaxFields are kept.
struct LineFields {
  static constexpr size_t kMaxFields = 6;
  std::string_view field[kMaxFields];
  size_t count = 0;
  const char* next = nullptr;  // the start of the following line
};

// Splits the line starting at `p` into `fields`.
inline void split_line(const char* p, const char* end, bool commas, LineFields& fields) {
  auto separates = [commas](char c) { return is_blank(c) || (commas && c == ','); };
  size_t count = 0;
  auto store = [&](const char* begin, const char* stop) {
    if (count < LineFields::kMaxFields) fields.field[count] = std::string_view(begin, stop - begin);
    ++count;
  };
  p = skip_blanks(p, end);
  while (p < end && *p != '\n') {
    const char* const begin = p;
    while (p < end && *p != '\n' && !separates(*p)) ++p;
    store(begin, p);
    p = skip_blanks(p, end);
    if (commas && p < end && *p == ',') {
      p = skip_blanks(p + 1, end);
      if (p == end || *p == '\n') store(p, p);  // a trailing comma: empty field
    }
  }
  fields.count = count;
  fields.next = p < end ? p + 1 : end;
}

// Parses a field made only of decimal digits; false for anything else
// (including an empty field). Values above UINT64_MAX saturate to it.
inline bool parse_unsigned(std::string_view field, uint64_t& value) {
  if (field.empty()) return false;
  uint64_t result = 0;
  for (const char c : field) {
    if (!is_digit(c)) return false;
    const unsigned digit = static_cast<unsigned>(c - '0');
    if (result > (UINT64_MAX - digit) / 10)
      result = UINT64_MAX;
    else
      result = result * 10 + digit;
  }
  value = result;
  return true;
}

// Forces inlining of the few functions the fast path calls for every field
// (compilers otherwise sometimes keep them out of line).
#define IRGL_HOT_INLINE inline __attribute__((always_inline))

// The fast path. Each parser first tries to read a line with the scan_*
// functions below, which accept only plainly valid fields and leave `p`
// alone when they fail; any line they do not accept is parsed again by the
// careful path (split_line() and the parse_* functions), which either accepts
// it with the same result or reports the problem.

// Walks the data lines of [p, end), the loop of every text parser: skips
// blank lines and those whose first non-blank character `is_comment`; hands
// each other line's first non-blank character to fast(), then to careful()
// when fast() returns nullptr. Both return the start of the next line.
template <class IsComment, class Fast, class Careful>
IRGL_HOT_INLINE void for_each_data_line(const char* p, const char* end, IsComment&& is_comment,
                                        Fast&& fast, Careful&& careful) {
  while (p < end) {
    const char* first = skip_blanks(p, end);
    if (first == end || *first == '\n' || is_comment(*first)) {
      p = next_line(first, end);
      continue;
    }
    const char* next = fast(first);
    p = next ? next : careful(first);
  }
}

// Skips the separator after a field: blanks and, with `commas`, one comma
// followed by more blanks. False when the field runs into something else or
// a comma is followed by no field.
IRGL_HOT_INLINE bool skip_separator(const char*& p, const char* end, bool commas) {
  if (p == end || *p == '\n') return true;
  if (!is_blank(*p) && !(commas && *p == ',')) return false;
  p = skip_blanks(p, end);
  if (commas && p < end && *p == ',') {
    p = skip_blanks(p + 1, end);
    if (p == end || *p == '\n' || *p == ',') return false;
  }
  return true;
}

// An unsigned decimal field of at most 19 digits, and its separator.
IRGL_HOT_INLINE bool scan_unsigned(const char*& p, const char* end, bool commas, uint64_t& value) {
  constexpr ptrdiff_t kMaxDigits = 19;  // below 2^64
  const char* q = p;
  const char* const limit = end - q > kMaxDigits ? q + kMaxDigits : end;
  uint64_t result = 0;
  while (q < limit && is_digit(*q)) result = result * 10 + static_cast<unsigned>(*q++ - '0');
  if (q == p || (q < end && is_digit(*q)) || !skip_separator(q, end, commas)) return false;
  value = result;
  p = q;
  return true;
}

// An integer field of at most 9 digits (so within int32), optionally
// negative, and its separator.
IRGL_HOT_INLINE bool scan_int32(const char*& p, const char* end, bool commas, int32_t& value) {
  constexpr ptrdiff_t kMaxDigits = 9;
  const char* q = p;
  const bool negative = q < end && *q == '-';
  if (negative) ++q;
  const char* const digits = q;
  const char* const limit = end - q > kMaxDigits ? q + kMaxDigits : end;
  int32_t result = 0;
  while (q < limit && is_digit(*q)) result = result * 10 + (*q++ - '0');
  if (q == digits || (q < end && is_digit(*q)) || !skip_separator(q, end, commas)) return false;
  value = negative ? -result : result;
  p = q;
  return true;
}

// Any field, and its separator.
inline bool scan_token(const char*& p, const char* end, bool commas, std::string_view& token) {
  const char* q = p;
  while (q < end && *q != '\n' && !is_blank(*q) && !(commas && *q == ',')) ++q;
  token = std::string_view(p, q - p);
  if (token.empty() || !skip_separator(q, end, commas)) return false;
  p = q;
  return true;
}

inline bool at_line_end(const char* p, const char* end) { return p == end || *p == '\n'; }

// The start of the next line, from the end of the current one.
inline const char* after_line_end(const char* p, const char* end) { return p == end ? end : p + 1; }

// The careful path.

enum class NumberStatus : uint8_t { ok, malformed, out_of_range, not_finite };

// A decimal integer with an optional sign that fits in int32.
NumberStatus parse_int32(std::string_view field, int32_t& value);

// A finite real number ("1", "-2.5", "3e-7", ...) that fits in float32
// ("nan" and "inf" are not_finite; tiny values round towards zero).
NumberStatus parse_float32(std::string_view field, float& value);

// An int32 field; throws "expected an integer <what>, found 'x'" or
// "<what> 3000000000 does not fit in int32".
int32_t parse_int32_field(std::string_view field, std::string_view what);

// The error parse_int32_field() throws for `field` with this (not ok) status.
ParseError int32_error(std::string_view field, std::string_view what, NumberStatus status);

// A float32 field; throws "expected a <what>, found 'x'", "<what> 1e99 does
// not fit in float32" or "<what> nan is not a finite number".
float parse_float32_field(std::string_view field, std::string_view what);

// The 32-bit word EdgeList stores for a weight.
inline uint32_t weight_word(int32_t value) {
  uint32_t word;
  std::memcpy(&word, &value, sizeof word);
  return word;
}
inline uint32_t weight_word(float value) {
  uint32_t word;
  std::memcpy(&word, &value, sizeof word);
  return word;
}

// "1 field", "3 fields".
std::string plural(uint64_t count, std::string_view noun);

// Throws "negative <what> -5" or "expected a <what>, found 'x'" for a field
// that is not a non-negative integer.
[[noreturn]] void fail_not_unsigned(std::string_view field, std::string_view what);

// Reads a non-negative integer field (a count or a vertex id); `what` names it
// in errors.
inline uint64_t parse_count(std::string_view field, std::string_view what) {
  uint64_t value;
  if (!parse_unsigned(field, value)) fail_not_unsigned(field, what);
  return value;
}

}  // namespace irgl::text
