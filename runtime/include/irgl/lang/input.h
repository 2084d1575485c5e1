// Input requirements: what a program assumes of its graph, stated in the
// program body so that the generated program can make it hold or refuse the
// graph instead of computing a wrong answer.
//
//   program void cc(Graph& g) {
//     require(g, Input::symmetric);           // labels spread both ways
//     ...
//   program void sssp(Graph& g, Node source = 0) {
//     require(g, Input::nonnegative_weights, path_lengths_fit(dist));
//
// path_lengths_fit(f): f holds sums of edge weights along paths; the driver
// refuses a graph on which such a sum could exceed f's largest finite value
// (its type's maximum less one, the maximum meaning INF).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace irgl::lang {

enum class Input {
#define IRGL_INPUT_REQUIREMENT(name, effect) name,
#include "input_requirements.def"
};

// The largest path length a field of type T can hold below INF.
template <class T>
constexpr uint64_t largest_path_length() {
  static_assert(std::is_integral_v<T>, "path lengths are checked for integer vertex data");
  return static_cast<uint64_t>(std::numeric_limits<T>::max()) - 1;
}

}  // namespace irgl::lang
