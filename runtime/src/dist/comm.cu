// The processes of a multi-GPU run and NCCL between them (irgl/dist/comm.h).
#include "irgl/dist/comm.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "irgl/gpu/check.h"
#include "irgl/support/error.h"

namespace irgl::dist {

namespace {

// The first of `names` that is set, and its name.
const char* first_set(std::initializer_list<const char*> names, const char** which) {
  for (const char* name : names)
    if (const char* value = std::getenv(name)) {
      *which = name;
      return value;
    }
  return nullptr;
}

unsigned parse_count(const char* name, const char* text) {
  char* end = nullptr;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (end == text || *end != '\0' || value > 1u << 20)
    throw InputError::in(name, std::string("'") + text + "' is not a rank or a count");
  return static_cast<unsigned>(value);
}

// Reads one variable of `names` into `value`; false when none is set.
bool read_variable(std::initializer_list<const char*> names, unsigned& value) {
  const char* name = nullptr;
  const char* text = first_set(names, &name);
  if (!text) return false;
  value = parse_count(name, text);
  return true;
}

void write_unique_id(const std::string& path, const ncclUniqueId& id) {
  if (access(path.c_str(), F_OK) == 0)
    throw InputError::in("IRGL_RENDEZVOUS", "'" + path +
                                                "' exists already (left by an earlier run?): "
                                                "remove it or name a new file");
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    out.write(id.internal, sizeof(id.internal));
    if (!out) throw InputError::in("IRGL_RENDEZVOUS", "cannot write '" + temporary + "'");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0)  // readers never see half an id
    throw InputError::in("IRGL_RENDEZVOUS", "cannot rename '" + temporary + "' to '" + path + "'");
}

ncclUniqueId read_unique_id(const std::string& path, unsigned rank) {
  const char* limit = std::getenv("IRGL_RENDEZVOUS_TIMEOUT");
  const unsigned seconds = limit ? parse_count("IRGL_RENDEZVOUS_TIMEOUT", limit) : 120;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  ncclUniqueId id;
  for (;;) {
    std::ifstream in(path, std::ios::binary);
    if (in.read(id.internal, sizeof(id.internal))) return id;
    if (std::chrono::steady_clock::now() > deadline)
      throw InputError::in("IRGL_RENDEZVOUS",
                           "rank " + std::to_string(rank) + " waited " + std::to_string(seconds) +
                               " s for rank 0 to write '" + path + "'");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

Launch launch_from_environment() {
  Launch launch;
  const bool ranked = read_variable({"IRGL_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"},
                                    launch.rank);
  const bool sized = read_variable(
      {"IRGL_WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}, launch.world_size);
  if (ranked != sized)
    throw InputError::in(ranked ? "IRGL_WORLD_SIZE" : "IRGL_RANK",
                         "not set, but the process's rank or world size is: set both "
                         "(tools/irgl-launch does)");
  if (launch.world_size == 0) throw InputError::in("IRGL_WORLD_SIZE", "must be at least 1");
  if (launch.rank >= launch.world_size)
    throw InputError::in("IRGL_RANK", "rank " + std::to_string(launch.rank) +
                                          " is not below the world size " +
                                          std::to_string(launch.world_size));
  if (!read_variable({"IRGL_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                      "SLURM_LOCALID"},
                     launch.local_rank))
    launch.local_rank = launch.rank;
  if (const char* path = std::getenv("IRGL_RENDEZVOUS")) launch.rendezvous = path;
  if (launch.world_size > 1 && launch.rendezvous.empty())
    throw InputError::in("IRGL_RENDEZVOUS",
                         "not set: " + std::to_string(launch.world_size) +
                             " ranks need a file that every rank can read to meet through");
  return launch;
}

void check_nccl(ncclResult_t result, const char* call, const char* file, int line) {
  if (result == ncclSuccess) return;
  const char* base = std::strrchr(file, '/');
  throw std::runtime_error(std::string(base ? base + 1 : file) + ":" + std::to_string(line) +
                           ": " + call + ": " + ncclGetErrorString(result) + " (" +
                           ncclGetLastError(nullptr) + ")");
}

ncclRedOp_t nccl_op(Combine combine) {
  switch (combine) {
    case Combine::sum: return ncclSum;
    case Combine::min: return ncclMin;
    case Combine::max: return ncclMax;
  }
  return ncclSum;
}

Comm::Comm(const Launch& launch) : launch_(launch) {
  // NVLink multicast stays off on shared machines (it can take their GPUs
  // out of service); a user who knows better sets the variable.
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  int devices = 0;
  IRGL_CUDA_CHECK(cudaGetDeviceCount(&devices));
  device_ = static_cast<int>(launch.local_rank % static_cast<unsigned>(devices));
  IRGL_CUDA_CHECK(cudaSetDevice(device_));
  ncclUniqueId id;
  if (launch.world_size == 1) {
    IRGL_NCCL_CHECK(ncclGetUniqueId(&id));
  } else if (launch.rank == 0) {
    IRGL_NCCL_CHECK(ncclGetUniqueId(&id));
    write_unique_id(launch.rendezvous, id);
  } else {
    id = read_unique_id(launch.rendezvous, launch.rank);
  }
  IRGL_NCCL_CHECK(ncclCommInitRank(&nccl_, static_cast<int>(launch.world_size), id,
                                   static_cast<int>(launch.rank)));
  scratch_ = gpu::DeviceBuffer<uint64_t>(2);
  barrier();  // every rank has read the id
  if (launch.world_size > 1 && launch.rank == 0) std::remove(launch.rendezvous.c_str());
}

Comm::~Comm() {
  if (nccl_) ncclCommDestroy(nccl_);
}

}  // namespace irgl::dist
