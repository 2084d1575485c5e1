// The run options of the schedules (irgl/gpu/schedule/options.h): host code.

#include "irgl/gpu/schedule/options.h"

namespace irgl::gpu::schedule {

const char* to_string(OutlineMode mode) {
  switch (mode) {
    case OutlineMode::automatic: return "auto";
    case OutlineMode::off: return "off";
    case OutlineMode::persistent: return "persistent";
    case OutlineMode::graph: return "graph";
  }
  return "off";
}

bool parse_outline_mode(const std::string& text, OutlineMode& mode) {
  for (OutlineMode candidate : {OutlineMode::automatic, OutlineMode::persistent, OutlineMode::graph,
                                OutlineMode::off}) {
    if (text == to_string(candidate)) {
      mode = candidate;
      return true;
    }
  }
  return false;
}

}  // namespace irgl::gpu::schedule
