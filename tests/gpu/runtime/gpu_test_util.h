// Helpers shared by the GPU runtime tests: comparisons that report the first
// mismatches (so a failure on a remote GPU can be diagnosed from the log
// alone) and deterministic random data.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <vector>

#include "irgl/graph/csr_graph.h"

namespace irgl::testing {

// Success when the vectors are equal; otherwise the sizes, the number of
// differing positions and the first `shown` of them.
template <class T>
::testing::AssertionResult vectors_equal(const std::vector<T>& expected,
                                         const std::vector<T>& actual, size_t shown = 8) {
  const size_t common = std::min(expected.size(), actual.size());
  size_t differing = 0;
  std::ostringstream details;
  for (size_t i = 0; i < common; ++i) {
    if (expected[i] == actual[i]) continue;
    if (differing++ < shown)
      details << "\n  [" << i << "] expected " << +expected[i] << ", got " << +actual[i];
  }
  if (differing == 0 && expected.size() == actual.size()) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure();
  failure << "sizes: expected " << expected.size() << ", got " << actual.size() << "; " << differing
          << " of the first " << common << " positions differ" << details.str();
  if (actual.size() > expected.size() && shown > 0)
    failure << "\n  first extra item: [" << common << "] = " << +actual[common];
  return failure;
}

// The same after sorting both (multiset equality).
template <class T>
::testing::AssertionResult same_items(std::vector<T> expected, std::vector<T> actual) {
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  return vectors_equal(expected, actual);
}

// Sorted, duplicate-free ids in [0, n), each present with probability
// `density`; deterministic for a seed.
inline std::vector<VertexId> random_vertex_set(uint64_t n, double density, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::bernoulli_distribution member(density);
  std::vector<VertexId> set;
  for (uint64_t v = 0; v < n; ++v)
    if (member(random)) set.push_back(static_cast<VertexId>(v));
  return set;
}

// `count` values uniform in [low, high]; deterministic for a seed.
template <class T>
std::vector<T> random_values(uint64_t count, T low, T high, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values(count);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> pick(low, high);
    for (T& value : values) value = pick(random);
  } else {
    std::uniform_int_distribution<T> pick(low, high);
    for (T& value : values) value = pick(random);
  }
  return values;
}

// 0, 1, ..., n-1.
inline std::vector<VertexId> iota_ids(uint64_t n) {
  std::vector<VertexId> ids(n);
  for (uint64_t i = 0; i < n; ++i) ids[i] = static_cast<VertexId>(i);
  return ids;
}

}  // namespace irgl::testing
