// Unsigned command-line options that refuse negative values.
//
// Boost.Program_options reads "-3" into an unsigned option as 2^32 - 3 (it
// converts with lexical_cast, which wraps), so `--runs -2` would run for
// ever and `--k -3` would silently ask for a 4294967293-core. Options read
// through unsigned_value() take their text and convert it strictly:
//
//   options.add_options()("runs", unsigned_value(&runs, "--runs")->default_value("1"), "...");
//
// A value that is not a plain decimal number, or too large for the target,
// throws InputError naming the option ("--runs: error: '-2' is not a
// non-negative integer"), from po::notify (parse_command_line()).
#pragma once

#include <boost/program_options/value_semantic.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace irgl {

// `text` as a decimal number in [0, max]; throws InputError naming `option`.
uint64_t parse_unsigned(const std::string& text, const std::string& option, uint64_t max);

template <class T>
boost::program_options::typed_value<std::string>* unsigned_value(T* target, std::string option) {
  static_assert(std::is_unsigned_v<T>, "unsigned_value() is for unsigned targets");
  return boost::program_options::value<std::string>()->notifier(
      [target, option](const std::string& text) {
        *target = static_cast<T>(parse_unsigned(text, option, std::numeric_limits<T>::max()));
      });
}

}  // namespace irgl
