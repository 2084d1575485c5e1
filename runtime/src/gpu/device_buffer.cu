// Out-of-line parts of device_buffer.h: the fill kernel and size checks.
#include <cstring>

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

void free_on(int device, void* data) noexcept {
  int current = device;
  if (cudaGetDevice(&current) == cudaSuccess && current != device &&
      cudaSetDevice(device) == cudaSuccess) {
    cudaFree(data);
    cudaSetDevice(current);
    return;
  }
  cudaFree(data);
}

void check_transfer_size(const char* operation, size_t count, size_t size) {
  if (count > size)
    throw std::out_of_range(std::string(operation) + ": " + std::to_string(count) +
                            " elements do not fit in a buffer of " + std::to_string(size));
}

}  // namespace irgl::gpu::detail
