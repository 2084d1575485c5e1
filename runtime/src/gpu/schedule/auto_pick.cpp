// The host side of --schedule=auto (irgl/gpu/schedule/auto_pick.h).

#include "irgl/gpu/schedule/auto_pick.h"

#include <algorithm>
#include <cmath>

namespace irgl::gpu::schedule {

const char* to_string(AutoPick pick) {
  switch (pick) {
    case AutoPick::thread: return "thread";
    case AutoPick::warp: return "warp";
    case AutoPick::block: return "block";
    case AutoPick::twc: return "twc";
    case AutoPick::lb: return "lb";
    case AutoPick::merge_path: return "merge-path";
    case AutoPick::alb: return "alb";
  }
  return "alb";
}

GraphShape shape_of_degrees(const uint64_t* offsets, uint64_t vertices) {
  GraphShape shape;
  if (!offsets || vertices == 0) return shape;
  shape.vertices = vertices;
  shape.edges = offsets[vertices] - offsets[0];
  const double mean = shape.mean();
  double squares = 0;
  for (uint64_t v = 0; v < vertices; ++v) {
    const uint64_t degree = offsets[v + 1] - offsets[v];
    shape.max_degree = std::max(shape.max_degree, degree);
    squares += (double(degree) - mean) * (double(degree) - mean);
  }
  shape.deviation = std::sqrt(squares / double(vertices));
  return shape;
}

}  // namespace irgl::gpu::schedule
