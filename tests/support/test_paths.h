// Where tests find their inputs: the directories compiled in by
// tests/CMakeLists.txt, unless the environment variable of the same name
// points elsewhere (e.g. IRGL_DATASETS on a machine where the datasets were
// copied next to the build).
#pragma once

#include <cstdlib>
#include <string>
#include <sys/stat.h>

namespace irgl::testing {

inline std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

#ifndef IRGL_TEST_DATA_DIR
#define IRGL_TEST_DATA_DIR "tests/data"
#endif
#ifndef IRGL_TEST_INPUTS_DIR
#define IRGL_TEST_INPUTS_DIR "tests/inputs"
#endif
#ifndef IRGL_DATASETS_DIR
#define IRGL_DATASETS_DIR "../shared/datasets"
#endif

// tests/data: small real graphs committed with the tests.
inline std::string test_data(const std::string& file) {
  return env_or("IRGL_TEST_DATA", IRGL_TEST_DATA_DIR) + "/" + file;
}
// tests/inputs: hand-made inputs, the bad-input corpus.
inline std::string test_input(const std::string& file) {
  return env_or("IRGL_TEST_INPUTS", IRGL_TEST_INPUTS_DIR) + "/" + file;
}
// The real datasets (../shared/datasets); may be absent.
inline std::string dataset(const std::string& file) {
  return env_or("IRGL_DATASETS", IRGL_DATASETS_DIR) + "/" + file;
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
