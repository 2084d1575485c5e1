// The schedules as ranges inside a kernel the caller owns (paper 000, the
// loops library): each thread asks a schedule for its tiles and atoms and
// loops over them with range-based for loops, so one kernel can run several
// schedules back to back, fuse other work with them, and keep its own
// launch configuration. The policies of schedules.cuh, by contrast, launch
// their own kernels over a Body.
//
//   __global__ void spmv(const uint64_t* offsets, const VertexId* columns,
//                        const float* values, uint32_t rows, const float* x, float* y) {
//     const auto matrix = thread_mapped(csr_tiles(offsets, rows));
//     for (VertexId row : matrix.tiles()) {
//       float sum = 0;
//       for (uint64_t nz : matrix.atoms(row)) sum += values[nz] * x[columns[nz]];
//       y[row] = sum;
//     }
//   }
//
// | range                          | header                  | tiles and atoms to threads |
// |--------------------------------|-------------------------|----------------------------|
// | step_range, grid/block/warp_stride_range | ranges_core.cuh | indices, strided          |
// | thread_mapped(tiles)           | ranges_core.cuh         | a tile per thread          |
// | warp_mapped, block_mapped      | ranges_core.cuh         | a tile per warp / block, atoms over its lanes |
// | team_mapped(tiles, team_of_size(G)) | ranges_core.cuh    | a tile per group of G threads |
// | GroupMappedAtoms<B, Tiles>     | group_mapped_ranges.cuh | G tiles per group of G, atoms spread evenly over the group (prefix sum) |
// | merge_path(tiles, offsets)     | merge_path_ranges.cuh   | equal shares of tiles + atoms per thread |
//
// Shared memory, where a schedule needs it, is the caller's (TempStorage,
// CUB style); nothing here is global. Examples: runtime/examples/
// sparse_ranges.cuh (SpMV, SpMM, a kernel composing two schedules);
// docs/schedules.md, "Schedules in a kernel you own".
#pragma once

#include "irgl/gpu/schedule/group_mapped_ranges.cuh"
#include "irgl/gpu/schedule/merge_path_ranges.cuh"
#include "irgl/gpu/schedule/ranges_core.cuh"
