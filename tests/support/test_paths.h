// Where tests find their inputs (set by CTest's environment; see
// tests/CMakeLists.txt).
#pragma once

#include <cstdlib>
#include <string>
#include <sys/stat.h>

namespace irgl::testing {

inline std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

// tests/data: small real graphs committed with the tests.
inline std::string test_data(const std::string& file) {
  return env_or("IRGL_TEST_DATA", "tests/data") + "/" + file;
}
// tests/inputs: hand-made inputs, the bad-input corpus.
inline std::string test_input(const std::string& file) {
  return env_or("IRGL_TEST_INPUTS", "tests/inputs") + "/" + file;
}
// The real datasets (../shared/datasets); may be absent.
inline std::string dataset(const std::string& file) {
  return env_or("IRGL_DATASETS", "../shared/datasets") + "/" + file;
}
inline bool exists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

}  // namespace irgl::testing

// Skips the current test when a dataset file is missing.
#define IRGL_REQUIRE_DATASET(path)                                        \
  do {                                                                    \
    if (!::irgl::testing::exists(path)) GTEST_SKIP() << "no dataset " << (path); \
  } while (0)
