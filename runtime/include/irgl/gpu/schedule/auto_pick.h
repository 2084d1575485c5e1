// What --schedule=auto runs (auto.cuh): a schedule chosen at run time, per
// launch, from the graph's degrees and the loop's shape, by the first rule
// of kAutoRules that matches. Plain C++: host unit tests include it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "irgl/support/host_device.h"

namespace irgl::gpu::schedule {

// The schedules auto chooses from (schedules.cuh), in the order of
// AutoPolicy (auto.cuh).
enum class AutoPick : uint8_t { thread, warp, block, twc, lb, merge_path, alb };
inline constexpr unsigned kAutoPicks = 7;
// "thread", "warp", "block", "twc", "lb", "merge-path", "alb".
const char* to_string(AutoPick pick);

// What a run knows about its graph's out-degrees (irgl/lang/cuda_run.h
// fills it once per graph); vertices == 0: nothing known, auto runs ALB.
struct GraphShape {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  uint64_t max_degree = 0;
  double deviation = 0;  // of the out-degrees (population)
  // The share of the edges on the 1% of vertices of largest degree
  // (irgl/graph/stats.h: TopDegrees); 1 until measured, the side
  // on which auto's rules keep ALB.
  double hub_share = 1;

  bool known() const { return vertices != 0; }
  double mean() const { return vertices ? double(edges) / double(vertices) : 0.0; }
};

// The shape of a CSR's out-degrees: offsets[0..vertices] (host memory).
GraphShape shape_of_degrees(const uint64_t* offsets, uint64_t vertices);

// What a launch covers. A round is light when it has at most as many items
// as the line between light and heavy rounds (heavy_round.h): every round
// inside a persistent kernel under --outline=auto, and a host round whose
// size the host knows to be that small.
enum class LoopPlace : uint8_t {
  all_nodes,    // every vertex
  light_round,  // a worklist round of few items
  heavy_round   // a worklist round of many items, or of a size the host does not know
};

struct LoopShape {
  LoopPlace place = LoopPlace::all_nodes;
  bool accumulates = false;       // the Body reduces over a vertex's edges
  bool edge_work_varies = false;  // the edge body loops (e.g. tc): edges of unequal cost
  uint64_t items = ~uint64_t{0};  // a round's size, when the host knows it
};

// One rule: a launch matches when its place and edge-work flag are among
// those listed and the graph's degrees are within the bounds.
struct AutoRule {
  unsigned places;                     // bit (1 << LoopPlace) per place it applies to
  int edge_work_varies;                // 0, 1, or -1: either
  uint64_t max_degree_at_most;         // the graph's largest out-degree
  double mean_at_least, mean_at_most;  // its average out-degree
  double hub_share_at_most;            // GraphShape::hub_share
  AutoPick pick;
};

inline constexpr unsigned place_bit(LoopPlace place) { return 1u << unsigned(place); }
inline constexpr unsigned kAnyPlace = 7;
inline constexpr uint64_t kAnyDegree = ~uint64_t{0};
inline constexpr double kAnyMean = 1e300;
inline constexpr double kAnyShare = 1;
inline constexpr unsigned kRounds =
    place_bit(LoopPlace::light_round) | place_bit(LoopPlace::heavy_round);

// The rules, first match wins; the last matches everything. Fitted on the
// benchmark set: the 20 real graphs, RMAT 22 and a 1000x1000 grid, every
// example under every schedule, on an H100
// (docs/experiments/2026-11-26-auto-schedule.md has the data and the
// cells where auto is not within 10% of the best fixed schedule).
inline constexpr AutoRule kAutoRules[] = {
    // Edges of unequal cost (tc). Sparse, even degrees: a thread walks a
    // vertex's edges (roads, grid: 2.0-6.2x faster than ALB); small
    // degrees: a warp per vertex (meshes, small graphs: 1.1-2.5x);
    // hubs: every edge spread over the grid.
    {kAnyPlace, 1, 16, 0, 4, kAnyShare, AutoPick::thread},
    {kAnyPlace, 1, 256, 0, kAnyMean, kAnyShare, AutoPick::warp},
    {kAnyPlace, 1, kAnyDegree, 0, kAnyMean, kAnyShare, AutoPick::lb},
    // Over all vertices, sparse and even (roads, grid): a thread per vertex
    // (pr, spmv: 1.1-1.7x faster than ALB).
    {place_bit(LoopPlace::all_nodes), 0, 32, 0, 4, kAnyShare, AutoPick::thread},
    // No vertex above a warp's width (roads, grid, small graphs): a warp per
    // vertex keeps the fixed cost of a round lowest (bfs, sssp, cc, kcore
    // 1.1-1.3x faster than ALB).
    {kAnyPlace, 0, 32, 0, kAnyMean, kAnyShare, AutoPick::warp},
    // Dense rows without hubs (FEM matrices, mean degree 42-118): a block
    // per vertex for traversals (1.2-2.1x faster than ALB); a warp over all
    // vertices (spmv 2x).
    {kRounds, 0, 256, 24, kAnyMean, kAnyShare, AutoPick::block},
    {kAnyPlace, 0, 256, 0, kAnyMean, kAnyShare, AutoPick::warp},
    // Web and social graphs, whose top 1% of vertices hold 0.05-0.35 of the
    // edges (cnr-2000, uk-2007, ego-twitter, musae; directed, symmetrized
    // or simple: cnr-2000's simple graph 0.3455, a thin margin): the rounds' edges merged over the grid (H200: cc on musae,
    // cnr-2000 and uk-2007 1.2-1.4x faster than ALB, bfs and sssp up to
    // 1.5x). Not RMAT 16-22, whose top 1% hold 0.43-0.58 (0.37-0.49
    // without duplicate edges), where merge-path loses cc (RMAT 16: 1.9x)
    // or sssp and cc (RMAT 20: 2.1-2.3x). docs/schedules.md has the tables.
    {kRounds, 0, kAnyDegree, 7, kAnyMean, 0.35, AutoPick::merge_path},
    // Hubs: ALB (TWC, and the hubs' edges spread over the grid).
    {kAnyPlace, -1, kAnyDegree, 0, kAnyMean, kAnyShare, AutoPick::alb},
};

// The first rule of `rules` that the launch matches (ALB when the graph is
// unknown or none matches).
template <size_t N>
AutoPick auto_pick(const GraphShape& graph, const LoopShape& loop, const AutoRule (&rules)[N]) {
  if (!graph.known()) return AutoPick::alb;
  const double mean = graph.mean();
  for (const AutoRule& rule : rules) {
    if (!(rule.places & place_bit(loop.place))) continue;
    if (rule.edge_work_varies >= 0 && bool(rule.edge_work_varies) != loop.edge_work_varies)
      continue;
    if (graph.max_degree > rule.max_degree_at_most) continue;
    if (mean < rule.mean_at_least || mean > rule.mean_at_most) continue;
    if (graph.hub_share > rule.hub_share_at_most) continue;
    return rule.pick;
  }
  return AutoPick::alb;
}
inline AutoPick auto_pick(const GraphShape& graph, const LoopShape& loop) {
  return auto_pick(graph, loop, kAutoRules);
}

// Auto's tuning, the second parameter of its policy (auto.cuh: Auto<B,
// Tuning>): a kernel or program of a user's own may choose by other rules.
struct AutoTuning {
  static constexpr auto& kRules = kAutoRules;
  // Where the rules pick warp, a worklist round of more than this many
  // items per SM (or of a size the host does not know) runs TWC instead: a
  // warp per vertex has the least fixed cost, which rounds of a vertex or
  // less per warp of the GPU pay most for, but idles lanes once warps take
  // several low-degree vertices each, which TWC packs; and only a warp's
  // rounds chain their pushes (body.h). H200, 7 roads, the 1000x1000 grid
  // and bips98_606 x bfs, sssp, cc, kcore, against the faster of the warp
  // and TWC builds, geomean (cells above 1.10 of 36): 0.854 (4) at 32 per
  // SM, 0.839 (1) at 128, 0.862 (3) at 512, 0.901 (9) with no line; at 128
  // luxembourg's cc 3.53 ms against 4.18 at 32, moscow_roads.gr's sssp 5.21
  // against 6.42; without a line the grid's sssp 23.3 against 15.2
  // (docs/experiments/2026-12-01-auto-lines.md).
  static constexpr uint64_t kWarpRoundItemsPerSm = 128;
  // Where the rules pick block (dense rows without hubs), a worklist round
  // of more than this many items per SM runs a warp per vertex instead: a
  // block per vertex spreads a few rows' edges widest, but once each block
  // takes several rows in turn, a warp per row keeps 8 times as many rows
  // in flight on rows of a few dozen edges. H200, medians of three
  // processes: cc on bcsstk16 0.210 ms against 0.367 with block for every
  // round (the warp build 0.211), cc and sssp on bcsstk13 0.097 and 0.150
  // against 0.135 and 0.173; bfs keeps block's small rounds (bcsstk13
  // 0.072, at 4 per SM 0.083)
  // (docs/experiments/2026-12-01-auto-lines.md).
  static constexpr uint64_t kBlockRoundItemsPerSm = 8;
  // Where the rules pick merge-path (web graphs), a worklist round of at
  // most this many items per SM runs TWC instead: merging a round's edges
  // costs a gather, a scan and a search, each a pass of the grid, which a
  // round of a few items does not earn back; TWC bins them in one pass,
  // and gives a hub a block (a warp per vertex took musae's bfs from its
  // hub 0.31 ms against merge-path's 0.13). H200, the 4 web graphs x bfs,
  // sssp, cc, kcore, geomean over the fastest of the TWC, warp, merge-path
  // and ALB builds and the rules before (cells above 1.10 of 16): 1.160
  // (9) with a line of 1 item, 1.090 (8) at 2 per SM, 1.063 (7) at 8,
  // 1.044 (6) at 32, 1.043 (4) at 128, which took ego-twitter's bfs 0.232
  // ms against 0.197 at 32 (docs/experiments/2026-12-01-hub-share.md).
  static constexpr uint64_t kMergePathTwcItemsPerSm = 32;
  // A pipe loop's rounds on one block (outline.cuh: OneBlockLoops) run a
  // warp per vertex on graphs of at least this many out-edges a vertex on
  // average, else a thread per item: a thread walks a road's two or three
  // edges sooner than a warp takes its share of the block's passes, a warp
  // a denser vertex's edges sooner than a thread. H200, bfs, sssp, cc and
  // kcore, geomean of thread's time over warp's in three runs: minnesota,
  // rome99, monaco (mean 2.5-2.7) 0.47-0.55, polbooks (8.4) 1.15;
  // west0067, karate, dolphins (4.4-5.1) 1.02-1.12, but with the line at 4
  // cc on the symmetrized monaco (mean 5.4) took 0.574 ms against
  // thread's 0.180 (docs/experiments/2026-12-01-auto-confirmed.md).
  static constexpr double kOneBlockWarpMeanDegree = 6.0;
  // Below that mean, a round on one block of at most this many items per
  // out-edge a vertex has on average runs a warp per vertex: a thread per
  // item walks its vertex's edges one after another, the block's warps
  // each a vertex's at once, so warps finish a round of fewer items than
  // warps times edges sooner. H200, 10 graphs of mean degree 2.1-5.1 x
  // bfs, sssp, cc, kcore, geomean over the faster of the warp and thread
  // builds: 0.994 at 8, 0.998 at a line of 16 or 32 items, 1.019 at 64,
  // 1.009 at 1 (a warp for single items only); karate's sssp 0.054 ms
  // against 0.061 at 1 (docs/experiments/2026-12-01-auto-lines.md).
  static constexpr double kOneBlockWarpItemsPerMeanDegree = 8.0;
};

// The schedule of a pipe loop's rounds on one block: warp or thread, by
// the graph's mean degree (Tuning::kOneBlockWarpMeanDegree).
template <class Tuning>
AutoPick one_block_round_pick(const GraphShape& graph) {
  return graph.known() && graph.mean() >= Tuning::kOneBlockWarpMeanDegree ? AutoPick::warp
                                                                          : AutoPick::thread;
}

// The round sizes at which auto hands a worklist round from its pick to
// another schedule (AutoTuning has the defaults and why).
struct RoundLines {
  uint64_t warp_items = ~uint64_t{0};   // more items: warp's round runs TWC
  uint64_t block_items = ~uint64_t{0};  // more items: block's round runs a warp per vertex
  uint64_t merge_path_twc_items = 0;    // at most this many: merge-path's round runs TWC
  // At most this many items: a round on one block that runs a thread per
  // item runs a warp per vertex.
  uint64_t one_block_warp_items = 0;
};

// The schedule of a worklist round of `items` items (~0: a size not known)
// where auto picked `pick`, handed on at a line (RoundLines): warp's large
// rounds and merge-path's small ones to TWC; block's large rounds and, on
// one block, a thread per item's small ones to a warp per vertex. The host's
// launches (launch_pick) and a persistent kernel's rounds (auto.cuh) both
// hand over here.
IRGL_HD constexpr AutoPick round_pick(AutoPick pick, uint64_t items, const RoundLines& lines,
                                      bool on_one_block) {
  switch (pick) {
    case AutoPick::warp: return items > lines.warp_items ? AutoPick::twc : pick;
    case AutoPick::block: return items > lines.block_items ? AutoPick::warp : pick;
    case AutoPick::merge_path: return items <= lines.merge_path_twc_items ? AutoPick::twc : pick;
    case AutoPick::thread:
      return on_one_block && items <= lines.one_block_warp_items ? AutoPick::warp : pick;
    default: return pick;
  }
}

// Whether round_pick may hand a round of `from` to `to`: a persistent
// kernel built for `from` compiles in `to`'s step only then.
IRGL_HD constexpr bool hands_rounds_to(AutoPick from, AutoPick to) {
  if (to == AutoPick::twc) return from == AutoPick::warp || from == AutoPick::merge_path;
  if (to == AutoPick::warp) return from == AutoPick::block || from == AutoPick::thread;
  return false;
}

// The schedule of one host launch: the first matching rule of `rules`,
// with a worklist round handed on at a line (round_pick). Passes over all
// vertices keep the rules' pick.
template <size_t N>
AutoPick launch_pick(const GraphShape& graph, const LoopShape& loop, const RoundLines& lines,
                     const AutoRule (&rules)[N]) {
  const AutoPick pick = auto_pick(graph, loop, rules);
  if (loop.place == LoopPlace::all_nodes) return pick;
  return round_pick(pick, loop.items, lines, false);
}
inline AutoPick launch_pick(const GraphShape& graph, const LoopShape& loop,
                            const RoundLines& lines) {
  return launch_pick(graph, loop, lines, kAutoRules);
}

// What auto ran in one run, for the program's run summary: the launches of
// each launch site per pick, and the pick of each outlined loop's persistent
// kernel (once per run of the loop). Owned by the run (irgl/lang/cuda_run.h)
// and reached through RunOptions::auto_log; nothing is recorded without one.
class AutoLog {
 public:
  void record_launch(const char* kernel, AutoPick pick) { count(kernel, pick, false); }
  void record_persistent(const char* kernel, AutoPick pick) { count(kernel, pick, true); }
  void clear() { sites_.clear(); }
  bool empty() const { return sites_.empty(); }
  // "schedule auto: relax 3 warp, 12 twc; relax in a persistent kernel 1 warp",
  // sites in the order of their first launch; empty when nothing ran.
  std::string summary() const;

 private:
  struct Site {
    std::string kernel;
    bool persistent;
    uint64_t launches[kAutoPicks];
  };
  void count(const char* kernel, AutoPick pick, bool persistent);
  std::vector<Site> sites_;
};

}  // namespace irgl::gpu::schedule
