#include "ledger.h"

#include <string_view>

namespace irgl::gpu::schedule::sim {

namespace {

constexpr uint64_t kNotInFrontier = ~uint64_t{0};
constexpr size_t kDescribedProblems = 12;

std::string vertex_text(VertexId v, uint64_t item) {
  return "vertex " + std::to_string(v) + " (item " + std::to_string(item) + ")";
}

}  // namespace

Ledger::Ledger(const Workload& work, BodyTraits traits)
    : work_(work),
      traits_(traits),
      item_of_(work.vertices(), kNotInFrontier),
      pre_count_(work.items(), 0),
      edge_count_(work.graph_edges(), 0),
      edge_stamp_(work.graph_edges()),
      edge_path_(work.graph_edges(), LoadPath::thread),
      post_count_(work.vertices(), 0),
      post_path_(work.vertices(), LoadPath::thread) {
  for (uint64_t i = 0; i < work.items(); ++i) item_of_[work.frontier[i]] = i;
}

void Ledger::report(std::string text) {
  if (problems_.size() < kDescribedProblems) problems_.push_back(std::move(text));
  ++problem_count_;
}

void Ledger::launch(const Grid& grid) {
  check_barrier_sites();
  if (launched_) ++kernel_;
  launched_ = true;
  sites_unchecked_ = true;
  grid_ = grid;
  kernel_grid_.push_back(grid);
  threads_.assign(grid.threads(), ThreadState{});
}

void Ledger::block_barrier(uint64_t block, const char* site) {
  for (uint64_t t = block * grid_.block_threads; t < (block + 1) * grid_.block_threads; ++t)
    thread_arrives(t, site);
}

void Ledger::thread_arrives(uint64_t thread, const char* site) {
  ThreadState& state = threads_[thread];
  ++state.block_syncs;
  state.site_hash = state.site_hash * 1000003u ^ std::hash<std::string_view>()(site);
}

void Ledger::group_sync(uint64_t first, uint32_t size) {
  for (uint64_t t = first; t < first + size; ++t) {
    ++threads_[t].group_syncs;
    threads_[t].group_first = first;
    threads_[t].group_size = size;
  }
}

// Per block, every thread must have passed the same barriers in the same
// order: compare each thread's count and hash of sites with thread 0's.
void Ledger::check_barrier_sites() {
  if (!sites_unchecked_) return;
  sites_unchecked_ = false;
  for (uint64_t block = 0; block < grid_.blocks; ++block) {
    const uint64_t first = block * grid_.block_threads;
    for (uint64_t t = first + 1; t < first + grid_.block_threads; ++t) {
      if (threads_[t].block_syncs == threads_[first].block_syncs &&
          threads_[t].site_hash == threads_[first].site_hash)
        continue;
      if (barrier_problems_.size() >= kDescribedProblems) return;
      const std::string where = "launch " + std::to_string(kernel_) + ", block " +
                                std::to_string(block) + ": threads " + std::to_string(first) +
                                " and " + std::to_string(t);
      if (threads_[t].block_syncs != threads_[first].block_syncs)
        barrier_problems_.push_back(where + " passed " +
                                    std::to_string(threads_[first].block_syncs) + " and " +
                                    std::to_string(threads_[t].block_syncs) + " barriers");
      else
        barrier_problems_.push_back(where + " reached their barriers at different call sites");
      break;
    }
  }
}

Ledger::Stamp Ledger::stamp(uint64_t thread) {
  ThreadState& state = threads_[thread];
  return {thread, kernel_, state.block_syncs, state.group_syncs, state.steps++};
}

bool Ledger::ordered(const Stamp& before, const Stamp& after) const {
  if (before.kernel != after.kernel) return before.kernel < after.kernel;
  if (before.thread == after.thread) return before.step < after.step;
  const uint64_t block = before.thread / grid_.block_threads;
  if (after.thread / grid_.block_threads == block && after.block_syncs > before.block_syncs)
    return true;
  const ThreadState& group = threads_[before.thread];
  const bool same_group =
      after.thread >= group.group_first && after.thread < group.group_first + group.group_size;
  return same_group && after.group_syncs > before.group_syncs;
}

bool Ledger::pre(uint64_t thread, uint64_t item, VertexId vertex) {
  stamp(thread);
  if (item >= work_.items() || work_.frontier[item] != vertex) {
    report("pre() of vertex " + std::to_string(vertex) + " as item " + std::to_string(item) +
            ", which is not that item's vertex");
    return false;
  }
  ++pre_count_[item];
  return work_.active[vertex];
}

void Ledger::edge(uint64_t thread, VertexId vertex, uint64_t edge, LoadPath path, Accum& accum) {
  ++edges_run_;
  const Stamp when = stamp(thread);
  const uint64_t item = vertex < work_.vertices() ? item_of_[vertex] : kNotInFrontier;
  if (item == kNotInFrontier || !work_.active[vertex] || edge < work_.edge_begin[vertex] ||
      edge >= work_.edge_end(vertex)) {
    report("edge " + std::to_string(edge) + " run for vertex " + std::to_string(vertex) +
            ", which is not an active frontier vertex owning it");
    return;
  }
  if (post_count_[vertex] > 0)
    report("edge " + std::to_string(edge) + " of " + vertex_text(vertex, item) +
            " run after its post()");
  if (edge_count_[edge] < 255) ++edge_count_[edge];
  edge_stamp_[edge] = when;
  edge_path_[edge] = path;
  accum.edges += 1;
  accum.id_sum += edge;
}

void Ledger::post(uint64_t thread, VertexId vertex, LoadPath path, const Accum& accum) {
  ++posts_run_;
  const Stamp when = stamp(thread);
  const uint64_t item = vertex < work_.vertices() ? item_of_[vertex] : kNotInFrontier;
  if (item == kNotInFrontier || !work_.active[vertex]) {
    report("post() of vertex " + std::to_string(vertex) + ", not an active frontier vertex");
    return;
  }
  if (++post_count_[vertex] > 1) {
    report("post() of " + vertex_text(vertex, item) + " run again");
    return;
  }
  post_path_[vertex] = path;
  const uint64_t begin = work_.edge_begin[vertex], degree = work_.degree[vertex];
  if (traits_.has_accum) {
    // Sum of the ids begin .. begin + degree - 1, avoiding (degree-1)/2 odd cases.
    const uint64_t id_sum = degree * begin + (degree % 2 == 0 ? degree / 2 * (degree - 1)
                                                             : (degree - 1) / 2 * degree);
    if (accum.edges != degree || accum.id_sum != id_sum)
      report("post() of " + vertex_text(vertex, item) + " got the accumulator of " +
              std::to_string(accum.edges) + " edges, expected " + std::to_string(degree));
  }
  for (uint64_t e = begin; e < begin + degree; ++e) {
    if (edge_count_[e] != 1) {
      report("post() of " + vertex_text(vertex, item) + " when its edge " + std::to_string(e) +
              " had run " + std::to_string(edge_count_[e]) + " times");
      return;
    }
    if (!ordered(edge_stamp_[e], when)) {
      report("post() of " + vertex_text(vertex, item) + " by thread " + std::to_string(thread) +
              " is not ordered after its edge " + std::to_string(e) + " (thread " +
              std::to_string(edge_stamp_[e].thread) + "): no barrier between them");
      return;
    }
  }
}

std::vector<std::string> Ledger::problems(const Expectations& expect) {
  for (uint64_t item = 0; item < work_.items(); ++item) {
    const VertexId v = work_.frontier[item];
    if (pre_count_[item] != 1)
      report("pre() of " + vertex_text(v, item) + " ran " + std::to_string(pre_count_[item]) +
              " times");
    if (!work_.active[v]) continue;  // anything it got was reported when it ran
    if (post_count_[v] != 1) report("post() of " + vertex_text(v, item) + " never ran");
    const LoadPath path = expect.path ? expect.path(v, item) : post_path_[v];
    if (post_count_[v] == 1 && post_path_[v] != path)
      report("post() of " + vertex_text(v, item) + " took path " + to_string(post_path_[v]) +
              ", expected " + to_string(path));
    for (uint64_t e = work_.edge_begin[v]; e < work_.edge_end(v); ++e) {
      if (edge_count_[e] != 1) {
        report("edge " + std::to_string(e) + " of " + vertex_text(v, item) + " ran " +
                std::to_string(edge_count_[e]) + " times");
        continue;
      }
      if (edge_path_[e] != path)
        report("edge " + std::to_string(e) + " of " + vertex_text(v, item) + " took path " +
                to_string(edge_path_[e]) + ", expected " + to_string(path));
      const Stamp& ran = edge_stamp_[e];
      if (expect.thread_ok &&
          !expect.thread_ok({v, item, e, ran.thread, ran.kernel, kernel_grid_[ran.kernel]}))
        report("edge " + std::to_string(e) + " of " + vertex_text(v, item) +
                " ran on thread " + std::to_string(ran.thread) + " of launch " +
                std::to_string(ran.kernel) + ", which should not have it");
    }
  }
  std::vector<std::string> all = problems_;
  if (problem_count_ > problems_.size())
    all.push_back("... " + std::to_string(problem_count_ - problems_.size()) + " more");
  return all;
}

std::vector<std::string> Ledger::barrier_problems() {
  check_barrier_sites();
  return barrier_problems_;
}

}  // namespace irgl::gpu::schedule::sim
