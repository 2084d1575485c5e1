#include "requirements.h"

#include <algorithm>
#include <vector>

#include "irgl/graph/weight_summary.h"
#include "irgl/support/error.h"

namespace irgl::lang {
namespace {

const char* name_of(Input requirement) {
  switch (requirement) {
#define IRGL_INPUT_REQUIREMENT(name, effect) \
  case Input::name: return #name;
#include "irgl/lang/input_requirements.def"
  }
  return "?";
}

bool requires_input(const ProgramDescription& description, Input requirement) {
  const auto& all = description.requirements;
  return std::find(all.begin(), all.end(), requirement) != all.end();
}

std::string describe_edge(const CsrGraph& graph, uint64_t e) {
  const auto upper = std::upper_bound(graph.out_offsets.begin(), graph.out_offsets.end(), e);
  const uint64_t source = static_cast<uint64_t>(upper - graph.out_offsets.begin()) - 1;
  return "edge " + std::to_string(source) + " -> " + std::to_string(graph.out_targets[e]);
}

// A path has at most one edge leaving each of its vertices but the last, so
// its length is at most (vertices with out-edges) x (largest weight).
void check_path_lengths(const ProgramDescription& description, uint64_t with_out_edges,
                        const std::string& source, int64_t largest_weight) {
  const unsigned __int128 bound =
      static_cast<unsigned __int128>(with_out_edges) * static_cast<uint64_t>(largest_weight);
  for (const ProgramDescription::PathLengthField& field : description.path_length_fields) {
    if (bound <= field.largest) continue;
    const uint64_t fitting = with_out_edges ? field.largest / with_out_edges : 0;
    throw InputError::in(
        source, description.name + " sums edge weights along paths in '" + field.name + "' (" +
                    field.type + ", at most " + std::to_string(field.largest) +
                    "): with weights up to " + std::to_string(largest_weight) + " and " +
                    std::to_string(with_out_edges) +
                    " vertices with out-edges a path could exceed that; use weights of at "
                    "most " + std::to_string(fitting) +
                    " (e.g. --weights hash:" + std::to_string(std::max<uint64_t>(fitting, 1)) +
                    ") or a wider type for '" + field.name + "'");
  }
}

}  // namespace

std::string apply_requirements(const ProgramDescription& description, BuildOptions& options) {
  std::string applied;
  for (Input requirement : description.requirements) {
    switch (requirement) {
      case Input::symmetric: options.symmetrize = true; break;
      case Input::no_self_loops: options.drop_self_loops = true; break;
      case Input::no_duplicates: options.drop_duplicates = true; break;
      case Input::simple:
        options.symmetrize = options.drop_self_loops = options.drop_duplicates = true;
        break;
      case Input::sorted: options.sort_adjacency = true; break;
      case Input::nonnegative_weights: continue;  // checked after the load
    }
    applied += std::string(applied.empty() ? "" : ", ") + name_of(requirement);
  }
  if (applied.empty()) return "";
  return "input: " + description.name + " requires a " + applied +
         " graph; the load makes it so";
}

void check_requirements(const ProgramDescription& description, const CsrGraph& graph,
                        const std::string& source) {
  const bool nonnegative = requires_input(description, Input::nonnegative_weights);
  if (!graph.has_weights() || (!nonnegative && description.path_length_fields.empty())) return;
  const WeightSummary weights = summarize_weights(graph);
  if (nonnegative && weights.first_negative != UINT64_MAX) {
    const uint64_t e = weights.first_negative;
    throw InputError::in(source, description.name + " requires non-negative edge weights; " +
                                     describe_edge(graph, e) + " has weight " +
                                     (graph.weight_type == WeightType::float32
                                          ? std::to_string(graph.out_weight<float>(e))
                                          : std::to_string(graph.out_weight<int32_t>(e))));
  }
  if (graph.weight_type == WeightType::float32) return;  // float sums do not wrap
  uint64_t with_out_edges = 0;
  for (uint64_t v = 0; v < graph.num_vertices(); ++v)
    with_out_edges += graph.out_offsets[v + 1] > graph.out_offsets[v];
  check_path_lengths(description, with_out_edges, source, weights.largest);
}

void check_requirements(const ProgramDescription& description, const WeightTotals& weights,
                        const std::string& source) {
  const bool nonnegative = requires_input(description, Input::nonnegative_weights);
  if (weights.type == WeightType::none) return;
  if (nonnegative && weights.negative)
    throw InputError::in(source, description.name + " requires non-negative edge weights; "
                                                    "the graph has a negative one");
  if (weights.type == WeightType::int32)
    check_path_lengths(description, weights.with_out_edges, source, weights.largest);
}

}  // namespace irgl::lang
