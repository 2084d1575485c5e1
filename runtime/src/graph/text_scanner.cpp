#include "text_scanner.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace irgl::text {

namespace {
std::string with_article(std::string_view noun) {
  const bool vowel =
      !noun.empty() && std::string_view("aeiou").find(noun[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + std::string(noun);
}
}  // namespace

uint64_t count_newlines(const char* begin, const char* end) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  uint64_t count = 0;
  const char* p = begin;
  for (; end - p >= 8; p += 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof word);
    const uint64_t x = word ^ ('\n' * kOnes);  // zero bytes where '\n' was
    // High bit of each byte set iff the byte is non-zero (exact, no carries
    // across bytes).
    const uint64_t nonzero = (((x & ~kHigh) + ~kHigh) | x) & kHigh;
    count += (((nonzero ^ kHigh) >> 7) * kOnes) >> 56;
  }
  for (; p < end; ++p) count += *p == '\n';
  return count;
}

uint64_t line_number_at(std::string_view data, uint64_t offset) {
  offset = std::min<uint64_t>(offset, data.size());
  if (offset == data.size() && offset > 0 && data[offset - 1] == '\n') --offset;
  return 1 + count_newlines(data.data(), data.data() + offset);
}

InputError located(const TextInput& input, const ParseError& error) {
  const uint64_t offset = static_cast<uint64_t>(error.at - input.data.data());
  return InputError::at_line(input.name, line_number_at(input.data, offset), error.problem);
}

void reject_empty(const TextInput& input) {
  if (input.data.empty()) throw InputError::in(input.name, "empty file");
}

void reject_binary(const TextInput& input, std::string_view expected) {
  const std::string_view head = std::string_view(input.data).substr(0, 1024);
  const size_t nul = head.find('\0');
  if (nul != std::string_view::npos)
    throw located(input,
                  ParseError{input.data.data() + nul, "binary data (a NUL byte) where " +
                                                          std::string(expected) + " was expected"});
}

std::string excerpt(std::string_view text) {
  constexpr size_t kShown = 32;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string shown;
  for (const char c : text.substr(0, kShown)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      shown += c;
    } else {
      shown += "\\x";
      shown += kHex[byte >> 4];
      shown += kHex[byte & 15];
    }
  }
  if (text.size() > kShown) shown += "...";
  return shown;
}

std::string quoted(std::string_view text) { return "'" + excerpt(text) + "'"; }

void fail_not_unsigned(std::string_view field, std::string_view what) {
  uint64_t magnitude;
  if (field.size() > 1 && field[0] == '-' && parse_unsigned(field.substr(1), magnitude))
    throw ParseError{field.data(), "negative " + std::string(what) + " " + excerpt(field)};
  throw ParseError{field.data(), "expected " + with_article(what) + ", found " + quoted(field)};
}

std::string plural(uint64_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

NumberStatus parse_int32(std::string_view field, int32_t& value) {
  const bool negative = !field.empty() && field[0] == '-';
  if (!field.empty() && (field[0] == '-' || field[0] == '+')) field.remove_prefix(1);
  uint64_t magnitude;
  if (!parse_unsigned(field, magnitude)) return NumberStatus::malformed;
  const uint64_t limit = negative ? uint64_t(INT32_MAX) + 1 : uint64_t(INT32_MAX);
  if (magnitude > limit) return NumberStatus::out_of_range;
  value = negative ? static_cast<int32_t>(-static_cast<int64_t>(magnitude))
                   : static_cast<int32_t>(magnitude);
  return NumberStatus::ok;
}

NumberStatus parse_float32(std::string_view field, float& value) {
  // from_chars takes no leading '+'; it is harmless in a data file.
  if (field.size() > 1 && field[0] == '+' && field[1] != '-') field.remove_prefix(1);
  const char* const end = field.data() + field.size();
  float result;
  std::from_chars_result parsed = std::from_chars(field.data(), end, result);
  if (parsed.ec == std::errc::result_out_of_range && parsed.ptr == end) {
    // Underflow to a tiny float is fine; overflow is not. Ask double.
    double wide;
    parsed = std::from_chars(field.data(), end, wide);
    if (parsed.ec != std::errc() || std::fabs(wide) > std::numeric_limits<float>::max())
      return NumberStatus::out_of_range;
    result = static_cast<float>(wide);
  }
  if (parsed.ec != std::errc() || parsed.ptr != end) return NumberStatus::malformed;
  if (!std::isfinite(result)) return NumberStatus::not_finite;
  value = result;
  return NumberStatus::ok;
}

ParseError int32_error(std::string_view field, std::string_view what, NumberStatus status) {
  if (status == NumberStatus::out_of_range)
    return ParseError{field.data(),
                      std::string(what) + " " + excerpt(field) + " does not fit in int32"};
  return ParseError{field.data(),
                    "expected an integer " + std::string(what) + ", found " + quoted(field)};
}

int32_t parse_int32_field(std::string_view field, std::string_view what) {
  int32_t value = 0;
  const NumberStatus status = parse_int32(field, value);
  if (status != NumberStatus::ok) throw int32_error(field, what, status);
  return value;
}

float parse_float32_field(std::string_view field, std::string_view what) {
  float value = 0;
  switch (parse_float32(field, value)) {
    case NumberStatus::ok:
      return value;
    case NumberStatus::out_of_range:
      throw ParseError{field.data(),
                       std::string(what) + " " + excerpt(field) + " does not fit in float32"};
    case NumberStatus::not_finite:
      throw ParseError{field.data(),
                       std::string(what) + " " + excerpt(field) + " is not a finite number"};
    default:
      throw ParseError{field.data(), "expected " + with_article(what) + ", found " + quoted(field)};
  }
}

}  // namespace irgl::text
