// The index arithmetic of the schedules (irgl/gpu/schedule/index.h), checked
// against brute force: grid-stride and group assignment, TWC bins, ALB's
// threshold and huge test, cyclic and blocked atom distributions, the owning
// tile search, and merge-path search and shares, with 64-bit totals.
#include "irgl/gpu/schedule/index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace irgl::gpu::schedule {
namespace {

constexpr uint64_t k2to32 = uint64_t{1} << 32;

TEST(CeilDiv, RoundsUpWithoutOverflow) {
  EXPECT_EQ(ceil_div(0, 5), 0u);
  EXPECT_EQ(ceil_div(1, 5), 1u);
  EXPECT_EQ(ceil_div(5, 5), 1u);
  EXPECT_EQ(ceil_div(6, 5), 2u);
  EXPECT_EQ(ceil_div(7, 1), 7u);
  // (a + b - 1) / b would wrap around here.
  EXPECT_EQ(ceil_div(~uint64_t{0}, 2), uint64_t{1} << 63);
  EXPECT_EQ(ceil_div(~uint64_t{0}, ~uint64_t{0}), 1u);
  EXPECT_EQ(ceil_div(3 * k2to32 + 1, k2to32), 4u);
}

TEST(GridStride, WorkersCoverEveryIndexOnce) {
  for (uint64_t workers : {1u, 7u, 64u}) {
    for (uint64_t count : {0u, 1u, 63u, 64u, 65u, 1000u}) {
      std::vector<int> taken(count, 0);
      for (uint64_t w = 0; w < workers; ++w)
        for (uint64_t i = first_index(w); i < count; i = next_index(i, workers)) {
          EXPECT_EQ(i % workers, w);
          ++taken[i];
        }
      EXPECT_TRUE(std::all_of(taken.begin(), taken.end(), [](int n) { return n == 1; }))
          << workers << " workers, " << count << " indices";
    }
  }
}

TEST(GroupOf, ConsecutiveThreadsFormGroupsNumberedAcrossTheGrid) {
  for (uint32_t block_threads : {64u, 128u, 256u, 512u, 1024u}) {
    for (uint32_t group_size : {2u, 4u, 8u, 32u, 64u, 256u, 1024u}) {
      if (group_size > block_threads) continue;
      const uint64_t blocks = 3;
      EXPECT_EQ(group_count(blocks, block_threads, group_size), blocks * block_threads / group_size);
      std::vector<uint32_t> members(group_count(blocks, block_threads, group_size), 0);
      for (uint64_t block = 0; block < blocks; ++block)
        for (uint32_t thread = 0; thread < block_threads; ++thread) {
          const uint64_t group = group_of(block, thread, block_threads, group_size);
          ASSERT_EQ(group, (block * block_threads + thread) / group_size);
          ++members[group];
        }
      for (uint32_t count : members) EXPECT_EQ(count, group_size);
    }
  }
}

TEST(TwcBin, BoundariesAt32AndTheBlockSize) {
  for (uint32_t block_threads : {64u, 256u, 1024u}) {
    EXPECT_EQ(twc_bin(0, block_threads), TwcBin::fine);
    EXPECT_EQ(twc_bin(31, block_threads), TwcBin::fine);
    EXPECT_EQ(twc_bin(32, block_threads), TwcBin::warp);
    EXPECT_EQ(twc_bin(block_threads - 1, block_threads), TwcBin::warp);
    EXPECT_EQ(twc_bin(block_threads, block_threads), TwcBin::block);
    EXPECT_EQ(twc_bin(4 * k2to32, block_threads), TwcBin::block);
  }
  // Blocks of one warp have no warp bin.
  EXPECT_EQ(twc_bin(31, 32), TwcBin::fine);
  EXPECT_EQ(twc_bin(32, 32), TwcBin::block);
}

TEST(TwcTiles, ItemsPerWarpShrinkWithTheFrontier) {
  EXPECT_EQ(twc_items_per_warp(0, 100), 1u);
  EXPECT_EQ(twc_items_per_warp(100, 100), 1u);
  EXPECT_EQ(twc_items_per_warp(101, 100), 2u);
  EXPECT_EQ(twc_items_per_warp(3100, 100), 31u);
  EXPECT_EQ(twc_items_per_warp(3200, 100), 32u);
  EXPECT_EQ(twc_items_per_warp(4 * k2to32, 100), 32u);  // a thread's item each, no more
}

TEST(TwcTiles, EveryItemOnceAtMostOnePerThread) {
  const uint64_t blocks = 5, warps = 4;  // 5 blocks of 128 threads
  for (uint64_t items : {0u, 1u, 7u, 20u, 21u, 333u, 640u, 641u, 5000u}) {
    const uint32_t per_warp = twc_items_per_warp(items, blocks * warps);
    const uint64_t tile_items = per_warp * warps;
    std::vector<int> seen(items);
    for (uint64_t block = 0; block < blocks; ++block)
      for (uint64_t base = block * tile_items; base < items; base += blocks * tile_items)
        for (uint32_t thread = 0; thread < warps * 32; ++thread) {
          const uint64_t i = twc_tile_item(base, thread / 32, thread % 32, per_warp);
          if (i < items) ++seen[i];
        }
    for (uint64_t i = 0; i < items; ++i) ASSERT_EQ(seen[i], 1) << items << " items, item " << i;
  }
}

TEST(Alb, HugeMeansAboveTheThreshold) {
  EXPECT_FALSE(alb_is_huge(0, 0));
  EXPECT_TRUE(alb_is_huge(1, 0));  // threshold 0: every vertex with an edge
  EXPECT_FALSE(alb_is_huge(1, 1));
  EXPECT_TRUE(alb_is_huge(2, 1));
  EXPECT_FALSE(alb_is_huge(163840, 163840));
  EXPECT_TRUE(alb_is_huge(163841, 163840));
  EXPECT_FALSE(alb_is_huge(~uint64_t{0} - 1, kAlbDefaultThreshold));
}

TEST(Alb, ThresholdDefaultsToThreadsLaunchedCappedAndKeepsZero) {
  for (bool accumulates : {false, true}) {
    EXPECT_EQ(alb_threshold(kAlbDefaultThreshold, 16 * 256, accumulates), 16u * 256);  // small GPU
    EXPECT_EQ(alb_threshold(0, 132 * 2048, accumulates), 0u);  // not "the default"
    EXPECT_EQ(alb_threshold(1, 132 * 2048, accumulates), 1u);
    EXPECT_EQ(alb_threshold(5 * k2to32, 1024, accumulates), 5 * k2to32);
  }
  EXPECT_EQ(alb_threshold(kAlbDefaultThreshold, 132 * 2048, false), AlbTuning::kThresholdCap);
  EXPECT_EQ(alb_threshold(kAlbDefaultThreshold, AlbTuning::kThresholdCap, false),
            AlbTuning::kThresholdCap);
  // Accumulating loops keep the threads launched (a hub's edges spread over
  // the grid would end in one atomic per thread on its accumulator).
  EXPECT_EQ(alb_threshold(kAlbDefaultThreshold, 132 * 2048, true), 132u * 2048);
  // A policy's own tuning caps elsewhere (Alb<B, Tuning>).
  EXPECT_EQ(alb_threshold(kAlbDefaultThreshold, 132 * 2048, false, 4096), 4096u);
  EXPECT_EQ(alb_threshold(kAlbDefaultThreshold, 2048, false, 4096), 2048u);
}

TEST(Alb, InspectsOnlyWhenSomeVertexCanBeHuge) {
  EXPECT_FALSE(alb_inspects(0, 0));  // all tiles empty: nothing to set aside
  EXPECT_TRUE(alb_inspects(1, 0));
  EXPECT_FALSE(alb_inspects(1024, 1024));
  EXPECT_TRUE(alb_inspects(1025, 1024));
  EXPECT_FALSE(alb_inspects(1000000, 1000000));
}

// Atoms per thread under a distribution, by walking each thread's atoms.
template <class ForEachAtom>
std::vector<uint64_t> walk(uint64_t threads, uint64_t total, ForEachAtom for_each_atom) {
  std::vector<uint64_t> owner(total, ~uint64_t{0});
  for (uint64_t t = 0; t < threads; ++t)
    for_each_atom(t, [&](uint64_t atom) {
      EXPECT_LT(atom, total) << "thread " << t;
      if (atom >= total) return;
      EXPECT_EQ(owner[atom], ~uint64_t{0}) << "atom " << atom << " taken twice";
      owner[atom] = t;
    });
  return owner;
}

void expect_balanced(const std::vector<uint64_t>& owner, uint64_t threads) {
  std::vector<uint64_t> load(threads, 0);
  for (uint64_t t : owner) {
    ASSERT_LT(t, threads) << "an atom nobody took";
    ++load[t];
  }
  const auto [low, high] = std::minmax_element(load.begin(), load.end());
  EXPECT_LE(*high - *low, 1u) << owner.size() << " atoms over " << threads << " threads";
}

TEST(CyclicAtoms, RoundRobinCoversEveryAtomOnce) {
  for (uint64_t threads : {1u, 3u, 32u, 256u}) {
    for (uint64_t total : {0u, 1u, 2u, 31u, 32u, 33u, 255u, 256u, 257u, 1009u}) {
      const auto owner = walk(threads, total, [&](uint64_t t, auto take) {
        const CyclicAtoms atoms = cyclic_atoms(t, threads, total);
        for (uint64_t a = atoms.begin(); atoms.valid(a); a = atoms.next(a)) take(a);
      });
      for (uint64_t a = 0; a < total; ++a) EXPECT_EQ(owner[a], a % threads);
      expect_balanced(owner, threads);
    }
  }
}

TEST(BlockedAtoms, ContiguousRunsDifferingByAtMostOne) {
  for (uint64_t threads : {1u, 3u, 4u, 32u, 256u}) {
    for (uint64_t total : {0u, 1u, 2u, 10u, 31u, 32u, 33u, 255u, 256u, 257u, 1009u}) {
      const auto owner = walk(threads, total, [&](uint64_t t, auto take) {
        const IndexRange atoms = blocked_atoms(t, threads, total);
        for (uint64_t a = atoms.begin; a < atoms.end; ++a) take(a);
      });
      EXPECT_TRUE(std::is_sorted(owner.begin(), owner.end())) << "runs in thread order";
      expect_balanced(owner, threads);
    }
  }
}

TEST(BlockedAtoms, FewerAtomsThanThreads) {
  const uint64_t threads = 256, total = 100;
  for (uint64_t t = 0; t < threads; ++t) {
    const IndexRange atoms = blocked_atoms(t, threads, total);
    if (t < total) {
      EXPECT_EQ(atoms.begin, t);
      EXPECT_EQ(atoms.size(), 1u);
    } else {
      EXPECT_EQ(atoms.size(), 0u) << t;
    }
  }
  EXPECT_EQ(blocked_atoms(0, threads, 0).size(), 0u);
}

// Totals above 2^32 over a GPU-sized grid: only the index math, each
// thread's range, not every atom.
TEST(BlockedAtoms, SixtyFourBitTotals) {
  const uint64_t threads = 132 * 2048;
  for (uint64_t total : {k2to32 + 1, 3 * k2to32 + 7, uint64_t{536870912} * 9, ~uint64_t{0} / 3}) {
    uint64_t expected_begin = 0;
    const uint64_t quotient = total / threads;
    for (uint64_t t = 0; t < threads; ++t) {
      const IndexRange atoms = blocked_atoms(t, threads, total);
      ASSERT_EQ(atoms.begin, expected_begin) << "thread " << t;
      ASSERT_TRUE(atoms.size() == quotient || atoms.size() == quotient + 1) << "thread " << t;
      expected_begin = atoms.end;
    }
    EXPECT_EQ(expected_begin, total);
  }
}

TEST(CyclicAtoms, SixtyFourBitTotals) {
  const uint64_t threads = 132 * 2048, total = 3 * k2to32 + 5;
  for (uint64_t t : {uint64_t{0}, uint64_t{4}, uint64_t{5}, threads - 1}) {
    const CyclicAtoms atoms = cyclic_atoms(t, threads, total);
    uint64_t count = 0, last = 0;
    for (uint64_t a = atoms.begin(); atoms.valid(a); a = atoms.next(a)) ++count, last = a;
    EXPECT_EQ(count, total / threads + (t < total % threads)) << t;
    EXPECT_LT(last, total);
    EXPECT_GE(last + threads, total);
  }
}

// Brute force: the largest item whose offset is at most the atom.
uint64_t owning_tile_brute(const std::vector<uint64_t>& offsets, uint64_t atom) {
  uint64_t owner = 0;
  for (uint64_t i = 0; i < offsets.size(); ++i)
    if (offsets[i] <= atom) owner = i;
  return owner;
}

std::vector<uint64_t> exclusive_offsets(const std::vector<uint64_t>& degrees) {
  std::vector<uint64_t> offsets(degrees.size());
  std::exclusive_scan(degrees.begin(), degrees.end(), offsets.begin(), uint64_t{0});
  return offsets;
}

TEST(OwningTile, SkipsZeroDegreeRuns) {
  // Items 0, 1, 4, 6 and 7 are empty: ties in the offsets.
  const std::vector<uint64_t> degrees = {0, 0, 3, 2, 0, 4, 0, 0, 1};
  const auto offsets = exclusive_offsets(degrees);  // 0 0 0 3 5 5 9 9 9
  const uint64_t total = 10;
  const uint64_t expected[total] = {2, 2, 2, 3, 3, 5, 5, 5, 5, 8};
  for (uint64_t atom = 0; atom < total; ++atom) {
    const uint64_t owner = owning_tile(offsets.data(), offsets.size(), atom);
    EXPECT_EQ(owner, expected[atom]) << "atom " << atom;
    EXPECT_GT(degrees[owner], 0u);
  }
}

TEST(OwningTile, MatchesBruteForceOnRandomDegrees) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint64_t> degrees(1 + random() % 70);
    for (uint64_t& degree : degrees) degree = random() % 3 == 0 ? 0 : random() % 9;
    degrees[random() % degrees.size()] += 1;  // at least one atom
    const auto offsets = exclusive_offsets(degrees);
    const uint64_t total = offsets.back() + degrees.back();
    for (uint64_t atom = 0; atom < total; ++atom) {
      const uint64_t owner = owning_tile(offsets.data(), offsets.size(), atom);
      ASSERT_EQ(owner, owning_tile_brute(offsets, atom)) << "round " << round << " atom " << atom;
      ASSERT_LT(atom - offsets[owner], degrees[owner]);
    }
  }
}

TEST(OwningTile, SingleTileAndSixtyFourBitOffsets) {
  const uint64_t one[] = {0};
  EXPECT_EQ(owning_tile(one, 1, 0), 0u);
  EXPECT_EQ(owning_tile(one, 1, 5 * k2to32), 0u);
  const std::vector<uint64_t> degrees = {k2to32 + 3, 0, 0, 2 * k2to32, 1};
  const auto offsets = exclusive_offsets(degrees);
  for (uint64_t atom : {uint64_t{0}, k2to32 + 2, k2to32 + 3, 3 * k2to32 + 2, 3 * k2to32 + 3})
    EXPECT_EQ(owning_tile(offsets.data(), offsets.size(), atom), owning_tile_brute(offsets, atom))
        << atom;
}

TEST(InterpolatedOwningTile, MatchesBruteForceOnRandomDegrees) {
  std::mt19937_64 random(12);
  for (int round = 0; round < 300; ++round) {
    std::vector<uint64_t> degrees(1 + random() % 90);
    const bool even = round % 2 == 0;  // road-like sizes, or uneven with empty runs
    for (uint64_t& degree : degrees)
      degree = even ? 2 + random() % 2 : (random() % 3 == 0 ? 0 : random() % 40);
    degrees[random() % degrees.size()] += 1;
    auto offsets = exclusive_offsets(degrees);
    const uint64_t total = offsets.back() + degrees.back();
    offsets.push_back(total);  // the search reads the total
    for (unsigned probes : {0u, 1u, 4u, 64u})
      for (uint64_t atom = 0; atom < total; ++atom) {
        const uint64_t owner = interpolated_owning_tile(offsets.data(), degrees.size(), atom, probes);
        ASSERT_EQ(owner, owning_tile(offsets.data(), degrees.size(), atom))
            << "round " << round << " probes " << probes << " atom " << atom;
      }
  }
}

// Offsets that count their reads.
struct CountedOffsets {
  const uint64_t* offsets;
  unsigned* reads;
  uint64_t operator[](uint64_t i) const { return ++*reads, offsets[i]; }
};

TEST(InterpolatedOwningTile, EvenSizesTakeAFewReadsUnevenAtMostBinaryPlusProbes) {
  const uint64_t tiles = 1 << 20;
  std::vector<uint64_t> offsets(tiles + 1);
  for (uint64_t i = 0; i <= tiles; ++i) offsets[i] = 3 * i + i / 7;  // degrees 3 and 4
  unsigned worst = 0;
  for (uint64_t atom = 0; atom < offsets[tiles]; atom += 997) {
    unsigned reads = 0;
    const uint64_t owner =
        interpolated_owning_tile(CountedOffsets{offsets.data(), &reads}, tiles, atom);
    ASSERT_EQ(owner, owning_tile(offsets.data(), tiles, atom));
    worst = std::max(worst, reads);
  }
  EXPECT_LE(worst, 2u + 4u + 4u);  // the bounds, four probes, a short bisection
  // One tile of all atoms among tiny ones: probes guess wrong, bisection finishes.
  std::vector<uint64_t> skewed(tiles + 1);
  for (uint64_t i = 0; i <= tiles; ++i) skewed[i] = i <= tiles / 2 ? i : i + k2to32;
  for (uint64_t atom : {uint64_t{0}, uint64_t{tiles / 2 + 5}, k2to32 + tiles / 2 + 1}) {
    unsigned reads = 0;
    ASSERT_EQ(interpolated_owning_tile(CountedOffsets{skewed.data(), &reads}, tiles, atom),
              owning_tile(skewed.data(), tiles, atom));
    EXPECT_LE(reads, 2u + 4u + 20u) << atom;
  }
}

TEST(InterpolatedOwningTile, SixtyFourBitProductsFallBackToDoubles) {
  // (atom - low) * tiles overflows 64 bits: the guess is taken in doubles.
  EXPECT_EQ(scale_below(uint64_t{1} << 40, uint64_t{1} << 30, uint64_t{1} << 41), uint64_t{1} << 29);
  EXPECT_LT(scale_below(~uint64_t{0} - 1, 1000, ~uint64_t{0}), 1000u);
  const std::vector<uint64_t> degrees = {k2to32 + 3, 0, 0, 2 * k2to32, 1};
  auto offsets = exclusive_offsets(degrees);
  offsets.push_back(offsets.back() + 1);
  for (uint64_t atom : {uint64_t{0}, k2to32 + 2, k2to32 + 3, 3 * k2to32 + 2, 3 * k2to32 + 3})
    EXPECT_EQ(interpolated_owning_tile(offsets.data(), degrees.size(), atom),
              owning_tile_brute(std::vector<uint64_t>(offsets.begin(), offsets.end() - 1), atom))
        << atom;
}

TEST(OwningTileInWindow, LargestStartAtMostTheAtomWithEmptyRuns) {
  // starts of 8 items: items 1, 2 and 5 are empty; past the window: infinity.
  const uint64_t starts[9] = {10, 12, 12, 12, 15, 20, 20, 21, ~uint64_t{0}};
  const unsigned expected[] = {0, 0, 3, 3, 3, 4, 4, 4, 4, 4, 6, 7, 7};
  for (uint64_t atom = 10; atom < 23; ++atom)
    EXPECT_EQ(owning_tile_in_window<8>(starts, atom), expected[atom - 10]) << atom;
}

TEST(VirtualWarpWidth, SmallestPowerOfTwoCoveringTheMeanDegree) {
  EXPECT_EQ(virtual_warp_width(0.0), 2u);
  EXPECT_EQ(virtual_warp_width(2.0), 2u);
  EXPECT_EQ(virtual_warp_width(2.1), 4u);  // great-britain_osm
  EXPECT_EQ(virtual_warp_width(13.1), 16u);
  EXPECT_EQ(virtual_warp_width(52.0), 32u);  // web-NotreDame: capped at a warp
}

// The merge path's coordinate at diagonal d from its definition: the end of
// tile i is unit ends[i] + i of the merge (after its atoms and the earlier
// ends), so the tiles finished before unit d are those with ends[i] + i < d.
MergeCoordinate merge_brute(const std::vector<uint64_t>& ends, uint64_t diagonal) {
  uint64_t tiles = 0;
  for (uint64_t i = 0; i < ends.size(); ++i) tiles += ends[i] + i < diagonal;
  return {tiles, diagonal - tiles};
}

std::vector<uint64_t> inclusive_ends(const std::vector<uint64_t>& degrees) {
  std::vector<uint64_t> ends(degrees.size());
  std::inclusive_scan(degrees.begin(), degrees.end(), ends.begin(), std::plus<>(), uint64_t{0});
  return ends;
}

void expect_search_matches_brute(const std::vector<uint64_t>& degrees) {
  const auto ends = inclusive_ends(degrees);
  const uint64_t tiles = ends.size(), atoms = tiles ? ends.back() : 0;
  // The walk every merge-path thread does, from the start of the path.
  MergeCoordinate walked;
  for (uint64_t d = 0; d <= tiles + atoms; ++d) {
    const MergeCoordinate found = merge_path_search(d, ends.data(), tiles, atoms);
    const MergeCoordinate brute = merge_brute(ends, d);
    ASSERT_EQ(found.tile, brute.tile) << "diagonal " << d;
    ASSERT_EQ(found.atom, brute.atom) << "diagonal " << d;
    ASSERT_EQ(walked.tile, brute.tile) << "walk at diagonal " << d;
    ASSERT_EQ(walked.atom, brute.atom) << "walk at diagonal " << d;
    if (walked.tile < tiles && walked.atom < ends[walked.tile]) ++walked.atom;
    else ++walked.tile;
  }
}

TEST(MergePathSearch, EndsOfThePath) {
  const std::vector<uint64_t> degrees = {3, 0, 2, 5};
  const auto ends = inclusive_ends(degrees);
  const MergeCoordinate start = merge_path_search(0, ends.data(), 4, 10);
  EXPECT_EQ(start.tile, 0u);
  EXPECT_EQ(start.atom, 0u);
  const MergeCoordinate end = merge_path_search(14, ends.data(), 4, 10);
  EXPECT_EQ(end.tile, 4u);
  EXPECT_EQ(end.atom, 10u);
}

TEST(MergePathSearch, EveryDiagonalMatchesBruteForce) {
  expect_search_matches_brute({});
  expect_search_matches_brute({0});
  expect_search_matches_brute({0, 0, 0});
  expect_search_matches_brute({7});
  expect_search_matches_brute({3, 0, 2, 5});
  expect_search_matches_brute({0, 0, 4, 0, 0, 1, 0});
  std::mt19937_64 random(5);
  for (int round = 0; round < 100; ++round) {
    std::vector<uint64_t> degrees(random() % 50);
    for (uint64_t& degree : degrees) degree = random() % 4 == 0 ? 0 : random() % 12;
    if (round % 10 == 0 && !degrees.empty()) degrees[0] = 300;  // one long row
    expect_search_matches_brute(degrees);
  }
}

TEST(MergePathSearch, SixtyFourBitTotals) {
  const std::vector<uint64_t> degrees = {k2to32 + 1, 0, 2 * k2to32, 5, 0};
  const auto ends = inclusive_ends(degrees);
  const uint64_t tiles = ends.size(), atoms = ends.back();
  for (uint64_t i = 0; i < tiles; ++i)
    for (uint64_t d : {ends[i] + i, ends[i] + i + 1, ends[i] + i + 2}) {
      if (d > tiles + atoms) continue;
      const MergeCoordinate found = merge_path_search(d, ends.data(), tiles, atoms);
      const MergeCoordinate brute = merge_brute(ends, d);
      EXPECT_EQ(found.tile, brute.tile) << d;
      EXPECT_EQ(found.atom, brute.atom) << d;
    }
}

// ALB's row tiles: the tiles partition the rows in order, each holds at
// most units / row_cost + 1 rows, and its rows' edges number fewer than
// `units` plus those of its first row (which may begin in earlier tiles).
void expect_row_tiles_partition(const std::vector<uint64_t>& degrees, uint64_t units,
                                uint64_t row_cost) {
  const auto ends = inclusive_ends(degrees);
  const uint64_t rows = ends.size(), edges = rows ? ends.back() : 0;
  const uint64_t tiles = row_tile_count(rows, edges, units, row_cost);
  auto first_row = [&](uint64_t t) {
    return row_tile_first_row(t, units, row_cost, ends.data(), rows);
  };
  EXPECT_EQ(first_row(0), 0u);
  EXPECT_EQ(first_row(tiles), rows);
  for (uint64_t t = 0; t < tiles; ++t) {
    const uint64_t first = first_row(t), end = first_row(t + 1);
    ASSERT_LE(first, end) << "tile " << t;
    ASSERT_LE(end - first, units / row_cost + 1) << "tile " << t;
    if (end == first) continue;
    const uint64_t tile_edges = ends[end - 1] - (first ? ends[first - 1] : 0);
    EXPECT_LT(tile_edges, units + degrees[first]) << "tile " << t;
  }
}

TEST(RowTiles, TilesPartitionTheRowsEvenly) {
  expect_row_tiles_partition({}, 8, 1);
  expect_row_tiles_partition({0, 0, 0}, 8, 4);
  expect_row_tiles_partition({3, 0, 2, 5}, 4, 1);
  expect_row_tiles_partition({100, 1, 1, 0, 40, 2}, 8, 2);  // rows longer than a tile
  std::mt19937_64 random(11);
  for (int round = 0; round < 100; ++round) {
    std::vector<uint64_t> degrees(random() % 300);
    for (uint64_t& degree : degrees) degree = random() % 8 == 0 ? random() % 200 : random() % 6;
    expect_row_tiles_partition(degrees, 4 + random() % 64, 1 + random() % 4);
  }
}

// One tile per block, within the bounds.
TEST(RowTiles, UnitsFollowTheGrid) {
  EXPECT_EQ(row_tile_units_for(1000, 6000, 4, 10, 512, 4092), 1000u);
  EXPECT_EQ(row_tile_units_for(1000, 6000, 4, 1000, 512, 4092), 512u);    // small graph
  EXPECT_EQ(row_tile_units_for(1000, 600000, 4, 10, 512, 4092), 4092u);  // large graph
  EXPECT_EQ(row_tile_units_for(10, 0, 4, 0, 512, 4092), 512u);           // no blocks
}

TEST(RowTiles, TileCount) {
  EXPECT_EQ(row_tile_count(0, 0, 4092, 4), 0u);
  EXPECT_EQ(row_tile_count(1, 0, 4092, 4), 1u);
  EXPECT_EQ(row_tile_count(1000, 92, 4092, 4), 1u);
  EXPECT_EQ(row_tile_count(1000, 93, 4092, 4), 2u);
  EXPECT_EQ(row_tile_count(uint64_t{1} << 25, uint64_t{1} << 29, 1024, 1),
            ((uint64_t{1} << 25) + (uint64_t{1} << 29)) / 1024);
}

// Each thread's share of tiles + atoms: contiguous, covering, and within one
// unit of every other thread's (an even split, as merge-path promises).
TEST(MergePathShare, SharesDifferByAtMostOneUnit) {
  const struct {
    uint64_t tiles, atoms, threads;
  } cases[] = {{4, 6, 4},     {1, 32, 32},   {3, 0, 8},         {0, 0, 16},
               {100, 0, 64},  {7, 1000, 96}, {500, 1003, 1024}, {1, 1000000, 163840}};
  for (const auto& c : cases) {
    uint64_t next = 0, smallest = ~uint64_t{0}, largest = 0;
    for (uint64_t t = 0; t < c.threads; ++t) {
      const IndexRange share = merge_path_share(t, c.threads, c.tiles, c.atoms);
      ASSERT_EQ(share.begin, next) << "thread " << t;
      next = share.end;
      smallest = std::min(smallest, share.size());
      largest = std::max(largest, share.size());
    }
    EXPECT_EQ(next, c.tiles + c.atoms);
    EXPECT_LE(largest - smallest, 1u)
        << c.tiles << " tiles + " << c.atoms << " atoms over " << c.threads << " threads";
  }
}

TEST(MergePathShare, SixtyFourBitTotals) {
  const uint64_t threads = 108 * 2048, tiles = 33554432, atoms = 3 * k2to32 + 11;
  uint64_t next = 0;
  for (uint64_t t = 0; t < threads; ++t) {
    const IndexRange share = merge_path_share(t, threads, tiles, atoms);
    ASSERT_EQ(share.begin, next);
    ASSERT_GE(share.size(), (tiles + atoms) / threads);
    ASSERT_LE(share.size(), (tiles + atoms) / threads + 1);
    next = share.end;
  }
  EXPECT_EQ(next, tiles + atoms);
}

// A block hands its block bin over once half of the grid's blocks are done.
TEST(AlbHandOver, OnceHalfOfTheGridIsDone) {
  EXPECT_FALSE(alb_hands_over(0, 4));
  EXPECT_FALSE(alb_hands_over(1, 4));
  EXPECT_TRUE(alb_hands_over(2, 4));
  EXPECT_FALSE(alb_hands_over(2, 5));
  EXPECT_TRUE(alb_hands_over(3, 5));
  EXPECT_FALSE(alb_hands_over(0, 1));  // a block alone never does
  EXPECT_TRUE(alb_hands_over(528, 1056));
}

}  // namespace
}  // namespace irgl::gpu::schedule
