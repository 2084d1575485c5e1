// Out-of-line parts of device_buffer.h: the fill kernel, size checks and
// the per-device memory pools.
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/launch.cuh"

namespace irgl::gpu::detail {

namespace {

template <class Word>
__global__ void fill_kernel(Word* destination, uint64_t count, Word value) {
  for (uint64_t i = global_thread_index(); i < count; i += grid_thread_count())
    destination[i] = value;
}

template <class Word>
void launch_fill(void* destination, uint64_t count, const void* value, cudaStream_t stream) {
  Word word;
  std::memcpy(&word, value, sizeof word);
  fill_kernel<<<grid_blocks(count), kBlockThreads, 0, stream>>>(static_cast<Word*>(destination),
                                                                count, word);
  IRGL_CUDA_CHECK_LAUNCH();
}

}  // namespace

void fill_words(void* destination, uint64_t count, const void* value, size_t word_bytes,
                cudaStream_t stream) {
  if (count == 0) return;
  switch (word_bytes) {
    case 1:
      IRGL_CUDA_CHECK(
          cudaMemsetAsync(destination, *static_cast<const unsigned char*>(value), count, stream));
      return;
    case 2:
      return launch_fill<uint16_t>(destination, count, value, stream);
    case 4:
      return launch_fill<uint32_t>(destination, count, value, stream);
    case 8:
      return launch_fill<uint64_t>(destination, count, value, stream);
  }
  throw std::invalid_argument("fill_words: word size " + std::to_string(word_bytes) +
                              " is not 1, 2, 4 or 8 bytes");
}

int current_device() {
  int device = 0;
  IRGL_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

namespace {

// The pools of pooled() buffers, one per device, created on first use and
// kept for the life of the process (destroying them at exit could run after
// the CUDA context is gone). A device without memory pools gets none.
struct DevicePools {
  std::mutex mutex;
  std::vector<cudaMemPool_t> pools;      // by device; nullptr: not created
  std::vector<bool> unsupported;         // by device
};

DevicePools& device_pools() {
  static DevicePools* pools = new DevicePools;  // never destroyed, as above
  return *pools;
}

cudaMemPool_t create_pool(int device) {
  int supported = 0;
  IRGL_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
  if (!supported) return nullptr;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  IRGL_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  // Keep freed memory at synchronisations (reuse is what the pool is for),
  // but not more than an eighth of the device: beyond it, memory returns to
  // the device where other allocators and free-memory figures see it.
  size_t free = 0, total = 0;
  IRGL_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  uint64_t keep = total / 8;
  IRGL_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  return pool;
}

// The pool of `device`, or nullptr when it has none.
cudaMemPool_t pool_of(int device) {
  DevicePools& all = device_pools();
  const std::lock_guard<std::mutex> lock(all.mutex);
  const size_t index = static_cast<size_t>(device);
  if (all.pools.size() <= index) {
    all.pools.resize(index + 1, nullptr);
    all.unsupported.resize(index + 1, false);
  }
  if (all.pools[index] == nullptr && !all.unsupported[index]) {
    all.pools[index] = create_pool(device);
    all.unsupported[index] = all.pools[index] == nullptr;
  }
  return all.pools[index];
}

// Hands the current device's pool memory that no buffer holds back to the
// device (after the frees queued on it have run); whether it had a pool.
bool trim_current_pool() {
  const int device = current_device();
  cudaMemPool_t pool = nullptr;
  {
    DevicePools& all = device_pools();
    const std::lock_guard<std::mutex> lock(all.mutex);
    if (static_cast<size_t>(device) < all.pools.size()) pool = all.pools[device];
  }
  if (pool == nullptr) return false;
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
  IRGL_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
  return true;
}

}  // namespace
}  // namespace irgl::gpu::detail

namespace irgl::gpu {
void release_pooled_memory() { detail::trim_current_pool(); }
}  // namespace irgl::gpu

namespace irgl::gpu::detail {

bool allocate(void** data, size_t bytes, bool pooled) {
  if (pooled) {
    if (cudaMemPool_t pool = pool_of(current_device())) {
      IRGL_CUDA_CHECK(cudaMallocFromPoolAsync(data, bytes, pool, 0));
      return true;
    }
  }
  cudaError_t status = cudaMalloc(data, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: consume it before trying again
    if (trim_current_pool()) status = cudaMalloc(data, bytes);
  }
  if (status != cudaSuccess)
    throw_cuda_error(status, "cudaMalloc(data, bytes)", __FILE__, __LINE__);
  return false;
}

void free_on(int device, void* data, bool pooled) noexcept {
  int current = device;
  if (cudaGetDevice(&current) != cudaSuccess) current = device;
  const bool switch_device = current != device;
  if (switch_device && cudaSetDevice(device) != cudaSuccess) {
    // Pooled memory must be freed in its device's order: rather leak it.
    if (!pooled) cudaFree(data);
    return;
  }
  if (pooled) {
    // As cudaFree does: work on any stream (a caller's non-blocking one,
    // which the pool's stream order does not cover) may still read it.
    cudaDeviceSynchronize();
    cudaFreeAsync(data, 0);
  } else {
    cudaFree(data);
  }
  if (switch_device) cudaSetDevice(current);
}

void check_transfer_size(const char* operation, size_t count, size_t size) {
  if (count > size)
    throw std::out_of_range(std::string(operation) + ": " + std::to_string(count) +
                            " elements do not fit in a buffer of " + std::to_string(size));
}

}  // namespace irgl::gpu::detail
