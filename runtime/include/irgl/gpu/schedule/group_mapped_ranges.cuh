// Group-mapped atoms (paper 000, section 5.2.3): a group of G threads, G any
// size from 1 to the block size, takes G tiles at a time, computes the
// exclusive prefix sum of their atom counts in shared memory, walks the
// group's atoms evenly (rank r takes atoms r, r + G, ...), and finds each
// atom's tile by binary search in the prefix sum.
//
//   using Group = GroupMappedAtoms<256, decltype(tiles)>;
//   __shared__ typename Group::TempStorage temp;
//   Group group(temp, tiles, group_size);
//   for (uint64_t round : group.rounds())
//     for (auto [tile, atom] : group.atoms(round)) ...
//
// A group's G threads may span warps and need not divide the block, so one
// block-wide scan computes every group's prefix sum at once (each group
// reads its own segment), ordered by block barriers: every thread of the
// block makes the same calls, like a CUB block collective. A block's threads
// past its last whole group take no atoms. Reusing TempStorage after the
// loop needs a __syncthreads() first.
#pragma once

#include <cstdint>
#include <cub/block/block_scan.cuh>
#include <type_traits>
#include <utility>

#include "irgl/gpu/schedule/ranges_core.cuh"

namespace irgl::gpu::ranges {

#if defined(__CUDACC__)

// An atom and the tile it belongs to.
template <class Tile>
struct TileAtom {
  Tile tile;
  uint64_t atom;
};

template <int BlockThreads, class Tiles>
class GroupMappedAtoms {
 public:
  using Tile = std::decay_t<decltype(std::declval<const Tiles&>()[0])>;
  using Scan = cub::BlockScan<uint64_t, BlockThreads>;

  // One round's tiles: thread t of the block loads tile `round + t`.
  struct TempStorage {
    typename Scan::TempStorage scan;
    uint64_t offsets[BlockThreads + 1];  // exclusive prefix sum of atom counts
    uint64_t first_atoms[BlockThreads];  // the tile's first atom
    Tile tiles[BlockThreads];
  };

  // The atoms of one group in one round: the group's segment of the prefix
  // sum, [first, first + group_size), and the calling thread's atoms in it.
  class Atoms {
   public:
    struct Iterator {
      const Atoms* atoms;
      StepRange::Iterator at;
      __device__ TileAtom<Tile> operator*() const { return atoms->at(*at); }
      __device__ Iterator& operator++() {
        ++at;
        return *this;
      }
      __device__ bool operator!=(const Iterator& end) const { return at != end.at; }
    };
    __device__ Atoms(const TempStorage& temp, uint32_t first, uint32_t group_size,
                     StepRange mine)
        : temp_(temp), first_(first), group_size_(group_size), mine_(mine) {}
    __device__ Iterator begin() const { return {this, mine_.begin()}; }
    __device__ Iterator end() const { return {this, mine_.end()}; }
    // `atom` counts the round's atoms (an offset in the prefix sum).
    __device__ TileAtom<Tile> at(uint64_t atom) const {
      const uint32_t k =
          first_ + uint32_t(schedule::owning_tile(temp_.offsets + first_, group_size_, atom));
      return {temp_.tiles[k], temp_.first_atoms[k] + (atom - temp_.offsets[k])};
    }

   private:
    const TempStorage& temp_;
    uint32_t first_, group_size_;
    StepRange mine_;
  };

  // group_size: 1 to BlockThreads; the block must have BlockThreads threads.
  __device__ GroupMappedAtoms(TempStorage& temp, const Tiles& tiles, uint32_t group_size)
      : temp_(temp), tiles_(tiles), group_size_(group_size) {}

  // The first tile position of each of the block's rounds (the same rounds
  // for every thread of the block). None for a group size out of range.
  __device__ StepRange rounds() const {
    if (group_size_ == 0 || group_size_ > BlockThreads) return {};
    const uint64_t per_block = BlockThreads / group_size_ * group_size_;
    return {blockIdx.x * per_block, tiles_.size(), gridDim.x * per_block};
  }

  // The calling thread's atoms of the round at `round`. A block collective:
  // it fills the shared prefix sum, which the returned range reads.
  __device__ Atoms atoms(uint64_t round) {
    const uint32_t t = threadIdx.x;
    const bool member = schedule::in_whole_group(t, BlockThreads, group_size_);
    __syncthreads();  // the previous round's atoms are read up to here
    uint64_t count = 0;
    if (member && round + t < tiles_.size()) {
      const Tile tile = tiles_[round + t];
      const StepRange atoms = tiles_.atoms(tile);
      temp_.tiles[t] = tile;
      temp_.first_atoms[t] = atoms.from;
      count = atoms.size();
    }
    uint64_t offset = 0, total = 0;
    Scan(temp_.scan).ExclusiveSum(count, offset, total);
    temp_.offsets[t] = offset;
    if (t == 0) temp_.offsets[BlockThreads] = total;
    __syncthreads();
    if (!member) return {temp_, 0, 1, {}};
    const uint32_t first = t / group_size_ * group_size_;
    const StepRange mine = {temp_.offsets[first] + t % group_size_,
                            temp_.offsets[first + group_size_], group_size_};
    return {temp_, first, group_size_, mine};
  }

 private:
  TempStorage& temp_;
  Tiles tiles_;
  uint32_t group_size_;
};

#endif  // __CUDACC__

}  // namespace irgl::gpu::ranges
