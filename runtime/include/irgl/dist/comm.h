// The processes of a multi-GPU run, one per GPU, and NCCL between them
// (docs/multi-gpu.md).
//
//   irgl::dist::Comm comm(irgl::dist::launch_from_environment());
//   uint64_t total = comm.all_reduce(local, irgl::dist::Combine::sum);
//
// A process learns its place from the environment: tools/irgl-launch sets
// IRGL_RANK, IRGL_WORLD_SIZE and IRGL_LOCAL_RANK; under mpirun or Slurm
// their own variables serve (OMPI_COMM_WORLD_*, PMI_*, SLURM_*). The ranks
// meet through a rendezvous file that every host can read
// (IRGL_RENDEZVOUS): rank 0 writes NCCL's unique id there, the others
// read it. Without any of these a process runs alone (world size 1).
//
// Every collective runs on the legacy default stream, after the kernels
// before it.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdint>
#include <string>

#include "irgl/gpu/device_buffer.h"

namespace irgl::dist {

struct Launch {
  unsigned rank = 0, world_size = 1;
  unsigned local_rank = 0;  // among the ranks of its host: picks the GPU
  std::string rendezvous;   // the file NCCL's id passes through (world_size > 1)
};

// The launch the environment describes; throws InputError naming the
// variable whose value is not one (a rank outside the world, no
// rendezvous file for several ranks).
Launch launch_from_environment();

enum class Combine { sum, min, max };

// Throws CudaError-like std::runtime_error naming the NCCL call and its
// message when `result` is not ncclSuccess.
void check_nccl(ncclResult_t result, const char* call, const char* file, int line);
#define IRGL_NCCL_CHECK(call) ::irgl::dist::check_nccl((call), #call, __FILE__, __LINE__)

class Comm {
 public:
  // Selects the GPU (local_rank modulo the GPUs visible) and joins the
  // world (collective: every rank must construct its Comm).
  explicit Comm(const Launch& launch);
  ~Comm();
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  unsigned rank() const { return launch_.rank; }
  unsigned size() const { return launch_.world_size; }
  int device() const { return device_; }
  ncclComm_t nccl() const { return nccl_; }

  // The combination of every rank's `value` (collective; synchronizes).
  template <class T>
  T all_reduce(T value, Combine combine);
  // The combination of the device value at `value` over the ranks, into
  // `result` (device memory; collective, stream-ordered).
  template <class T>
  void all_reduce(const T* value, T* result, size_t count, Combine combine);
  void barrier() { all_reduce<uint32_t>(0, Combine::sum); }

 private:
  Launch launch_;
  int device_ = 0;
  ncclComm_t nccl_ = nullptr;
  gpu::DeviceBuffer<uint64_t> scratch_;  // all_reduce of host values
};

// NCCL's type of T.
template <class T>
constexpr ncclDataType_t nccl_type() {
  if constexpr (std::is_same_v<T, int32_t>) return ncclInt32;
  else if constexpr (std::is_same_v<T, uint32_t>) return ncclUint32;
  else if constexpr (std::is_same_v<T, int64_t>) return ncclInt64;
  else if constexpr (std::is_same_v<T, uint64_t>) return ncclUint64;
  else if constexpr (std::is_same_v<T, float>) return ncclFloat32;
  else if constexpr (std::is_same_v<T, double>) return ncclFloat64;
  else static_assert(sizeof(T) == 0, "no NCCL type for this T");
}

ncclRedOp_t nccl_op(Combine combine);

template <class T>
void Comm::all_reduce(const T* value, T* result, size_t count, Combine combine) {
  IRGL_NCCL_CHECK(ncclAllReduce(value, result, count, nccl_type<T>(), nccl_op(combine), nccl_, 0));
}

template <class T>
T Comm::all_reduce(T value, Combine combine) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "a scalar");
  T* slot = reinterpret_cast<T*>(scratch_.data());
  IRGL_CUDA_CHECK(cudaMemcpy(slot, &value, sizeof(T), cudaMemcpyHostToDevice));
  all_reduce(slot, slot + (sizeof(uint64_t) / sizeof(T)), 1, combine);
  T result;
  IRGL_CUDA_CHECK(cudaMemcpy(&result, slot + (sizeof(uint64_t) / sizeof(T)), sizeof(T),
                             cudaMemcpyDeviceToHost));
  return result;
}

}  // namespace irgl::dist
