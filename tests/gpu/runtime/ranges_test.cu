// The schedule ranges (irgl/gpu/schedule/ranges.cuh) in test kernels: every
// range and schedule must hand each atom of its tiles to exactly one thread,
// with the right tile, on every test matrix (skewed, empty and single-row
// ones included), over all rows and over a shuffled list of rows, on grids
// smaller and larger than the work, for group sizes that are powers of two
// and not. Group-mapped atoms must also be spread evenly over each group,
// and merge-path must give every tile one whole piece or only partial ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/schedule/ranges.cuh"
#include "sparse_fixtures.h"

namespace irgl::gpu::ranges {
namespace {

using testing::DeviceMatrix;
using testing::HostMatrix;

const std::vector<uint32_t> kGroupSizes = {1, 3, 7, 32, 33, 96, 256};
const std::vector<unsigned> kGridBlocks = {1, 3, 64};

// What the kernels saw, per atom and per tile.
struct TallyView {
  unsigned* atom_visits;
  VertexId* atom_tile;
  unsigned* tile_visits;  // team leaders per tile; whole pieces (merge-path)
  unsigned* partials;     // partial pieces (merge-path)
  unsigned* thread_atoms; // atoms per thread of the grid (group-mapped)
};

__device__ void see(const TallyView& tally, VertexId tile, uint64_t atom) {
  atomicAdd(&tally.atom_visits[atom], 1u);
  tally.atom_tile[atom] = tile;
}

struct Tally {
  Tally(const HostMatrix& m, uint64_t threads)
      : atom_visits(m.nonzeros()), atom_tile(m.nonzeros()), tile_visits(m.rows()),
        partials(m.rows()), thread_atoms(threads) {
    atom_visits.zero();
    atom_tile.fill(~VertexId{0});
    tile_visits.zero();
    partials.zero();
    thread_atoms.zero();
  }
  TallyView view() {
    return {atom_visits.data(), atom_tile.data(), tile_visits.data(), partials.data(),
            thread_atoms.data()};
  }
  DeviceBuffer<unsigned> atom_visits;
  DeviceBuffer<VertexId> atom_tile;
  DeviceBuffer<unsigned> tile_visits, partials, thread_atoms;
};

// The tiles a test runs over: every row, or a shuffled subset.
struct TileChoice {
  bool listed = false;
  std::vector<VertexId> ids;          // listed: the rows, in order
  DeviceBuffer<VertexId> device_ids;  // listed: on the device

  TileChoice(const HostMatrix& m, bool listed_rows)
      : listed(listed_rows), ids(listed_rows ? testing::shuffled_row_subset(m.rows(), 9)
                                             : testing::iota_ids(m.rows())),
        device_ids(ids) {}
  TileList list() const { return {device_ids.data(), device_ids.size()}; }
};

// Each atom of a chosen row seen once, with its row; others never.
void expect_atoms_once(const HostMatrix& m, const TileChoice& choice, Tally& tally) {
  std::vector<unsigned> visits(m.nonzeros(), 0);
  std::vector<VertexId> tiles(m.nonzeros(), ~VertexId{0});
  for (VertexId row : choice.ids)
    for (uint64_t nz = m.offsets[row]; nz < m.offsets[row + 1]; ++nz) {
      visits[nz] = 1;
      tiles[nz] = row;
    }
  EXPECT_TRUE(testing::vectors_equal(visits, tally.atom_visits.download())) << "visits per atom";
  EXPECT_TRUE(testing::vectors_equal(tiles, tally.atom_tile.download())) << "tile per atom";
}

// Each chosen row seen by `expected` team leaders, the others by none.
void expect_tile_visits(const HostMatrix& m, const TileChoice& choice, Tally& tally) {
  std::vector<unsigned> visits(m.rows(), 0);
  for (VertexId row : choice.ids) visits[row] = 1;
  EXPECT_TRUE(testing::vectors_equal(visits, tally.tile_visits.download())) << "visits per tile";
}

// Runs `test(matrix, choice)` on every matrix, over all rows and a list.
template <class Test>
void for_each_matrix_and_choice(Test&& test) {
  for (const HostMatrix& m : testing::test_matrices())
    for (bool listed : {false, true}) {
      SCOPED_TRACE(m.name + (listed ? ", listed rows" : ", all rows"));
      const DeviceMatrix device(m);
      const TileChoice choice(m, listed);
      test(m, device, choice);
    }
}

//===----------------------------------------------------------------------===//
// Step ranges
//===----------------------------------------------------------------------===//

TEST(StepRange, IteratesFromByStepBelowTo) {
  std::vector<uint64_t> seen;
  for (uint64_t i : step_range(3, 20, 5)) seen.push_back(i);
  EXPECT_EQ(seen, (std::vector<uint64_t>{3, 8, 13, 18}));
  EXPECT_EQ(step_range(3, 20, 5).size(), 4u);
  EXPECT_EQ(step_range(7, 7, 1).size(), 0u);
  EXPECT_EQ(step_range(9, 4, 1).size(), 0u);
  for (uint64_t i : step_range(9, 4, 1)) ADD_FAILURE() << "empty range gave " << i;
}

enum class Stride { grid, block, warp };

__global__ void stride_kernel(uint64_t from, uint64_t to, Stride stride, unsigned* seen) {
  const StepRange range = stride == Stride::grid    ? grid_stride_range(from, to)
                          : stride == Stride::block ? block_stride_range(from, to)
                                                    : warp_stride_range(from, to);
  for (uint64_t i : range) atomicAdd(&seen[i], 1u);
}

TEST(StrideRanges, GridBlockAndWarpCoverTheirIndicesOncePerStrider) {
  IRGL_REQUIRE_GPU();
  const uint64_t from = 5, to = 10000;
  for (unsigned blocks : kGridBlocks)
    for (Stride stride : {Stride::grid, Stride::block, Stride::warp}) {
      DeviceBuffer<unsigned> seen(to);
      seen.zero();
      stride_kernel<<<blocks, 128>>>(from, to, stride, seen.data());
      IRGL_CUDA_CHECK(cudaDeviceSynchronize());
      const unsigned per_index =
          stride == Stride::grid ? 1 : stride == Stride::block ? blocks : blocks * 4;
      std::vector<unsigned> expected(to, per_index);
      std::fill(expected.begin(), expected.begin() + from, 0);
      EXPECT_TRUE(testing::vectors_equal(expected, seen.download()))
          << blocks << " blocks, stride " << int(stride);
    }
}

//===----------------------------------------------------------------------===//
// A tile per team: thread-, warp-, block-mapped and teams of any size
//===----------------------------------------------------------------------===//

enum class Mapping { thread, warp, block, team };

template <class Tiles>
__device__ TeamMapped<Tiles> mapping_of(const Tiles& tiles, Mapping mapping, uint32_t team_size) {
  switch (mapping) {
    case Mapping::thread: return thread_mapped(tiles);
    case Mapping::warp: return warp_mapped(tiles);
    case Mapping::block: return block_mapped(tiles);
    default: return team_mapped(tiles, team_of_size(team_size));
  }
}

template <class Tiles>
__global__ void team_kernel(Tiles tiles, Mapping mapping, uint32_t team_size, TallyView tally) {
  const auto mapped = mapping_of(tiles, mapping, team_size);
  for (VertexId tile : mapped.tiles()) {
    if (mapped.team.rank == 0) atomicAdd(&tally.tile_visits[tile], 1u);
    for (uint64_t atom : mapped.atoms(tile)) see(tally, tile, atom);
  }
}

void run_team(const DeviceMatrix& device, const TileChoice& choice, Mapping mapping,
              uint32_t team_size, unsigned blocks, unsigned threads, Tally& tally) {
  const uint64_t* offsets = device.offsets.data();
  if (choice.listed)
    team_kernel<<<blocks, threads>>>(csr_tiles(offsets, choice.list()), mapping, team_size,
                                     tally.view());
  else
    team_kernel<<<blocks, threads>>>(csr_tiles(offsets, device.rows), mapping, team_size,
                                     tally.view());
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST(TeamMapped, ThreadWarpAndBlockMappedTakeEachTileOnceAndEachAtomOnce) {
  IRGL_REQUIRE_GPU();
  for_each_matrix_and_choice([](const HostMatrix& m, const DeviceMatrix& device,
                                const TileChoice& choice) {
    for (Mapping mapping : {Mapping::thread, Mapping::warp, Mapping::block})
      for (unsigned blocks : kGridBlocks)
        for (unsigned threads : {256u, 96u}) {
          SCOPED_TRACE("mapping " + std::to_string(int(mapping)) + ", " +
                       std::to_string(blocks) + " x " + std::to_string(threads));
          Tally tally(m, uint64_t(blocks) * threads);
          run_team(device, choice, mapping, 0, blocks, threads, tally);
          expect_atoms_once(m, choice, tally);
          expect_tile_visits(m, choice, tally);
        }
  });
}

TEST(TeamMapped, TeamsOfAnySizeTakeEachTileOnceAndEachAtomOnce) {
  IRGL_REQUIRE_GPU();
  for_each_matrix_and_choice([](const HostMatrix& m, const DeviceMatrix& device,
                                const TileChoice& choice) {
    for (uint32_t size : kGroupSizes)
      for (unsigned threads : {256u, 100u}) {
        if (size > threads) continue;
        SCOPED_TRACE("teams of " + std::to_string(size) + ", blocks of " + std::to_string(threads));
        Tally tally(m, 3u * threads);
        run_team(device, choice, Mapping::team, size, 3, threads, tally);
        expect_atoms_once(m, choice, tally);
        expect_tile_visits(m, choice, tally);
      }
  });
}

//===----------------------------------------------------------------------===//
// Group-mapped atoms: a prefix sum per group, atoms spread over the group
//===----------------------------------------------------------------------===//

template <int B, class Tiles>
__global__ void __launch_bounds__(B) group_kernel(Tiles tiles, uint32_t group_size,
                                                  TallyView tally) {
  using Group = GroupMappedAtoms<B, Tiles>;
  __shared__ typename Group::TempStorage temp;
  Group group(temp, tiles, group_size);
  unsigned mine = 0;
  for (uint64_t round : group.rounds())
    for (const auto [tile, atom] : group.atoms(round)) {
      see(tally, tile, atom);
      ++mine;
    }
  tally.thread_atoms[blockIdx.x * B + threadIdx.x] = mine;
}

template <int B>
void run_group(const DeviceMatrix& device, const TileChoice& choice, uint32_t group_size,
               unsigned blocks, Tally& tally) {
  const uint64_t* offsets = device.offsets.data();
  if (choice.listed)
    group_kernel<B><<<blocks, B>>>(csr_tiles(offsets, choice.list()), group_size, tally.view());
  else
    group_kernel<B><<<blocks, B>>>(csr_tiles(offsets, device.rows), group_size, tally.view());
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
}

// In each round the threads of a group take atoms differing in number by at
// most one, so over a block's rounds by at most its number of rounds. Threads
// past the block's last whole group take none.
void expect_groups_even(const std::vector<unsigned>& thread_atoms, uint64_t tiles,
                        unsigned blocks, uint32_t block_threads, uint32_t group_size) {
  const uint32_t per_block = block_threads / group_size * group_size;
  for (unsigned b = 0; b < blocks; ++b) {
    const uint64_t first = uint64_t(b) * per_block, stride = uint64_t(blocks) * per_block;
    const uint64_t rounds = first < tiles ? schedule::ceil_div(tiles - first, stride) : 0;
    const unsigned* block = thread_atoms.data() + uint64_t(b) * block_threads;
    for (uint32_t g = 0; g < per_block; g += group_size) {
      const auto [low, high] = std::minmax_element(block + g, block + g + group_size);
      EXPECT_LE(*high - *low, rounds) << "block " << b << ", group at thread " << g;
    }
    for (uint32_t t = per_block; t < block_threads; ++t)
      EXPECT_EQ(block[t], 0u) << "block " << b << ", thread " << t << " is in no group";
  }
}

template <int B>
void check_group_sizes(const std::vector<uint32_t>& sizes) {
  for_each_matrix_and_choice([&](const HostMatrix& m, const DeviceMatrix& device,
                                 const TileChoice& choice) {
    for (uint32_t size : sizes)
      for (unsigned blocks : kGridBlocks) {
        SCOPED_TRACE("groups of " + std::to_string(size) + " in blocks of " + std::to_string(B) +
                     ", " + std::to_string(blocks) + " blocks");
        Tally tally(m, uint64_t(blocks) * B);
        run_group<B>(device, choice, size, blocks, tally);
        expect_atoms_once(m, choice, tally);
        expect_groups_even(tally.thread_atoms.download(), choice.ids.size(), blocks, B, size);
      }
  });
}

TEST(GroupMappedAtoms, EachAtomOnceWithItsTileForGroupsOfAnySize) {
  IRGL_REQUIRE_GPU();
  check_group_sizes<256>(kGroupSizes);
}

TEST(GroupMappedAtoms, BlocksOfOtherSizes) {
  IRGL_REQUIRE_GPU();
  check_group_sizes<96>({1, 3, 32, 33, 96});
}

//===----------------------------------------------------------------------===//
// Merge-path
//===----------------------------------------------------------------------===//

template <class Tiles>
__global__ void merge_path_kernel(Tiles tiles, const uint64_t* offsets, TallyView tally) {
  for (const auto& piece : merge_path(tiles, offsets)) {
    atomicAdd(piece.whole ? &tally.tile_visits[piece.tile] : &tally.partials[piece.tile], 1u);
    for (uint64_t atom : piece.atoms) see(tally, piece.tile, atom);
  }
}

// The exclusive prefix sum of the chosen rows' lengths.
std::vector<uint64_t> chosen_offsets(const HostMatrix& m, const std::vector<VertexId>& rows) {
  std::vector<uint64_t> offsets{0};
  for (VertexId row : rows) offsets.push_back(offsets.back() + m.degree(row));
  return offsets;
}

// Every chosen tile: one whole piece and no partial one, or partial ones
// only (two at least, and never for an empty tile).
void expect_whole_or_cut(const HostMatrix& m, const TileChoice& choice, Tally& tally) {
  const std::vector<unsigned> whole = tally.tile_visits.download();
  const std::vector<unsigned> partial = tally.partials.download();
  for (VertexId row : choice.ids) {
    if (whole[row] == 1) {
      EXPECT_EQ(partial[row], 0u) << "row " << row;
    } else {
      EXPECT_EQ(whole[row], 0u) << "row " << row;
      EXPECT_GE(partial[row], 2u) << "row " << row;
      EXPECT_GT(m.degree(row), 0u) << "empty row " << row << " comes whole";
    }
  }
}

TEST(MergePath, EachAtomOnceAndEachTileWholeOrCut) {
  IRGL_REQUIRE_GPU();
  for_each_matrix_and_choice([](const HostMatrix& m, const DeviceMatrix& device,
                                const TileChoice& choice) {
    const DeviceBuffer<uint64_t> offsets(chosen_offsets(m, choice.ids));
    for (unsigned blocks : kGridBlocks) {
      SCOPED_TRACE(std::to_string(blocks) + " blocks");
      Tally tally(m, uint64_t(blocks) * 256);
      if (choice.listed)
        merge_path_kernel<<<blocks, 256>>>(csr_tiles(device.offsets.data(), choice.list()),
                                           offsets.data(), tally.view());
      else
        merge_path_kernel<<<blocks, 256>>>(csr_tiles(device.offsets.data(), device.rows),
                                           offsets.data(), tally.view());
      IRGL_CUDA_CHECK(cudaDeviceSynchronize());
      expect_atoms_once(m, choice, tally);
      expect_whole_or_cut(m, choice, tally);
    }
  });
}

}  // namespace
}  // namespace irgl::gpu::ranges
