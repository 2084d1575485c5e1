#include "simulate.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace irgl::gpu::schedule::sim {

namespace {

constexpr uint32_t kWarp = 32;

// run_edges_sequentially.
void run_edges_sequentially(uint64_t thread, VertexId v, LoadPath path, Ledger& ledger) {
  Accum accum;
  const Workload& work = ledger.work();
  for (uint64_t e = work.edge_begin[v]; e < work.edge_end(v); ++e)
    ledger.edge(thread, v, e, path, accum);
  ledger.post(thread, v, path, accum);
}

// Every thread of every block calls body.flush() and counters.flush() at the
// end of each kernel: block barriers at one call site.
void flush_all(const Grid& grid, const char* site, Ledger& ledger) {
  for (uint64_t block = 0; block < grid.blocks; ++block) ledger.block_barrier(block, site);
}

// A reduction over a group's lanes (cooperative_groups::reduce,
// cub::BlockReduce): the combined value, after which the lanes are ordered.
Accum reduce(const std::vector<Accum>& lanes) {
  Accum total;
  for (const Accum& lane : lanes) combine(total, lane);
  return total;
}

// PartialAccum: a thread's partial accumulator for its current item.
struct PartialAccum {
  uint64_t item = ~uint64_t{0};
  Accum value;

  void switch_to(uint64_t next, ItemArrays& items, const Ledger& ledger) {
    if (next == item) return;
    flush(items, ledger);
    item = next;
  }
  void flush(ItemArrays& items, const Ledger& ledger) {
    if (!ledger.traits().has_accum) return;
    if (item != ~uint64_t{0}) combine(items.accums[item], value);  // atomic_combine
    value = Accum{};
  }
};

// PartialAccum::flush_warp: the warp's lanes (partials[0..32)) in runs of
// the same item, each run's sum added once.
void flush_warp(std::vector<PartialAccum>& lanes, ItemArrays& items, const Ledger& ledger) {
  if (!ledger.traits().has_accum) return;
  for (size_t first = 0; first < lanes.size();) {
    size_t end = first + 1;
    Accum sum = lanes[first].value;
    for (; end < lanes.size() && lanes[end].item == lanes[first].item; ++end)
      combine(sum, lanes[end].value);  // the segmented scan's shuffles
    if (lanes[first].item != ~uint64_t{0}) combine(items.accums[lanes[first].item], sum);
    first = end;
  }
  for (PartialAccum& lane : lanes) lane.value = Accum{};
}

}  // namespace

const char* to_string(Distribution distribution) {
  return distribution == Distribution::cyclic ? "cyclic" : "blocked";
}

ItemArrays::ItemArrays(uint64_t capacity)
    : vertices(capacity), begins(capacity), degrees(capacity), active(capacity),
      accums(capacity), offsets(capacity + 1) {}

//===----------------------------------------------------------------------===//
// Thread- and group-mapped
//===----------------------------------------------------------------------===//

void thread_mapped_kernel(const Grid& grid, Ledger& ledger) {
  ledger.launch(grid);
  const Workload& work = ledger.work();
  const uint64_t items = work.items();
  for (uint64_t thread = 0; thread < grid.threads(); ++thread) {
    for (uint64_t i = thread; i < items; i += grid.threads()) {
      const VertexId v = work.frontier[i];
      if (!ledger.pre(thread, i, v)) continue;
      run_edges_sequentially(thread, v, LoadPath::thread, ledger);
    }
  }
  flush_all(grid, "thread_mapped:flush", ledger);
}

namespace {

// block_group_kernel (groups of several warps): the block's groups advance in
// lockstep rounds separated by block-wide barriers.
void block_group_kernel(const Grid& grid, uint32_t group_size, Ledger& ledger) {
  ledger.launch(grid);
  const Workload& work = ledger.work();
  const uint32_t B = grid.block_threads, G = group_size, slots = B / G;
  const uint64_t items = work.items();
  const uint64_t groups = group_count(grid.blocks, B, G);
  for (uint64_t block = 0; block < grid.blocks; ++block) {
    for (uint64_t round = group_of(block, 0, B, G); round < items; round += groups) {
      std::vector<bool> active(slots);
      for (uint32_t slot = 0; slot < slots; ++slot) {
        const uint64_t i = round + slot;
        active[slot] = i < items && ledger.pre(block * B + slot * G, i, work.frontier[i]);
      }
      ledger.block_barrier(block, "block_group:broadcast");
      std::vector<Accum> lanes(B);
      for (uint32_t slot = 0; slot < slots; ++slot) {
        if (!active[slot]) continue;
        const VertexId v = work.frontier[round + slot];
        for (uint32_t rank = 0; rank < G; ++rank)
          for (uint64_t e = work.edge_begin[v] + rank; e < work.edge_end(v); e += G)
            ledger.edge(block * B + slot * G + rank, v, e, LoadPath::group, lanes[slot * G + rank]);
      }
      std::vector<Accum> totals(slots);
      if (ledger.traits().has_accum) {  // reduce_groups_in_shared: a barrier per tree level
        ledger.block_barrier(block, "block_group:reduce store");
        for (uint32_t half = G / 2; half > 0; half /= 2)
          ledger.block_barrier(block, "block_group:reduce level");
        for (uint32_t slot = 0; slot < slots; ++slot)
          totals[slot] = reduce(std::vector<Accum>(lanes.begin() + slot * G,
                                                   lanes.begin() + (slot + 1) * G));
      }
      ledger.block_barrier(block, "block_group:before post");
      for (uint32_t slot = 0; slot < slots; ++slot)
        if (active[slot])
          ledger.post(block * B + slot * G, work.frontier[round + slot], LoadPath::group,
                      ledger.traits().has_accum ? totals[slot] : lanes[slot * G]);
      ledger.block_barrier(block, "block_group:end of round");
    }
  }
  flush_all(grid, "block_group:flush", ledger);
}

}  // namespace

void group_mapped_kernel(const Grid& grid, uint32_t group_size, Ledger& ledger) {
  if (group_size > kWarp) return block_group_kernel(grid, group_size, ledger);
  ledger.launch(grid);
  const Workload& work = ledger.work();
  const uint32_t B = grid.block_threads, G = group_size;
  const uint64_t items = work.items();
  const uint64_t groups = group_count(grid.blocks, B, G);
  for (uint64_t block = 0; block < grid.blocks; ++block) {
    for (uint32_t first_lane = 0; first_lane < B; first_lane += G) {
      const uint64_t first = block * B + first_lane, leader = first;
      // The loop is uniform over the group only if every lane computes the
      // same group: check it, then run the lanes in lockstep.
      const uint64_t start = group_of(block, first_lane, B, G);
      for (uint32_t rank = 1; rank < G; ++rank)
        if (group_of(block, first_lane + rank, B, G) != start) {
          ledger.report("group_of: lanes of the group at thread " + std::to_string(first) +
                        " disagree on their group");
          return;
        }
      for (uint64_t i = start; i < items; i += groups) {
        const VertexId v = work.frontier[i];
        const bool active = ledger.pre(leader, i, v);
        ledger.group_sync(first, G);  // group.shfl(active, 0), group.shfl(closure, 0)
        if (!active) continue;
        const uint64_t begin = work.edge_begin[v], end = work.edge_end(v);
        std::vector<Accum> lanes(G);
        for (uint32_t rank = 0; rank < G; ++rank)
          for (uint64_t e = begin + rank; e < end; e += G)
            ledger.edge(first + rank, v, e, LoadPath::group, lanes[rank]);
        Accum accum = lanes[0];
        if (ledger.traits().has_accum) {
          accum = reduce(lanes);  // cg::reduce(group, ...)
          ledger.group_sync(first, G);
        } else {
          ledger.group_sync(first, G);  // group.sync() before post()
        }
        ledger.post(leader, v, LoadPath::group, accum);
      }
    }
  }
  flush_all(grid, "group_mapped:flush", ledger);
}

//===----------------------------------------------------------------------===//
// TWC
//===----------------------------------------------------------------------===//

namespace {

// One block of twc_kernel: its threads' registers and its shared memory.
class TwcBlock {
 public:
  TwcBlock(const Grid& grid, uint64_t block, HugeList* huge, Ledger& ledger)
      : grid_(grid), block_(block), B_(grid.block_threads), huge_(huge),
        hands_over_(huge && !ledger.traits().has_accum), ledger_(ledger), work_(ledger.work()), v_(B_), begin_(B_), end_(B_), degree_(B_), pending_(B_),
        packed_offset_(B_), packed_begin_(B_), packed_vertex_(B_), packed_accum_(B_) {}

  void run() {
    const uint64_t items = work_.items();
    const uint32_t per_warp = twc_items_per_warp(items, grid_.blocks * (B_ / kWarp));
    const uint32_t tile_items = per_warp * (B_ / kWarp);
    for (uint64_t base = block_ * tile_items; base < items; base += grid_.blocks * tile_items) {
      if (hands_over_) blocks_done_ = read_blocks_done();
      inspect(base, items, per_warp);
      block_bin();
      for (uint32_t warp = 0; warp < B_ / kWarp; ++warp) warp_bin(warp);
      fine_grained();
    }
    if (hands_over_) ++huge_->blocks_done;  // atomicAdd(huge.blocks_done(), 1)
    ledger_.block_barrier(block_, "twc:flush");
  }

 private:
  uint64_t thread(uint32_t t) const { return block_ * B_ + t; }

  uint64_t read_blocks_done() const { return huge_->blocks_in_order ? huge_->blocks_done : 0; }

  void set_aside(uint32_t t) {
    ItemArrays& list = *huge_->items;
    const uint64_t slot = list.count++;  // atomicAdd
    list.vertices[slot] = v_[t];
    list.begins[slot] = begin_[t];
    list.degrees[slot] = degree_[t];
    list.accums[slot] = Accum{};
    pending_[t] = false;
  }

  // pre() and, with ALB, setting huge vertices aside.
  void inspect(uint64_t base, uint64_t items, uint32_t per_warp) {
    for (uint32_t t = 0; t < B_; ++t) {
      const uint64_t i = twc_tile_item(base, t / kWarp, t % kWarp, per_warp);
      v_[t] = 0;
      begin_[t] = end_[t] = 0;
      pending_[t] = false;
      if (i < items) {
        v_[t] = work_.frontier[i];
        if (ledger_.pre(thread(t), i, v_[t])) {
          begin_[t] = work_.edge_begin[v_[t]];
          end_[t] = work_.edge_end(v_[t]);
          pending_[t] = true;
        }
      }
      degree_[t] = end_[t] - begin_[t];
      if (huge_ && pending_[t] && alb_is_huge(degree_[t], huge_->threshold)) set_aside(t);
    }
  }

  bool in_block_bin(uint32_t t) const { return pending_[t] && twc_bin(degree_[t], B_) == TwcBin::block; }

  // One vertex at a time (the lowest-numbered pending one of the bin), all
  // threads on its edges; with ALB, the rest set aside once half of the grid
  // is done (one hand-over per tile).
  void block_bin() {
    bool handed_over = false;
    for (uint32_t round = 0;; ++round) {
      if (round > B_ + 1) {  // each round but a hand-over takes a vertex: the kernel would hang
        ledger_.report("twc block bin of block " + std::to_string(block_) + " does not end");
        return;
      }
      const bool hand_over = hands_over_ && !handed_over && alb_hands_over(blocks_done_, grid_.blocks);
      int block_owner = -1;
      for (uint32_t t = 0; t < B_ && block_owner < 0; ++t)  // ballots into shared memory
        if (in_block_bin(t)) block_owner = int(t);
      ledger_.block_barrier(block_, "twc:block-bin elect");
      if (block_owner < 0) break;
      if (hand_over) {
        handed_over = true;
        for (uint32_t t = 0; t < B_; ++t)
          if (in_block_bin(t)) set_aside(t);
        continue;
      }
      const uint32_t owner = uint32_t(block_owner);
      const VertexId owner_vertex = v_[owner];
      const uint64_t owner_begin = begin_[owner], owner_end = end_[owner];
      pending_[owner] = false;
      ledger_.block_barrier(block_, "twc:block-bin owner");
      if (hands_over_) blocks_done_ = read_blocks_done();
      std::vector<Accum> accums(B_);
      for (uint32_t t = 0; t < B_; ++t)
        for (uint64_t e = owner_begin + t; e < owner_end; e += B_)
          ledger_.edge(thread(t), owner_vertex, e, LoadPath::block, accums[t]);
      Accum owner_accum;
      if (ledger_.traits().has_accum) {
        owner_accum = reduce(accums);  // BlockReduce: barriers inside
        ledger_.block_barrier(block_, "cub:block-reduce");
      }
      ledger_.block_barrier(block_, "twc:block-bin edges done");
      ledger_.post(thread(owner), v_[owner], LoadPath::block, owner_accum);
    }
  }

  // One vertex at a time per warp: the lowest pending lane of the bin.
  void warp_bin(uint32_t warp) {
    const uint32_t first = warp * kWarp;
    for (uint32_t round = 0;; ++round) {
      if (round > kWarp) {  // each round takes one of the warp's vertices
        ledger_.report("twc warp bin of thread " + std::to_string(thread(first)) + " does not end");
        return;
      }
      uint32_t candidates = 0;
      for (uint32_t lane = 0; lane < kWarp; ++lane)
        if (pending_[first + lane] && twc_bin(degree_[first + lane], B_) == TwcBin::warp)
          candidates |= 1u << lane;
      ledger_.group_sync(thread(first), kWarp);  // warp.ballot, then the shuffles
      if (candidates == 0) break;
      const uint32_t leader = first + uint32_t(__builtin_ctz(candidates));  // __ffs - 1
      const VertexId warp_vertex = v_[leader];
      const uint64_t warp_begin = begin_[leader], warp_end = end_[leader];
      pending_[leader] = false;
      std::vector<Accum> lanes(kWarp);
      for (uint32_t lane = 0; lane < kWarp; ++lane)
        for (uint64_t e = warp_begin + lane; e < warp_end; e += kWarp)
          ledger_.edge(thread(first + lane), warp_vertex, e, LoadPath::warp, lanes[lane]);
      Accum accum = lanes[leader - first];
      if (ledger_.traits().has_accum) {
        accum = reduce(lanes);  // cg::reduce(warp, ...)
        ledger_.group_sync(thread(first), kWarp);
      } else {
        ledger_.group_sync(thread(first), kWarp);  // warp.sync() before post()
      }
      ledger_.post(thread(leader), v_[leader], LoadPath::warp, accum);
    }
  }

  // The remaining edges packed over the block through an exclusive scan;
  // without any, the pending (edgeless) vertices' post() and no barrier.
  void fine_grained() {
    uint32_t total = 0;
    for (uint32_t t = 0; t < B_; ++t) {  // BlockScan::ExclusiveSum
      packed_offset_[t] = total;
      total += pending_[t] ? uint32_t(degree_[t]) : 0;
    }
    ledger_.block_barrier(block_, "cub:block-scan");
    if (total == 0) {
      for (uint32_t t = 0; t < B_; ++t)
        if (pending_[t]) ledger_.post(thread(t), v_[t], LoadPath::fine, Accum{});
      return;
    }
    for (uint32_t t = 0; t < B_; ++t) {
      packed_begin_[t] = begin_[t];
      packed_vertex_[t] = v_[t];
      packed_accum_[t] = Accum{};
    }
    ledger_.block_barrier(block_, "twc:packed");
    for (uint32_t t = 0; t < B_; ++t) {
      for (uint64_t k = t; k < total; k += B_) {
        const uint64_t owner = owning_tile(packed_offset_.data(), B_, k);
        Accum accum;
        ledger_.edge(thread(t), packed_vertex_[owner],
                     packed_begin_[owner] + (k - packed_offset_[owner]), LoadPath::fine, accum);
        if (ledger_.traits().has_accum) combine(packed_accum_[owner], accum);  // shared atomic
      }
    }
    ledger_.block_barrier(block_, "twc:fine edges done");
    for (uint32_t t = 0; t < B_; ++t)
      if (pending_[t]) ledger_.post(thread(t), v_[t], LoadPath::fine, packed_accum_[t]);
  }

  const Grid& grid_;
  const uint64_t block_;
  const uint32_t B_;
  HugeList* huge_;
  const bool hands_over_;  // HugeList::kHandsOver: a Body without accumulators
  Ledger& ledger_;
  const Workload& work_;
  uint64_t blocks_done_ = 0;  // thread 0's read of huge_->blocks_done
  // Registers, one per thread.
  std::vector<VertexId> v_;
  std::vector<uint64_t> begin_, end_, degree_;
  std::vector<uint8_t> pending_;
  // Shared memory.
  std::vector<uint32_t> packed_offset_;
  std::vector<uint64_t> packed_begin_;
  std::vector<VertexId> packed_vertex_;
  std::vector<Accum> packed_accum_;
};

}  // namespace

void twc_kernel(const Grid& grid, HugeList* huge, Ledger& ledger) {
  ledger.launch(grid);
  for (uint64_t block = 0; block < grid.blocks; ++block) TwcBlock(grid, block, huge, ledger).run();
}

//===----------------------------------------------------------------------===//
// Edge-balanced
//===----------------------------------------------------------------------===//

void gather_kernel(const Grid& grid, ItemArrays& items, Ledger& ledger) {
  ledger.launch(grid);
  const Workload& work = ledger.work();
  const uint64_t count = work.items();
  for (uint64_t thread = 0; thread < grid.threads(); ++thread) {
    for (uint64_t i = thread; i < count; i += grid.threads()) {
      const VertexId v = work.frontier[i];
      const bool active = ledger.pre(thread, i, v);
      items.vertices[i] = v;
      items.active[i] = active;
      const uint64_t begin = active ? work.edge_begin[v] : 0;
      items.begins[i] = begin;
      items.degrees[i] = active ? work.edge_end(v) - begin : 0;
      items.accums[i] = Accum{};
    }
  }
  flush_all(grid, "gather:flush", ledger);
}

void prefix_sum(ItemArrays& items) {
  items.offsets[0] = 0;
  std::inclusive_scan(items.degrees.begin(), items.degrees.begin() + items.count,
                      items.offsets.begin() + 1);
}

void edge_balanced_kernel(const Grid& grid, Distribution distribution, ItemArrays& items,
                          LoadPath path, Ledger& ledger) {
  ledger.launch(grid);
  const uint64_t count = items.count;
  const uint64_t total = items.offsets[count];
  std::vector<PartialAccum> lanes(kWarp);  // a warp's partials
  auto process = [&](uint64_t thread, uint64_t item, uint64_t atom) {
    ledger.edge(thread, items.vertices[item], items.begins[item] + (atom - items.offsets[item]),
                path, lanes[thread % kWarp].value);
  };
  for (uint64_t first = 0; first < grid.threads(); first += kWarp) {
    std::fill(lanes.begin(), lanes.end(), PartialAccum{});
    if (distribution == Distribution::cyclic) {
      // The warp's lanes step together; when one moves to another item the
      // warp flushes by runs (flush_warp).
      const CyclicAtoms atoms = cyclic_atoms(first, grid.threads(), total);
      for (uint64_t step = atoms.begin(); atoms.valid(step); step = atoms.next(step)) {
        std::vector<uint64_t> next(kWarp);
        bool moves = false;
        for (uint64_t lane = 0; lane < kWarp; ++lane) {
          const uint64_t atom = step + lane;
          next[lane] = atom < total ? owning_tile(items.offsets.data(), count, atom) : lanes[lane].item;
          moves |= next[lane] != lanes[lane].item;
        }
        if (moves) flush_warp(lanes, items, ledger);
        for (uint64_t lane = 0; lane < kWarp; ++lane) {
          lanes[lane].item = next[lane];
          if (step + lane < total) process(first + lane, next[lane], step + lane);
        }
      }
    } else {
      for (uint64_t lane = 0; lane < kWarp; ++lane) {
        const IndexRange atoms = blocked_atoms(first + lane, grid.threads(), total);
        for (uint64_t atom = atoms.begin; atom < atoms.end; ++atom) {
          const uint64_t item = owning_tile(items.offsets.data(), count, atom);
          lanes[lane].switch_to(item, items, ledger);
          process(first + lane, item, atom);
        }
      }
    }
    flush_warp(lanes, items, ledger);  // partial.flush_warp(items): the whole warp
    for (uint64_t t = first; t < first + kWarp; ++t) ledger.thread_arrives(t, "edge_balanced:flush");
  }
}

void merge_path_kernel(const Grid& grid, ItemArrays& items, LoadPath path, Ledger& ledger) {
  ledger.launch(grid);
  const uint64_t count = items.count;
  const uint64_t total = items.offsets[count];
  const uint64_t* ends = items.offsets.data() + 1;
  for (uint64_t thread = 0; thread < grid.threads(); ++thread) {
    const IndexRange share = merge_path_share(thread, grid.threads(), count, total);
    MergeCoordinate at;
    if (share.size() > 0) at = merge_path_search(share.begin, ends, count, total);
    PartialAccum partial;
    for (uint64_t step = share.begin; step < share.end; ++step) {
      if (at.tile < count && at.atom < ends[at.tile]) {
        partial.switch_to(at.tile, items, ledger);
        ledger.edge(thread, items.vertices[at.tile],
                    items.begins[at.tile] + (at.atom - items.offsets[at.tile]), path, partial.value);
        ++at.atom;
      } else {
        ++at.tile;  // the end of an item
      }
    }
    partial.flush(items, ledger);
    ledger.thread_arrives(thread, "merge_path:flush");
  }
}

void post_kernel(const Grid& grid, const ItemArrays& items, LoadPath path, Ledger& ledger) {
  ledger.launch(grid);
  const uint64_t count = items.count;
  for (uint64_t thread = 0; thread < grid.threads(); ++thread)
    for (uint64_t i = thread; i < count; i += grid.threads())
      if (items.active[i])
        ledger.post(thread, items.vertices[i], path,
                    ledger.traits().has_accum ? items.accums[i] : Accum{});
  flush_all(grid, "post:flush", ledger);
}

//===----------------------------------------------------------------------===//
// Policies
//===----------------------------------------------------------------------===//

namespace {

// detail::run_items.
void run_items(const Grid& grid, ItemArrays& items, bool merge_path, Distribution distribution,
               LoadPath path, Ledger& ledger) {
  prefix_sum(items);
  if (merge_path) merge_path_kernel(grid, items, path, ledger);
  else edge_balanced_kernel(grid, distribution, items, path, ledger);
  post_kernel(grid, items, path, ledger);  // the simulated Body has a post()
}

}  // namespace

void edge_balanced_schedule(const Grid& grid, bool merge_path, Distribution distribution,
                            Ledger& ledger) {
  const uint64_t count = ledger.work().items();
  if (count == 0) return;
  ItemArrays items(count);
  items.count = count;  // store_count_kernel
  gather_kernel(grid, items, ledger);
  run_items(grid, items, merge_path, distribution, LoadPath::edge, ledger);
}

AlbRun alb_schedule(const Grid& grid, const AlbOptions& options, Ledger& ledger) {
  const Workload& work = ledger.work();
  AlbRun run;
  run.threshold = alb_threshold(options.threshold, grid.threads(), ledger.traits().has_accum);
  if (!alb_inspects(work.max_degree(), run.threshold)) {
    twc_kernel(grid, nullptr, ledger);
    return run;
  }
  run.inspected = true;
  const uint64_t capacity = work.items();
  if (capacity == 0) return run;
  ItemArrays items(capacity);
  HugeList huge{run.threshold, &items, options.blocks_in_order};
  items.count = 0;  // State::clear_counters (huge.blocks_done too)
  twc_kernel(grid, &huge, ledger);
  run.huge_count = items.count;
  run.huge_vertices.assign(items.vertices.begin(), items.vertices.begin() + items.count);
  if (run.huge_count == 0) return run;
  std::fill(items.active.begin(), items.active.begin() + items.count, 1);
  run_items(grid, items, false, options.distribution, LoadPath::huge, ledger);
  return run;
}

}  // namespace irgl::gpu::schedule::sim
