// The host-side index arithmetic of the schedule ranges (irgl/gpu/schedule/
// ranges.cuh): teams of any size (in_whole_group with group_of), and the
// pieces a merge-path share is walked as (next_merge_piece), checked by
// simulating every thread of a grid.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

#include "irgl/gpu/schedule/index.h"

namespace irgl::gpu::schedule {
namespace {

TEST(InWholeGroup, GroupsOfAnySizeCoverTheWholeGroupsOfEachBlock) {
  for (uint32_t block_threads : {32u, 96u, 256u}) {
    for (uint32_t size : {1u, 3u, 7u, 32u, 33u, 96u, 256u}) {
      if (size > block_threads) continue;
      const uint64_t blocks = 3, groups = group_count(blocks, block_threads, size);
      std::vector<uint32_t> members(groups, 0);
      for (uint64_t block = 0; block < blocks; ++block)
        for (uint32_t thread = 0; thread < block_threads; ++thread) {
          if (!in_whole_group(thread, block_threads, size)) {
            EXPECT_GE(thread, block_threads / size * size);
            continue;
          }
          const uint64_t group = group_of(block, thread, block_threads, size);
          ASSERT_LT(group, groups);
          EXPECT_EQ(group / (block_threads / size), block) << "a group within one block";
          ++members[group];
        }
      for (uint32_t count : members) EXPECT_EQ(count, size) << block_threads << "/" << size;
    }
  }
}

struct TileLedger {
  std::vector<int> atoms_seen;  // per atom
  std::vector<int> whole;       // whole pieces per tile
  std::vector<int> partial;     // partial pieces per tile
};

// Every share of `workers` walked as pieces; each piece checked against its
// tile, and the pieces tallied.
TileLedger walk_all_shares(const std::vector<uint64_t>& degrees, uint64_t workers) {
  std::vector<uint64_t> ends(degrees.size());
  std::inclusive_scan(degrees.begin(), degrees.end(), ends.begin(), std::plus<>(), uint64_t{0});
  const uint64_t tiles = degrees.size(), atoms = tiles ? ends.back() : 0;
  TileLedger ledger{std::vector<int>(atoms, 0), std::vector<int>(tiles, 0),
                    std::vector<int>(tiles, 0)};
  for (uint64_t worker = 0; worker < workers; ++worker) {
    const IndexRange share = merge_path_share(worker, workers, tiles, atoms);
    if (share.size() == 0) continue;
    MergeCoordinate at = merge_path_search(share.begin, ends.data(), tiles, atoms);
    MergePiece piece;
    uint64_t previous_tile = 0;
    bool first = true;
    while (next_merge_piece(at, share.end, ends.data(), piece)) {
      EXPECT_LT(piece.tile, tiles);
      EXPECT_TRUE(first || piece.tile > previous_tile) << "tiles in order, once per share";
      const uint64_t tile_first = piece.tile == 0 ? 0 : ends[piece.tile - 1];
      EXPECT_GE(piece.atoms.begin, tile_first);
      EXPECT_LE(piece.atoms.end, ends[piece.tile]);
      for (uint64_t a = piece.atoms.begin; a < piece.atoms.end; ++a) ++ledger.atoms_seen[a];
      ++(piece.whole ? ledger.whole : ledger.partial)[piece.tile];
      previous_tile = piece.tile;
      first = false;
    }
  }
  return ledger;
}

void expect_pieces_partition(const std::vector<uint64_t>& degrees, uint64_t workers) {
  const TileLedger ledger = walk_all_shares(degrees, workers);
  for (size_t a = 0; a < ledger.atoms_seen.size(); ++a)
    ASSERT_EQ(ledger.atoms_seen[a], 1) << "atom " << a << ", " << workers << " workers";
  for (size_t t = 0; t < degrees.size(); ++t) {
    // Either one whole piece, or partial pieces only (a tile cut by shares).
    if (ledger.whole[t] == 1) {
      EXPECT_EQ(ledger.partial[t], 0) << "tile " << t;
    } else {
      EXPECT_EQ(ledger.whole[t], 0) << "tile " << t;
      EXPECT_GE(ledger.partial[t], 2) << "tile " << t << ", " << workers << " workers";
      EXPECT_GT(degrees[t], 0u) << "an empty tile comes whole";
    }
  }
}

TEST(MergePieces, EveryAtomOnceAndEveryTileWholeOrCut) {
  const std::vector<std::vector<uint64_t>> fixed = {
      {}, {0}, {0, 0, 0}, {7}, {3, 0, 2, 5}, {0, 0, 4, 0, 0, 1, 0}, {20000, 1, 0, 2}};
  for (const auto& degrees : fixed)
    for (uint64_t workers : {1u, 2u, 3u, 7u, 64u, 1000u}) expect_pieces_partition(degrees, workers);
  std::mt19937_64 random(11);
  for (int round = 0; round < 60; ++round) {
    std::vector<uint64_t> degrees(1 + random() % 80);
    for (uint64_t& degree : degrees) degree = random() % 3 == 0 ? 0 : random() % 9;
    if (round % 6 == 0) degrees[random() % degrees.size()] = 5000;  // a long row
    for (uint64_t workers : {1u, 5u, 32u, 257u}) expect_pieces_partition(degrees, workers);
  }
}

TEST(MergePieces, OneWorkerGetsEveryTileWhole) {
  const std::vector<uint64_t> degrees = {3, 0, 2, 5};
  const TileLedger ledger = walk_all_shares(degrees, 1);
  for (int count : ledger.whole) EXPECT_EQ(count, 1);
}

TEST(MergePieces, ASharePastATilesLastAtomLeavesItsEndToTheNext) {
  // Tile 0 has 2 atoms; share [0, 2) holds them but not tile 0's end unit.
  const std::vector<uint64_t> ends = {2, 3};
  MergeCoordinate at;
  MergePiece piece;
  ASSERT_TRUE(next_merge_piece(at, 2, ends.data(), piece));
  EXPECT_EQ(piece.tile, 0u);
  EXPECT_EQ(piece.atoms.begin, 0u);
  EXPECT_EQ(piece.atoms.end, 2u);
  EXPECT_TRUE(piece.whole);
  EXPECT_FALSE(next_merge_piece(at, 2, ends.data(), piece));
  // The next share starts at tile 0's end unit: no piece of tile 0.
  ASSERT_TRUE(next_merge_piece(at, 5, ends.data(), piece));
  EXPECT_EQ(piece.tile, 1u);
  EXPECT_TRUE(piece.whole);
}

}  // namespace
}  // namespace irgl::gpu::schedule
