// Sparse matrix products in kernels we own, on the schedule ranges
// (irgl/gpu/schedule/ranges.cuh; paper 000, Listings 4 and 5): C = A B with
// A sparse (CSR) and B dense, row-major, with a few columns. SpMV, y = A x,
// is the one-column case. One kernel per schedule, plus one that composes
// two schedules: rows longer than a cut-off block-mapped, the rest
// thread-mapped. Used by sparse_ranges.cu and tests/gpu/runtime/.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <optional>
#include <string>
#include <vector>

#include "irgl/gpu/check.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/schedule/ranges.cuh"
#include "irgl/gpu/schedule/state.cuh"
#include "irgl/support/host_device.h"

namespace irgl::examples {

namespace cg = cooperative_groups;
using gpu::ranges::CsrTiles;
using gpu::ranges::StepRange;
using gpu::ranges::TileList;

// A CSR matrix on the device: row r's nonzeros are [offsets[r],
// offsets[r + 1]), in columns columns[nz], of values values[nz].
struct SparseMatrix {
  const uint64_t* offsets = nullptr;
  const VertexId* columns = nullptr;
  const float* values = nullptr;
  uint32_t rows = 0;

  IRGL_HD CsrTiles<> all_rows() const { return gpu::ranges::csr_tiles(offsets, rows); }
  IRGL_HD CsrTiles<TileList> listed_rows(TileList list) const {
    return gpu::ranges::csr_tiles(offsets, list);
  }
};

// C = A B: B has A's column count of rows, C has A's rows; both `cols`
// columns, row-major.
struct Product {
  SparseMatrix a;
  const float* b = nullptr;
  float* c = nullptr;
  uint32_t cols = 1;

  __device__ float term(uint64_t nz, uint32_t col) const {
    return a.values[nz] * b[uint64_t(a.columns[nz]) * cols + col];
  }
  __device__ float* out(VertexId row, uint32_t col) const { return c + uint64_t(row) * cols + col; }
  __device__ float dot(StepRange atoms, uint32_t col) const {
    float sum = 0;
    for (uint64_t nz : atoms) sum += term(nz, col);
    return sum;
  }
};

template <int B>
using BlockSum = cub::BlockReduce<float, B>;

// A row by the calling thread alone.
__device__ inline void thread_row(const Product& p, VertexId row, StepRange atoms) {
  for (uint32_t col = 0; col < p.cols; ++col) *p.out(row, col) = p.dot(atoms, col);
}

// A row by the whole block (every thread of the block calls it).
template <int B>
__device__ void block_row(typename BlockSum<B>::TempStorage& temp, const Product& p, VertexId row,
                          StepRange atoms) {
  for (uint32_t col = 0; col < p.cols; ++col) {
    const float sum = BlockSum<B>(temp).Sum(p.dot(atoms, col));
    if (threadIdx.x == 0) *p.out(row, col) = sum;
    __syncthreads();  // temp is reused
  }
}

// Adds consecutive terms of one row up before adding them to C, one atomic
// per run instead of per term.
class RowRun {
 public:
  __device__ RowRun(const Product& p, uint32_t col) : p_(p), col_(col) {}
  __device__ void add(VertexId row, float term) {
    if (row != row_) flush();
    row_ = row;
    sum_ += term;
  }
  __device__ void flush() {
    if (row_ != kNone) atomicAdd(p_.out(row_, col_), sum_);
    sum_ = 0;
  }

 private:
  static constexpr VertexId kNone = ~VertexId{0};
  const Product& p_;
  uint32_t col_;
  VertexId row_ = kNone;
  float sum_ = 0;
};

template <int B>
__global__ void __launch_bounds__(B) thread_mapped_product(Product p) {
  const auto rows = gpu::ranges::thread_mapped(p.a.all_rows());
  for (VertexId row : rows.tiles()) thread_row(p, row, rows.atoms(row));
}

template <int B>
__global__ void __launch_bounds__(B) warp_mapped_product(Product p) {
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const auto rows = gpu::ranges::warp_mapped(p.a.all_rows());
  for (VertexId row : rows.tiles())
    for (uint32_t col = 0; col < p.cols; ++col) {
      const float sum = cg::reduce(warp, p.dot(rows.atoms(row), col), cg::plus<float>());
      if (warp.thread_rank() == 0) *p.out(row, col) = sum;
    }
}

template <int B>
__global__ void __launch_bounds__(B) block_mapped_product(Product p) {
  __shared__ typename BlockSum<B>::TempStorage temp;
  const auto rows = gpu::ranges::block_mapped(p.a.all_rows());
  for (VertexId row : rows.tiles()) block_row<B>(temp, p, row, rows.atoms(row));
}

// C zeroed first: a row's atoms may be spread over a group's threads.
template <int B>
__global__ void __launch_bounds__(B) group_mapped_product(Product p, uint32_t group_size) {
  using Group = gpu::ranges::GroupMappedAtoms<B, CsrTiles<>>;
  __shared__ typename Group::TempStorage temp;
  Group group(temp, p.a.all_rows(), group_size);
  for (uint64_t round : group.rounds()) {
    const auto atoms = group.atoms(round);
    for (uint32_t col = 0; col < p.cols; ++col) {
      RowRun run(p, col);
      for (const auto [row, nz] : atoms) run.add(row, p.term(nz, col));
      run.flush();
    }
  }
}

// C zeroed first: the pieces of a row cut by shares add up atomically.
template <int B>
__global__ void __launch_bounds__(B) merge_path_product(Product p) {
  for (const auto& piece : gpu::ranges::merge_path(p.a.all_rows()))
    for (uint32_t col = 0; col < p.cols; ++col) {
      const float sum = p.dot(piece.atoms, col);
      if (piece.whole) *p.out(piece.tile, col) = sum;
      else atomicAdd(p.out(piece.tile, col), sum);
    }
}

// Two schedules in one kernel: the long rows a block each, then the short
// ones a thread each. A long row in a thread would hold up its warp; a short
// row in a block would leave most of its threads idle.
template <int B>
__global__ void __launch_bounds__(B) composed_product(Product p, TileList long_rows,
                                                      TileList short_rows) {
  __shared__ typename BlockSum<B>::TempStorage temp;
  const auto by_block = gpu::ranges::block_mapped(p.a.listed_rows(long_rows));
  for (VertexId row : by_block.tiles()) block_row<B>(temp, p, row, by_block.atoms(row));
  const auto by_thread = gpu::ranges::thread_mapped(p.a.listed_rows(short_rows));
  for (VertexId row : by_thread.tiles()) thread_row(p, row, by_thread.atoms(row));
}

//===----------------------------------------------------------------------===//
// Host side: the schedules by name, and their launch
//===----------------------------------------------------------------------===//

inline constexpr int kBlockThreads = 256;

enum class ScheduleKind { thread, warp, block, group, merge_path, composed };

struct Schedule {
  ScheduleKind kind = ScheduleKind::thread;
  uint32_t group_size = 0;  // group: 1 to kBlockThreads
};

inline const char* kScheduleNames = "thread, warp, block, group:G (G from 1 to 256), merge-path, composed";

// thread, warp, block, group:G, merge-path or composed; nothing for others.
inline std::optional<Schedule> parse_schedule(const std::string& name) {
  if (name == "thread") return Schedule{ScheduleKind::thread};
  if (name == "warp") return Schedule{ScheduleKind::warp};
  if (name == "block") return Schedule{ScheduleKind::block};
  if (name == "merge-path") return Schedule{ScheduleKind::merge_path};
  if (name == "composed") return Schedule{ScheduleKind::composed};
  if (name.rfind("group:", 0) != 0) return std::nullopt;
  const std::string size = name.substr(6);
  if (size.empty() || size.size() > 4 || size.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const uint32_t group_size = uint32_t(std::stoul(size));
  if (group_size < 1 || group_size > kBlockThreads) return std::nullopt;
  return Schedule{ScheduleKind::group, group_size};
}

// The composed kernel's rows: longer than `long_row` nonzeros, and the rest.
class RowSplit {
 public:
  RowSplit(const std::vector<uint64_t>& offsets, uint64_t long_row) {
    std::vector<VertexId> long_ids, short_ids;
    for (size_t r = 0; r + 1 < offsets.size(); ++r)
      (offsets[r + 1] - offsets[r] > long_row ? long_ids : short_ids).push_back(VertexId(r));
    long_ = gpu::DeviceBuffer<VertexId>(long_ids);
    short_ = gpu::DeviceBuffer<VertexId>(short_ids);
  }
  TileList long_rows() const { return {long_.data(), long_.size()}; }
  TileList short_rows() const { return {short_.data(), short_.size()}; }

 private:
  gpu::DeviceBuffer<VertexId> long_, short_;
};

// The schedule's kernel, as an untyped pointer (for the occupancy query).
inline const void* product_kernel(ScheduleKind kind) {
  constexpr int B = kBlockThreads;
  switch (kind) {
    case ScheduleKind::thread: return reinterpret_cast<const void*>(thread_mapped_product<B>);
    case ScheduleKind::warp: return reinterpret_cast<const void*>(warp_mapped_product<B>);
    case ScheduleKind::block: return reinterpret_cast<const void*>(block_mapped_product<B>);
    case ScheduleKind::group: return reinterpret_cast<const void*>(group_mapped_product<B>);
    case ScheduleKind::merge_path: return reinterpret_cast<const void*>(merge_path_product<B>);
    case ScheduleKind::composed: return reinterpret_cast<const void*>(composed_product<B>);
  }
  return nullptr;
}

// Blocks of the schedule's kernel that fill the GPU once.
inline unsigned resident_blocks(const Schedule& schedule) {
  return gpu::schedule::resident_grid(product_kernel(schedule.kind), kBlockThreads);
}

// C = A B with `schedule` on `blocks` blocks of kBlockThreads threads
// (asynchronous on `stream`). `split`: the composed schedule's rows.
inline void multiply(const Schedule& schedule, const Product& p, const RowSplit* split,
                     unsigned blocks, cudaStream_t stream = 0) {
  constexpr int B = kBlockThreads;
  const ScheduleKind kind = schedule.kind;
  if (kind == ScheduleKind::group || kind == ScheduleKind::merge_path)
    IRGL_CUDA_CHECK(cudaMemsetAsync(p.c, 0, sizeof(float) * p.a.rows * p.cols, stream));
  if (kind == ScheduleKind::thread) thread_mapped_product<B><<<blocks, B, 0, stream>>>(p);
  if (kind == ScheduleKind::warp) warp_mapped_product<B><<<blocks, B, 0, stream>>>(p);
  if (kind == ScheduleKind::block) block_mapped_product<B><<<blocks, B, 0, stream>>>(p);
  if (kind == ScheduleKind::group)
    group_mapped_product<B><<<blocks, B, 0, stream>>>(p, schedule.group_size);
  if (kind == ScheduleKind::merge_path) merge_path_product<B><<<blocks, B, 0, stream>>>(p);
  if (kind == ScheduleKind::composed)
    composed_product<B><<<blocks, B, 0, stream>>>(p, split->long_rows(), split->short_rows());
  IRGL_CUDA_CHECK_LAUNCH();
}

}  // namespace irgl::examples
