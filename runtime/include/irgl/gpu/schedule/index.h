// The index arithmetic of the load-balancing schedules: which tiles (active
// vertices) and atoms (edges) each thread takes. Pure IRGL_HD functions, so
// host unit tests can simulate a whole grid and check that every atom is
// processed exactly once (tests/unit/schedule/).
//
// Vocabulary (paper 000): a tile is a vertex of the frontier (its position
// `item` in the frontier), its atoms are its edges; a schedule maps tiles or
// atoms to threads. Work counts are 64-bit throughout: a frontier's edges may
// exceed 2^32, and no count goes through floating point.
#pragma once

#include <cstdint>

#include "irgl/support/host_device.h"

namespace irgl::gpu::schedule {

// A half-open range [begin, end) of indices.
struct IndexRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  IRGL_HD uint64_t size() const { return end > begin ? end - begin : 0; }
};

// ceil(a / b) for b > 0, in integers.
IRGL_HD inline uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

//===----------------------------------------------------------------------===//
// Tiles to threads and groups
//===----------------------------------------------------------------------===//

// Grid-stride: worker w of `workers` takes indices w, w + workers, ... < count.
// (Thread-mapped: workers are threads; group-mapped: workers are groups.)
IRGL_HD inline uint64_t first_index(uint64_t worker) { return worker; }
IRGL_HD inline uint64_t next_index(uint64_t index, uint64_t workers) { return index + workers; }

// The group a thread belongs to when blocks of `block_threads` threads are cut
// into groups of `group_size` consecutive threads, numbered across the grid.
// A block holds block_threads / group_size whole groups; when group_size does
// not divide block_threads, its last threads belong to none (in_whole_group).
IRGL_HD inline uint64_t group_of(uint64_t block, uint32_t thread, uint32_t block_threads,
                                 uint32_t group_size) {
  return block * (block_threads / group_size) + thread / group_size;
}
IRGL_HD inline uint64_t group_count(uint64_t blocks, uint32_t block_threads, uint32_t group_size) {
  return blocks * (block_threads / group_size);
}
IRGL_HD inline bool in_whole_group(uint32_t thread, uint32_t block_threads, uint32_t group_size) {
  return thread < block_threads / group_size * group_size;
}

//===----------------------------------------------------------------------===//
// TWC: degree bins
//===----------------------------------------------------------------------===//

enum class TwcBin : uint8_t { fine = 0, warp = 1, block = 2 };

// Merrill et al.'s bins: the block bin holds vertices with at least
// block_threads edges, the warp bin those with at least 32, the rest are
// fine-grained (their edges packed over the block through a scan).
IRGL_HD inline TwcBin twc_bin(uint64_t degree, uint32_t block_threads) {
  if (degree >= block_threads) return TwcBin::block;
  if (degree >= 32) return TwcBin::warp;
  return TwcBin::fine;
}

// TWC's tiles: a block takes warps * per_warp frontier items at a time, lane
// l < per_warp of warp w the item w * per_warp + l of the tile. per_warp is
// 32 (an item per thread, Merrill et al.'s tile) when the frontier fills the
// grid's threads and shrinks with the frontier, down to one item per warp,
// so that a small frontier still reaches every warp of the grid. With whole
// tiles, 4,884 vertices of degree about 60 (bcsstk16) fill 20 blocks, whose
// warps walk their 32 vertices' edges one vertex after another while the
// other blocks idle.
// (32-bit division below 32 items per warp: a 64-bit one costs the TWC
// kernel registers.)
IRGL_HD inline uint32_t twc_items_per_warp(uint64_t items, uint32_t grid_warps) {
  if (items >= uint64_t(grid_warps) * 32 || grid_warps >= (1u << 27)) return 32;
  const uint32_t small = uint32_t(items);  // below 32 * grid_warps <= 2^32
  return small <= grid_warps ? 1 : (small + grid_warps - 1) / grid_warps;
}

// The frontier position thread `lane` of warp `warp` takes in the tile that
// starts at `tile_base`, or ~0 when the lane has none (lane >= per_warp).
IRGL_HD inline uint64_t twc_tile_item(uint64_t tile_base, uint32_t warp, uint32_t lane,
                                      uint32_t per_warp) {
  return lane < per_warp ? tile_base + uint64_t(warp) * per_warp + lane : ~uint64_t{0};
}

// ALB's inspection: a vertex is huge when its degree exceeds the threshold
// (default: alb_threshold below).
IRGL_HD inline bool alb_is_huge(uint64_t degree, uint64_t threshold) { return degree > threshold; }

// The threshold a program asks for when it names none. Not 0: a threshold of
// 0 is meaningful (every vertex with an edge is huge, paper 001 section 4.1).
inline constexpr uint64_t kAlbDefaultThreshold = ~uint64_t{0};

// ALB's tuning, the second parameter of its policy (alb.cuh: Alb<B,
// Tuning>): a kernel of a user's own may run Alb<256, MyAlbTuning>.
struct AlbTuning {
  // The default threshold's cap (loops without accumulators): 64 block-bin
  // steps of a 256-thread block. Web graphs cluster hubs of a few thousand
  // edges in a few TWC tiles, whose blocks walk them one after another; on
  // an H100 (270,336 threads launched) cc took 9.47 ms on cnr-2000 and 4.88
  // on uk-2007-05-100000 at the threads launched, 4.23 and 2.63 at the cap,
  // and RMAT 24 bfs, sssp and cc were 3-6% faster at the cap. Accumulating
  // loops (pr, spmv) keep the threads launched: spread over the grid, a
  // hub's edges end in one atomic per thread on its accumulator, where
  // TWC's block bin reduces them in the block (cnr-2000 pr: 51.5 ms at the
  // cap, 15.8 without).
  static constexpr uint64_t kThresholdCap = 16384;
  // Row tiles (alb.cuh): a row costs kRowTileRowCost units of a tile, an
  // edge one, so a tile of rows averaging d edges holds about
  // units / (d + 4) rows and the per-row work (pre(), the scan, post()) and
  // the per-tile barriers are spread over enough edges (with rows and edges
  // one unit each, RMAT's tiles held 60 rows of 16 edges, a few edges per
  // thread per tile).
  static constexpr uint32_t kRowTileRowCost = 4;
  // Edges a thread of a row tile takes per step of its walk (share_walk):
  // their edge() calls run back to back, so their loads overlap.
  static constexpr uint32_t kRowTileEdgeIlp = 4;
};

// ALB's threshold: `requested`, or by default the number of threads the TWC
// kernel launches (paper 001 section 4.1: with the cyclic distribution, a
// warp's binary searches then follow at most two paths), capped at `cap`
// (AlbTuning::kThresholdCap) for loops whose vertices do not accumulate
// over their edges (`accumulates`: Body::kHasAccum).
IRGL_HD inline uint64_t alb_threshold(uint64_t requested, uint64_t threads_launched,
                                      bool accumulates,
                                      uint64_t cap = AlbTuning::kThresholdCap) {
  if (requested != kAlbDefaultThreshold) return requested;
  if (accumulates || threads_launched < cap) return threads_launched;
  return cap;
}

// ALB's hand-over: a block still walking its TWC block bin once half of the
// grid has finished its tiles gives its remaining block-bin vertices to the
// huge list, whose edges the whole grid then shares. A block cannot know
// ahead whether its tiles hold more than their share of the round's edges
// (web graphs cluster vertices of a few thousand edges in a few tiles); it
// can see that the rest of the grid is idle.
IRGL_HD inline bool alb_hands_over(uint64_t blocks_done, uint64_t grid_blocks) {
  return 2 * blocks_done >= grid_blocks;
}

// Whether ALB inspects at all: only when some vertex can be huge, so graphs
// whose maximum degree (in the loop's direction) is at most the threshold
// run plain TWC and pay nothing.
IRGL_HD inline bool alb_inspects(uint64_t max_degree, uint64_t threshold) {
  return alb_is_huge(max_degree, threshold);
}

//===----------------------------------------------------------------------===//
// Atoms to threads: the edge-balanced schedules (LB, ALB's huge vertices)
//===----------------------------------------------------------------------===//

// Cyclic distribution: thread t of `threads` takes atoms t, t + threads, ...
// of [0, total): consecutive threads take consecutive atoms, so their binary
// searches for the owning tile follow the same path (paper 001, figure 2).
struct CyclicAtoms {
  uint64_t first, stride, total;
  IRGL_HD uint64_t begin() const { return first; }
  IRGL_HD bool valid(uint64_t atom) const { return atom < total; }
  IRGL_HD uint64_t next(uint64_t atom) const { return atom + stride; }
};
IRGL_HD inline CyclicAtoms cyclic_atoms(uint64_t thread, uint64_t threads, uint64_t total) {
  return {thread, threads, total};
}

// Blocked distribution: thread t takes one contiguous run of atoms, the runs
// in thread order. With q = total / threads and r = total % threads, the
// first r threads take q + 1 atoms and the others q, so no two threads' loads
// differ by more than one (runs of ceil(total / threads) would leave the last
// threads with fewer, or none: 10 atoms over 4 threads as 3, 3, 3, 1).
// No intermediate exceeds `total`, so 64-bit totals cannot overflow.
IRGL_HD inline uint64_t blocked_begin(uint64_t thread, uint64_t threads, uint64_t total) {
  const uint64_t quotient = total / threads, remainder = total % threads;
  return thread * quotient + (thread < remainder ? thread : remainder);
}
IRGL_HD inline IndexRange blocked_atoms(uint64_t thread, uint64_t threads, uint64_t total) {
  return {blocked_begin(thread, threads, total), blocked_begin(thread + 1, threads, total)};
}

// The tile owning `atom`: the largest item with offsets[item] <= atom, where
// offsets is the exclusive prefix sum of the tiles' atom counts
// (offsets[0] = 0, `tiles` entries, nondecreasing; empty tiles are skipped).
// Binary search: ceil(log2(tiles)) steps. Offset is the offsets' type (TWC's
// packed fine-grained edges of one block fit 32 bits).
// bisect_owning_tile: the same within [low, high), given offsets[low] <=
// atom (the answer's bounds another search has narrowed).
template <class Offsets>
IRGL_HD uint64_t bisect_owning_tile(Offsets offsets, uint64_t low, uint64_t high, uint64_t atom) {
  while (high - low > 1) {
    const uint64_t middle = low + (high - low) / 2;
    if (offsets[middle] <= atom) low = middle;
    else high = middle;
  }
  return low;
}
template <class Offset>
IRGL_HD uint64_t owning_tile(const Offset* offsets, uint64_t tiles, uint64_t atom) {
  return bisect_owning_tile(offsets, 0, tiles, atom);
}

// x * y / z for x < z, rounded down: in 64-bit integers when x * y fits,
// else in double precision (paper 002 keeps interpolation out of doubles
// where it can: they are slow on GPUs). The result is below y.
IRGL_HD inline uint64_t scale_below(uint64_t x, uint64_t y, uint64_t z) {
  if (x == 0 || y <= ~uint64_t{0} / x) return x * y / z;
  const uint64_t scaled = static_cast<uint64_t>(double(x) / double(z) * double(y));
  return scaled < y ? scaled : y - 1;
}

// owning_tile by interpolation search (Multi-phase, paper 002): each probe
// guesses the tile from where `atom` falls between the bounds' offsets, so
// evenly sized tiles (road graphs) take one or two probes instead of
// log2(tiles). Uneven sizes make probes poor, so after `probes` of them the
// search finishes by bisection: never worse than a binary search by more
// than `probes` reads. Needs offsets[tiles] (the total, > atom). Offsets:
// a pointer, or anything indexable like one.
template <class Offsets>
IRGL_HD uint64_t interpolated_owning_tile(Offsets offsets, uint64_t tiles, uint64_t atom,
                                          unsigned probes = 4) {
  uint64_t low = 0, high = tiles;  // offsets[low] <= atom < offsets[high]
  uint64_t low_offset = offsets[0], high_offset = offsets[tiles];
  for (unsigned probe = 0; probe < probes && high - low > 1; ++probe) {
    uint64_t guess = low + scale_below(atom - low_offset, high - low, high_offset - low_offset);
    if (guess <= low) guess = low + 1;
    const uint64_t offset = offsets[guess];
    if (offset <= atom) low = guess, low_offset = offset;
    else high = guess, high_offset = offset;
  }
  return bisect_owning_tile(offsets, low, high, atom);
}

// owning_tile over a window of `window` offsets (a power of two) held in
// shared memory: the largest k with starts[k] <= atom, given starts[0] <=
// atom. Every thread takes log2(window) steps of one read each, no early
// exit (paper 002's optimized binary search: threads of a warp stay in
// step and the bounds are never read twice).
template <unsigned Window>
IRGL_HD unsigned owning_tile_in_window(const uint64_t* starts, uint64_t atom) {
  static_assert(Window >= 1 && (Window & (Window - 1)) == 0, "Window: a power of two");
  unsigned k = 0;
  for (unsigned step = Window / 2; step > 0; step /= 2)
    if (starts[k + step] <= atom) k += step;
  return k;
}

//===----------------------------------------------------------------------===//
// Virtual warps (Hong et al.; paper 002)
//===----------------------------------------------------------------------===//

// The virtual warp for a mean degree: the smallest power of two of at
// least that many lanes, from 2 to 32 (paper 002: the best size follows
// the average work-item size).
IRGL_HD inline unsigned virtual_warp_width(double mean_degree) {
  unsigned width = 2;
  while (width < 32 && double(width) < mean_degree) width *= 2;
  return width;
}

//===----------------------------------------------------------------------===//
// Merge-path (Merrill & Garland): equal shares of tiles + atoms
//===----------------------------------------------------------------------===//

// A point on the merge path of the tile ends (offsets[1..tiles]) and the atom
// indices: `tile` tiles are finished and `atom` atoms processed before it.
struct MergeCoordinate {
  uint64_t tile = 0;
  uint64_t atom = 0;
};

// The path's crossing of diagonal `diagonal` (tile + atom == diagonal), for
// `ends[i]` = offsets[i + 1], the end of tile i's atoms (total = ends[tiles-1]).
// Each unit of work is either an atom or the end of a tile.
IRGL_HD inline MergeCoordinate merge_path_search(uint64_t diagonal, const uint64_t* ends,
                                                 uint64_t tiles, uint64_t atoms) {
  uint64_t low = diagonal > atoms ? diagonal - atoms : 0;
  uint64_t high = diagonal < tiles ? diagonal : tiles;
  // Find the first tile x in [low, high] such that ends[x] > diagonal - x - 1,
  // i.e. the number of tiles finished before the crossing.
  while (low < high) {
    const uint64_t x = low + (high - low) / 2;
    if (ends[x] <= diagonal - x - 1) low = x + 1;
    else high = x;
  }
  return {low, diagonal - low};
}

// Thread t's share of the merge path: a blocked run of the tiles + atoms
// diagonals, so shares differ by at most one unit of work.
IRGL_HD inline IndexRange merge_path_share(uint64_t thread, uint64_t threads, uint64_t tiles,
                                           uint64_t atoms) {
  return blocked_atoms(thread, threads, tiles + atoms);
}

// One tile's part of a merge-path share: atoms [atoms.begin, atoms.end) of
// tile `tile`, `whole` when they are all of the tile's atoms.
struct MergePiece {
  uint64_t tile = 0;
  IndexRange atoms;
  bool whole = false;
};

// The next piece of the share that ends at diagonal `share_end`, starting at
// `at`, which it advances (`ends` as merge_path_search's); false when the
// share has no more. A piece with no atoms is skipped unless its tile has
// none and the tile's end unit lies in this share, so every tile comes
// either as one whole piece in one share (an empty tile too) or as partial
// pieces, each atom exactly once: a caller stores a whole piece's result
// and combines partial ones atomically.
IRGL_HD inline bool next_merge_piece(MergeCoordinate& at, uint64_t share_end, const uint64_t* ends,
                                     MergePiece& piece) {
  while (at.tile + at.atom < share_end) {
    const uint64_t first = at.tile == 0 ? 0 : ends[at.tile - 1], last = ends[at.tile];
    const uint64_t left = share_end - at.tile - at.atom;  // units of the share left
    const uint64_t taken = last - at.atom < left ? last : at.atom + left;
    const bool tile_ends = taken == last && at.tile + taken < share_end;
    piece = {at.tile, {at.atom, taken}, at.atom == first && taken == last};
    const bool has_work = taken > at.atom || (first == last && tile_ends);
    at.atom = taken;
    if (tile_ends) ++at.tile;
    if (has_work) return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// ALB's row tiles (alb.cuh: RowTilesAgent): all rows and their edges cut
// into tiles of `units` units of work, a row costing `row_cost` units and an
// edge one
//===----------------------------------------------------------------------===//

// The number of row tiles of `rows` rows with `edges` edges in all.
IRGL_HD inline uint64_t row_tile_count(uint64_t rows, uint64_t edges, uint64_t units,
                                       uint64_t row_cost) {
  return ceil_div(row_cost * rows + edges, units);
}

// The units of a tile when a grid of `blocks` blocks runs the tiles: the
// work split into one tile per block, so that a small graph keeps every
// block busy, within [min_units, max_units] (max_units: what a tile's
// shared memory holds).
IRGL_HD inline uint64_t row_tile_units_for(uint64_t rows, uint64_t edges, uint64_t row_cost,
                                           uint64_t blocks, uint64_t min_units,
                                           uint64_t max_units) {
  const uint64_t share = ceil_div(row_cost * rows + edges, blocks > 0 ? blocks : 1);
  return share < min_units ? min_units : share > max_units ? max_units : share;
}

// The first row of tile `tile`: the largest x <= rows with
// row_cost * x + ends[x - 1] <= tile * units (ends[i]: the end of row i's
// edges counted from row 0's first; ends[-1] = 0). Tile t holds the rows
// [first(t), first(t + 1)): at most units / row_cost + 1 of them, whose
// edges number fewer than `units` but for its first row's.
// first(row_tile_count(...)) == rows.
template <class Ends>
IRGL_HD uint64_t row_tile_first_row(uint64_t tile, uint64_t units, uint64_t row_cost,
                                    const Ends& ends, uint64_t rows) {
  const uint64_t target = tile * units;
  uint64_t low = 0, high = rows;  // the answer lies in [low, high]
  while (low < high) {
    const uint64_t x = high - (high - low) / 2;  // in (low, high]
    if (row_cost * x + ends[x - 1] <= target) low = x;
    else high = x - 1;
  }
  return low;
}

}  // namespace irgl::gpu::schedule
