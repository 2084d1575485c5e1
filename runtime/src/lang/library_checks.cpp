#include "irgl/lang/library_checks.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "irgl/graph/csr_build.h"
#include "irgl/support/error.h"
#include "requirements.h"

namespace irgl::lang {
namespace {

// Each vertex's out-neighbours in ascending order: the graph's own lists
// where they all are sorted, else a sorted copy.
class SortedLists {
 public:
  explicit SortedLists(const CsrGraph& graph) : graph_(graph) {
    if (all_sorted(graph)) return;
    copy_ = graph.out_targets;
    for (uint64_t v = 0; v < graph.num_vertices(); ++v)
      std::sort(copy_.begin() + graph.out_offsets[v], copy_.begin() + graph.out_offsets[v + 1]);
  }
  static bool all_sorted(const CsrGraph& graph) {
    for (uint64_t v = 0; v < graph.num_vertices(); ++v)
      if (!std::is_sorted(graph.out_targets.begin() + graph.out_offsets[v],
                          graph.out_targets.begin() + graph.out_offsets[v + 1]))
        return false;
    return true;
  }
  const VertexId* begin(uint64_t v) const { return targets() + graph_.out_offsets[v]; }
  const VertexId* end(uint64_t v) const { return targets() + graph_.out_offsets[v + 1]; }

 private:
  const VertexId* targets() const {
    return copy_.empty() ? graph_.out_targets.data() : copy_.data();
  }
  const CsrGraph& graph_;
  std::vector<VertexId> copy_;
};

[[noreturn]] void refuse(const ProgramDescription& description, const char* requirement,
                         const std::string& why, const char* fix) {
  throw std::invalid_argument(description.name + " requires a graph " + requirement + " (its " +
                              "require()): " + why + "; " + fix);
}

std::string edge(uint64_t from, uint64_t to) {
  return "edge " + std::to_string(from) + " -> " + std::to_string(to);
}

// Each vertex's in-neighbours in ascending order (a counting sort of the
// edges by target, scattered in source order so that every list comes out
// sorted): symmetric means every vertex's in- and out-neighbours are the
// same set, which two merges per vertex check in O(edges), where a search
// per edge would chase pointers into every list.
std::vector<VertexId> in_neighbours(const CsrGraph& graph, std::vector<uint64_t>& offsets) {
  offsets = count_to_offsets(count_occurrences(graph.out_targets, graph.num_vertices()));
  std::vector<uint64_t> next(offsets.begin(), offsets.end() - 1);
  std::vector<VertexId> sources(graph.num_edges());
  for (uint64_t v = 0; v < graph.num_vertices(); ++v)
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e)
      sources[next[graph.out_targets[e]]++] = static_cast<VertexId>(v);
  return sources;
}

// The first of `a`'s distinct values not in `b` (both ascending), or null.
const VertexId* first_missing(const VertexId* a, const VertexId* a_end, const VertexId* b,
                              const VertexId* b_end) {
  for (; a != a_end; ++a) {
    while (b != b_end && *b < *a) ++b;
    if (b == b_end || *b != *a) return a;
  }
  return nullptr;
}

void check_symmetric(const ProgramDescription& description, const CsrGraph& graph,
                     const SortedLists& lists) {
  std::vector<uint64_t> offsets;
  const std::vector<VertexId> sources = in_neighbours(graph, offsets);
  for (uint64_t v = 0; v < graph.num_vertices(); ++v) {
    const VertexId* in = sources.data() + offsets[v];
    const VertexId* in_end = sources.data() + offsets[v + 1];
    // v -> u without u -> v: u is an out-neighbour of v but not an in-neighbour.
    if (const VertexId* u = first_missing(lists.begin(v), lists.end(v), in, in_end))
      refuse(description, "that is symmetric", edge(v, *u) + " has no reverse",
             "build it with BuildOptions::symmetrize");
    if (const VertexId* u = first_missing(in, in_end, lists.begin(v), lists.end(v)))
      refuse(description, "that is symmetric", edge(*u, v) + " has no reverse",
             "build it with BuildOptions::symmetrize");
  }
}

void check_no_self_loops(const ProgramDescription& description, const CsrGraph& graph) {
  for (uint64_t v = 0; v < graph.num_vertices(); ++v)
    for (uint64_t e = graph.out_offsets[v]; e < graph.out_offsets[v + 1]; ++e)
      if (graph.out_targets[e] == v)
        refuse(description, "without self-loops", edge(v, v) + " is one",
               "build it with BuildOptions::drop_self_loops");
}

void check_no_duplicates(const ProgramDescription& description, const CsrGraph& graph,
                         const SortedLists& lists) {
  for (uint64_t v = 0; v < graph.num_vertices(); ++v)
    if (const VertexId* twin = std::adjacent_find(lists.begin(v), lists.end(v));
        twin != lists.end(v))
      refuse(description, "without repeated edges", edge(v, *twin) + " appears twice",
             "build it with BuildOptions::drop_duplicates");
}

void check_sorted(const ProgramDescription& description, const CsrGraph& graph) {
  if (!SortedLists::all_sorted(graph))
    refuse(description, "with sorted adjacency lists", "some vertex's list is not",
           "build it with BuildOptions::sort_adjacency");
}

bool requires_any(const ProgramDescription& description, std::initializer_list<Input> any) {
  for (Input requirement : description.requirements)
    if (std::find(any.begin(), any.end(), requirement) != any.end()) return true;
  return false;
}

}  // namespace

void check_library_graph(const ProgramDescription& description, const CsrGraph& graph) {
  try {
    graph.validate();  // the checks below index by its offsets and targets
  } catch (const std::logic_error& error) {
    throw std::invalid_argument(description.name + ": the graph is malformed: " + error.what());
  }
  if (requires_any(description, {Input::symmetric, Input::no_duplicates, Input::simple})) {
    const SortedLists lists(graph);
    if (requires_any(description, {Input::symmetric, Input::simple}))
      check_symmetric(description, graph, lists);
    if (requires_any(description, {Input::no_duplicates, Input::simple}))
      check_no_duplicates(description, graph, lists);
  }
  if (requires_any(description, {Input::no_self_loops, Input::simple}))
    check_no_self_loops(description, graph);
  if (requires_any(description, {Input::sorted})) check_sorted(description, graph);
  try {
    check_requirements(description, graph, "the graph");
  } catch (const InputError& error) {
    throw std::invalid_argument(error.what());
  }
}

}  // namespace irgl::lang
