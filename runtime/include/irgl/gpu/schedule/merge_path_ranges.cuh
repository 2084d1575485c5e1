// Merge-path (Merrill and Garland; paper 000, section 5.2.1): every tile's
// end and every atom count as one unit of work, and each thread takes an
// equal share of the units, found by a 2-D binary search on the merge of
// the tiles' atom ends with the atom indices. The thread walks its share as
// pieces, a piece per tile it touches:
//
//   for (auto piece : merge_path(tiles, offsets))
//     ... piece.tile, piece.atoms (a StepRange), piece.whole
//
// A tile whose atoms all lie in one share (an empty tile too) comes as one
// whole piece; a tile cut by shares comes as partial pieces, which the
// caller combines atomically (into an output zeroed first). The caller
// provides the exclusive prefix sum of the tiles' atom counts: `offsets`,
// size() + 1 entries, offsets[0] = 0 (a CSR's row offsets, for every row).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "irgl/gpu/schedule/ranges_core.cuh"

namespace irgl::gpu::ranges {

#if defined(__CUDACC__)

template <class Tile>
struct MergePathPiece {
  Tile tile;
  StepRange atoms;  // the tile's atoms in this share
  bool whole;       // all of the tile's atoms
};

template <class Tiles>
class MergePath {
 public:
  using Tile = std::decay_t<decltype(std::declval<const Tiles&>()[0])>;

  struct End {};
  class Iterator {
   public:
    __device__ Iterator(const MergePath& path, schedule::MergeCoordinate at, uint64_t share_end)
        : path_(path), at_(at), share_end_(share_end) {
      advance();
    }
    __device__ const MergePathPiece<Tile>& operator*() const { return current_; }
    __device__ Iterator& operator++() {
      advance();
      return *this;
    }
    __device__ bool operator!=(End) const { return valid_; }

   private:
    __device__ void advance() {
      schedule::MergePiece piece;
      valid_ = schedule::next_merge_piece(at_, share_end_, path_.offsets_ + 1, piece);
      if (valid_) current_ = path_.in_tile(piece);
    }
    const MergePath& path_;
    schedule::MergeCoordinate at_;
    uint64_t share_end_;
    MergePathPiece<Tile> current_{};
    bool valid_ = false;
  };

  // The share of worker `worker` of `workers`.
  __device__ MergePath(const Tiles& tiles, const uint64_t* offsets, uint64_t worker,
                       uint64_t workers)
      : tiles_(tiles), offsets_(offsets) {
    const uint64_t count = tiles.size(), total = offsets[count];
    share_ = schedule::merge_path_share(worker, workers, count, total);
    if (share_.size() > 0) start_ = schedule::merge_path_search(share_.begin, offsets + 1, count, total);
  }

  // An empty share ends where it starts: at the path's origin.
  __device__ Iterator begin() const {
    return {*this, start_, share_.size() > 0 ? share_.end : 0};
  }
  __device__ End end() const { return {}; }

 private:
  // A piece in the prefix sum's numbering, as the tile's own atoms.
  __device__ MergePathPiece<Tile> in_tile(const schedule::MergePiece& piece) const {
    const Tile tile = tiles_[piece.tile];
    const uint64_t shift = tiles_.atoms(tile).from - offsets_[piece.tile];
    return {tile, {piece.atoms.begin + shift, piece.atoms.end + shift, 1}, piece.whole};
  }

  Tiles tiles_;
  const uint64_t* offsets_;
  schedule::IndexRange share_;
  schedule::MergeCoordinate start_;
};

// The calling thread's share when every thread of the grid takes one.
template <class Tiles>
__device__ MergePath<Tiles> merge_path(const Tiles& tiles, const uint64_t* offsets) {
  return {tiles, offsets, schedule::global_thread(), schedule::grid_threads()};
}
// Every row of a CSR: its row offsets are the prefix sum.
__device__ inline MergePath<CsrTiles<>> merge_path(const CsrTiles<>& rows) {
  return merge_path(rows, rows.offsets);
}

#endif  // __CUDACC__

}  // namespace irgl::gpu::ranges
