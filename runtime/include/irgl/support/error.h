// Errors in user input: graph files, result files, command-line values.
//
// Every such error is reported as ONE line that names where the problem is
// and what it is, in the style of compilers:
//   graph.mtx:17: error: vertex id 0 out of range 1..34 (MatrixMarket ids are 1-based)
//   graph.gr: byte 24: error: truncated: header promises 9 nodes, file ends after 2
//   --scale: error: 'x' is not an integer
// Tools catch InputError at the top, print what(), and exit with status 1.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace irgl {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& located_message)
      : std::runtime_error(located_message) {}

  // "<where>: error: <problem>"; where is a file name, an option name, ...
  static InputError in(std::string_view where, std::string_view problem);
  // "<file>:<line>: error: <problem>" (lines count from 1).
  static InputError at_line(std::string_view file, uint64_t line,
                            std::string_view problem);
  // "<file>: byte <offset>: error: <problem>" for binary formats.
  static InputError at_byte(std::string_view file, uint64_t offset,
                            std::string_view problem);
};

// Runs `body`, turning an InputError or std::bad_alloc into a one-line message
// on stderr prefixed by `tool`, and returns the process exit status
// (0 when body returns 0, 1 on an input error, 2 on any other exception).
int run_tool_main(std::string_view tool, const std::function<int(int, char**)>& body, int argc,
                  char** argv);

}  // namespace irgl
