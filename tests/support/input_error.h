// The message of the InputError a piece of code throws, for tests of error
// messages:
//
//   EXPECT_EQ(input_error_of([&] { load_graph(path); }), "f.mtx:3: error: ...");
#pragma once

#include <string>

#include "irgl/support/error.h"

namespace irgl::testing {

// The message of the InputError `body` throws ("" when it throws none).
template <class Body>
std::string input_error_of(Body&& body) {
  try {
    body();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace irgl::testing
