#include "irgl/gpu/worklist/frontier_policy.h"

#include <array>
#include <nlohmann/json.hpp>
#include <sstream>

namespace irgl::gpu {

namespace {
constexpr std::array<FrontierMode, 5> kModes = {FrontierMode::automatic, FrontierMode::sparse,
                                                FrontierMode::unique, FrontierMode::dense,
                                                FrontierMode::sweep};
}  // namespace

const char* frontier_form_name(FrontierForm form) {
  switch (form) {
    case FrontierForm::sparse: return "sparse";
    case FrontierForm::unique: return "unique";
    case FrontierForm::dense: return "dense";
    case FrontierForm::sweep: return "sweep";
  }
  return "sparse";
}

const char* frontier_mode_name(FrontierMode mode) {
  switch (mode) {
    case FrontierMode::automatic: return "auto";
    case FrontierMode::sparse: return "sparse";
    case FrontierMode::unique: return "unique";
    case FrontierMode::dense: return "dense";
    case FrontierMode::sweep: return "sweep";
  }
  return "auto";
}

std::optional<FrontierMode> parse_frontier_mode(const std::string& text) {
  for (FrontierMode mode : kModes)
    if (text == frontier_mode_name(mode)) return mode;
  return std::nullopt;
}

uint64_t FrontierPolicy::dense_edges(uint64_t vertices, uint64_t edges) {
  if (edges == 0) return ~uint64_t{0};  // no round visits an edge
  // |V| + K |V| / (|E| / |V|), in floating point: |V|^2 overflows.
  const double v = static_cast<double>(vertices);
  const double bound = v + kDuplicateEdgesPerVertex * v * v / static_cast<double>(edges);
  const double at_least = static_cast<double>(kDenseMinEdges);
  return bound < at_least ? kDenseMinEdges
                          : bound >= 1.8e19 ? ~uint64_t{0} : static_cast<uint64_t>(bound);
}

bool FrontierPolicy::has_hubs(const FrontierInputs& inputs) {
  // max_degree >= ratio * edges / vertices, in floating point.
  return static_cast<double>(inputs.max_degree) * static_cast<double>(inputs.vertices) >=
         static_cast<double>(kHubDegreeRatio) * static_cast<double>(inputs.edges);
}

bool FrontierPolicy::may_need_degree_sum(FrontierMode mode, const FrontierInputs& inputs) {
  return mode == FrontierMode::automatic && inputs.max_degree != 0 && has_hubs(inputs);
}

bool FrontierPolicy::needs_degree_sum(FrontierMode mode, const FrontierInputs& inputs) {
  if (!may_need_degree_sum(mode, inputs) || inputs.items == 0) return false;
  return may_hold_edges(inputs.items, inputs.max_degree,
                        dense_edges(inputs.vertices, inputs.edges));
}

FrontierForm FrontierPolicy::output_form(FrontierMode mode, const FrontierInputs& inputs) {
  switch (mode) {
    case FrontierMode::sparse: return FrontierForm::sparse;
    case FrontierMode::unique: return FrontierForm::unique;
    case FrontierMode::dense: return FrontierForm::dense;
    case FrontierMode::sweep: return FrontierForm::sweep;
    case FrontierMode::automatic: break;
  }
  if (!inputs.degree_sum || !has_hubs(inputs)) return FrontierForm::sparse;
  return *inputs.degree_sum >= dense_edges(inputs.vertices, inputs.edges) ? FrontierForm::dense
                                                                           : FrontierForm::sparse;
}

uint64_t FrontierPolicy::host_round_edges(FrontierMode mode, const FrontierInputs& inputs) {
  return may_need_degree_sum(mode, inputs) ? dense_edges(inputs.vertices, inputs.edges) : 0;
}

bool FrontierPolicy::may_sweep(FrontierMode mode, bool queue_only) {
  return !queue_only && (mode == FrontierMode::sweep || mode == FrontierMode::automatic);
}

bool FrontierPolicy::sweep_input(FrontierMode mode, uint64_t vertices, uint64_t members,
                                 bool queue_only) {
  if (!may_sweep(mode, queue_only)) return false;
  return mode == FrontierMode::sweep || (members != 0 && members >= vertices / kSweepDivisor);
}

uint64_t FrontierLog::items() const {
  uint64_t items = 0;
  for (const FrontierRecord& record : rounds) items += record.items;
  return items;
}

std::string FrontierLog::summary(FrontierMode mode) const {
  std::array<uint64_t, 4> counts{};
  uint64_t swept = 0;
  for (const FrontierRecord& record : rounds) {
    ++counts[static_cast<int>(record.output)];
    swept += record.swept_next;
  }
  std::ostringstream text;
  text << "frontier: " << frontier_mode_name(mode) << ", host rounds "
       << counts[0] << " sparse, " << counts[1] << " unique, " << counts[2]
       << " dense, " << counts[3] << " sweep (" << swept << " read by a sweep), "
       << device_rounds << " rounds in the persistent kernel (sparse); " << items()
       << " items in the host rounds";
  return text.str();
}

std::string FrontierLog::json() const {
  // One record per line, as in the load log around it.
  std::string text = "[";
  for (size_t i = 0; i < rounds.size(); ++i) {
    const FrontierRecord& record = rounds[i];
    nlohmann::ordered_json json;
    json["round"] = record.round;
    json["items"] = record.items;
    json["degree_sum"] = nullptr;
    if (record.degree_sum) json["degree_sum"] = *record.degree_sum;
    json["output"] = frontier_form_name(record.output);
    json["members"] = nullptr;
    if (record.members) json["members"] = *record.members;
    json["swept_next"] = record.swept_next;
    text += (i ? ",\n  " : "\n  ") + json.dump();
  }
  return text + (rounds.empty() ? "]" : "\n]");
}

}  // namespace irgl::gpu
