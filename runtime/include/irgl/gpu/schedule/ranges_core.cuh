// What every schedule range (ranges.cuh) is made of: step ranges, tile sets
// and teams, and the tile-per-team schedules (thread-, warp-, block-mapped).
//
// Vocabulary (paper 000): a tile set is a sequence of tiles (rows of a
// matrix, vertices of a frontier), each with a run of atoms (its nonzeros,
// its edges). A tile set is any type with, on the device,
//   size()          the number of tiles
//   operator[](i)   tile i (a row or vertex id)
//   atoms(tile)     the tile's atoms: a StepRange of step 1
// CsrTiles below is one over CSR offsets, of every row or of listed rows.
#pragma once

#include <cstdint>

#include "irgl/gpu/schedule/agent.cuh"
#include "irgl/gpu/schedule/frontier.cuh"
#include "irgl/gpu/schedule/index.h"
#include "irgl/support/host_device.h"

namespace irgl::gpu::ranges {

using schedule::ceil_div;

// The indices from, from + step, ... below `to`.
struct StepRange {
  uint64_t from = 0;
  uint64_t to = 0;
  uint64_t step = 1;

  struct Iterator {
    uint64_t index;
    uint64_t step;
    IRGL_HD uint64_t operator*() const { return index; }
    IRGL_HD Iterator& operator++() {
      index += step;
      return *this;
    }
    // `<`, not `==`: a step may jump over the end.
    IRGL_HD bool operator!=(const Iterator& end) const { return index < end.index; }
  };
  IRGL_HD Iterator begin() const { return {from, step}; }
  IRGL_HD Iterator end() const { return {to, step}; }
  IRGL_HD uint64_t size() const { return from < to ? ceil_div(to - from, step) : 0; }
};

IRGL_HD inline StepRange step_range(uint64_t from, uint64_t to, uint64_t step) {
  return {from, to, step};
}

// The tiles listed in `ids` (e.g. the long rows of a matrix).
struct TileList {
  const VertexId* ids = nullptr;
  uint64_t count = 0;
  IRGL_HD uint64_t size() const { return count; }
  IRGL_HD VertexId operator[](uint64_t i) const { return ids[i]; }
};

// Tiles whose atoms are a CSR's: tile t has atoms [offsets[t], offsets[t + 1]).
// `items` says which tiles, in which order: every row (AllNodes), a TileList,
// or a worklist (frontier.cuh).
template <class Items = schedule::AllNodes>
struct CsrTiles {
  const uint64_t* offsets = nullptr;
  Items items;

  IRGL_HD uint64_t size() const { return items.size(); }
  IRGL_HD VertexId operator[](uint64_t i) const { return items[i]; }
  IRGL_HD StepRange atoms(VertexId tile) const { return {offsets[tile], offsets[tile + 1], 1}; }
};

IRGL_HD inline CsrTiles<> csr_tiles(const uint64_t* offsets, uint32_t rows) {
  return {offsets, schedule::AllNodes{rows}};
}
IRGL_HD inline CsrTiles<TileList> csr_tiles(const uint64_t* offsets, TileList rows) {
  return {offsets, rows};
}

#if defined(__CUDACC__)

// Grid-, block- and warp-stride ranges over [from, to): the calling thread's
// indices when the grid, its block or its warp shares them (1-D blocks).
__device__ inline StepRange grid_stride_range(uint64_t from, uint64_t to) {
  return {from + schedule::global_thread(), to, schedule::grid_threads()};
}
__device__ inline StepRange block_stride_range(uint64_t from, uint64_t to) {
  return {from + threadIdx.x, to, blockDim.x};
}
__device__ inline StepRange warp_stride_range(uint64_t from, uint64_t to) {
  return {from + threadIdx.x % 32, to, 32};
}

// The threads that take a tile together: team `index` of the grid's `count`
// teams, `size` threads of which the calling one has rank `rank`. Teams are
// runs of consecutive threads of a block; a block's threads past its last
// whole team belong to none, and get index kNoTeam (no tiles).
struct Team {
  static constexpr uint64_t kNoTeam = ~uint64_t{0};
  uint64_t index = 0;
  uint64_t count = 0;
  uint32_t rank = 0;
  uint32_t size = 1;
};

// The calling thread's team when each team has `size` threads (1 to the
// block size: any size, a power of two or not).
__device__ inline Team team_of_size(uint32_t size) {
  const uint64_t count = schedule::group_count(gridDim.x, blockDim.x, size);
  if (!schedule::in_whole_group(threadIdx.x, blockDim.x, size))
    return {Team::kNoTeam, count, 0, size};
  return {schedule::group_of(blockIdx.x, threadIdx.x, blockDim.x, size), count,
          threadIdx.x % size, size};
}
__device__ inline Team thread_team() { return team_of_size(1); }
__device__ inline Team warp_team() { return team_of_size(32); }
__device__ inline Team block_team() { return team_of_size(blockDim.x); }

// The tiles at positions positions.from, ... of a tile set.
template <class Tiles>
struct TileRange {
  Tiles tiles;
  StepRange positions;

  struct Iterator {
    Tiles tiles;
    StepRange::Iterator position;
    __device__ auto operator*() const { return tiles[*position]; }
    __device__ Iterator& operator++() {
      ++position;
      return *this;
    }
    __device__ bool operator!=(const Iterator& end) const { return position != end.position; }
  };
  __device__ Iterator begin() const { return {tiles, positions.begin()}; }
  __device__ Iterator end() const { return {tiles, positions.end()}; }
};

// A tile per team: team i of n takes tiles i, i + n, ..., and its threads
// stride over each tile's atoms by rank. Every thread of a team iterates the
// same tiles, so a team may sync or reduce inside the loop (a warp with
// cooperative groups, a block with cub::BlockReduce).
template <class Tiles>
struct TeamMapped {
  Tiles set;
  Team team;

  __device__ TileRange<Tiles> tiles() const {
    if (team.index == Team::kNoTeam) return {set, {}};
    return {set, {team.index, set.size(), team.count}};
  }
  // The calling thread's atoms of `tile`.
  template <class Tile>
  __device__ StepRange atoms(Tile tile) const {
    const StepRange all = set.atoms(tile);
    return {all.from + team.rank, all.to, team.size};
  }
};

template <class Tiles>
__device__ TeamMapped<Tiles> team_mapped(const Tiles& tiles, Team team) {
  return {tiles, team};
}
// A tile per thread, its atoms sequentially.
template <class Tiles>
__device__ TeamMapped<Tiles> thread_mapped(const Tiles& tiles) {
  return {tiles, thread_team()};
}
// A tile per warp (32 threads; the block size a multiple of 32).
template <class Tiles>
__device__ TeamMapped<Tiles> warp_mapped(const Tiles& tiles) {
  return {tiles, warp_team()};
}
// A tile per block.
template <class Tiles>
__device__ TeamMapped<Tiles> block_mapped(const Tiles& tiles) {
  return {tiles, block_team()};
}

#endif  // __CUDACC__

}  // namespace irgl::gpu::ranges
