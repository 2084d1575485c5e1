#include "irgl/support/error.h"

#include <iostream>
#include <new>

namespace irgl {

InputError InputError::in(std::string_view where, std::string_view problem) {
  std::string message(where);
  message += ": error: ";
  message += problem;
  return InputError(message);
}

InputError InputError::at_line(std::string_view file, uint64_t line,
                               std::string_view problem) {
  std::string where(file);
  where += ':';
  where += std::to_string(line);
  return in(where, problem);
}

InputError InputError::at_byte(std::string_view file, uint64_t offset,
                               std::string_view problem) {
  std::string where(file);
  where += ": byte ";
  where += std::to_string(offset);
  return in(where, problem);
}

int run_tool_main(std::string_view tool, const std::function<int(int, char**)>& body, int argc,
                  char** argv) {
  try {
    return body(argc, argv);
  } catch (const InputError& error) {
    std::cerr << error.what() << '\n';
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << tool << ": error: out of host memory\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << tool << ": error: " << error.what() << '\n';
    return 2;
  }
}

}  // namespace irgl
