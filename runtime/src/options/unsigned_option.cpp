#include "irgl/options/unsigned_option.h"

#include <cctype>
#include <limits>

#include "irgl/support/error.h"

namespace irgl {

uint64_t parse_unsigned(const std::string& text, const std::string& option, uint64_t max) {
  const auto not_a_count = [&] {
    return InputError::in(option, "'" + text + "' is not a non-negative integer");
  };
  if (text.empty()) throw not_a_count();
  uint64_t value = 0;
  for (const char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) throw not_a_count();
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) throw not_a_count();
    value = value * 10 + digit;
  }
  if (value > max)
    throw InputError::in(option, "'" + text + "' is larger than " + std::to_string(max));
  return value;
}

}  // namespace irgl
