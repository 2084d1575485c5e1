// The host side of --schedule=auto (irgl/gpu/schedule/auto_pick.h).

#include "irgl/gpu/schedule/auto_pick.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "irgl/graph/stats.h"

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
  TopDegrees top;
  for (uint64_t v = 0; v < vertices; ++v) {
    const uint64_t degree = offsets[v + 1] - offsets[v];
    shape.max_degree = std::max(shape.max_degree, degree);
    squares += (double(degree) - mean) * (double(degree) - mean);
    top.add(degree);
  }
  shape.deviation = std::sqrt(squares / double(vertices));
  shape.hub_share = top.share(vertices, shape.edges, kHubVertexFraction);
  return shape;
}

void AutoLog::count(const char* kernel, AutoPick pick, bool persistent) {
  auto site = std::find_if(sites_.begin(), sites_.end(), [&](const Site& site) {
    return site.persistent == persistent && site.kernel == kernel;
  });
  if (site == sites_.end()) site = sites_.insert(sites_.end(), Site{kernel, persistent, {}});
  ++site->launches[unsigned(pick)];
}

std::string AutoLog::summary() const {
  if (sites_.empty()) return {};
  std::ostringstream text;
  text << "schedule auto:";
  const char* site_separator = " ";
  for (const Site& site : sites_) {
    text << site_separator << (site.kernel.empty() ? "(unnamed)" : site.kernel)
         << (site.persistent ? " in a persistent kernel" : "");
    const char* pick_separator = " ";
    for (unsigned pick = 0; pick < kAutoPicks; ++pick) {
      if (site.launches[pick] == 0) continue;
      text << pick_separator << site.launches[pick] << ' ' << to_string(AutoPick(pick));
      pick_separator = ", ";
    }
    site_separator = "; ";
  }
  return text.str();
}

}  // namespace irgl::gpu::schedule
