// Owning, move-only storage in device memory and in page-locked host memory.
//
//   DeviceBuffer<uint32_t> labels(n);        // cudaMalloc, uninitialised
//   labels.fill(kInfinity, stream);           // asynchronous
//   std::vector<uint32_t> host = labels.download(stream);  // waits for stream
//   auto output = DeviceBuffer<uint32_t>::pooled(n);  // reused memory, see below
//
// Every call that can fail throws CudaError (see check.h). Objects are not
// thread-safe; distinct objects may be used from distinct host threads.
// Transfers with a stream are ordered on that stream; stream 0 is the legacy
// default stream, which also waits for work on other blocking streams.
// Destructors free without synchronizing beyond what cudaFree does itself
// (it waits for the device to finish work that may use the memory).
//
// Pooled buffers come from a stream-ordered pool per device (cudaMallocAsync
// on the legacy default stream) that keeps freed memory, up to an eighth of
// the device: storage allocated and freed on every call, such as a
// library's outputs handed to its caller, then costs neither cudaMalloc's
// mapping nor cudaFree's unmapping. Their destructor waits for the device,
// as cudaFree does, so that work on any stream that reads the buffer is
// done before the pool hands the memory out again. A plain allocation that
// finds the device full, and release_pooled_memory(), hand the pool's
// unused memory back. Pool memory cannot be shared through CUDA IPC.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "irgl/gpu/check.h"

namespace irgl::gpu {

namespace detail {

// Writes `count` copies of the `word_bytes`-byte pattern at `value` (1, 2, 4
// or 8 bytes) to device memory at `destination`, asynchronously on `stream`.
// One grid-stride kernel launch (a cudaMemsetAsync for 1-byte patterns).
void fill_words(void* destination, uint64_t count, const void* value, size_t word_bytes,
                cudaStream_t stream);

// Throws std::out_of_range naming `operation` unless count <= size.
void check_transfer_size(const char* operation, size_t count, size_t size);

// The current device (cudaGetDevice); throws CudaError.
int current_device();

// cudaFree(data) on `device` (for `pooled` memory: waits for the device,
// then cudaFreeAsync), restoring the current device after; errors are
// ignored (destructors call it).
void free_on(int device, void* data, bool pooled) noexcept;

// `bytes` of device memory on the current device: cudaMalloc, or from the
// device's pool when `pooled` and the device supports memory pools (returns
// whether it did). Throws CudaError.
bool allocate(void** data, size_t bytes, bool pooled);

}  // namespace detail

// Hands the current device's pooled memory that no buffer holds back to the
// device (after waiting for it), so that free-memory figures and other
// allocators see it. Throws CudaError.
void release_pooled_memory();

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "DeviceBuffer holds raw bytes: T must be trivially copyable");

 public:
  DeviceBuffer() = default;
  // `count` uninitialised elements (no allocation when 0).
  explicit DeviceBuffer(size_t count) { allocate(count); }
  // A copy of `host` (synchronous).
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { release(); }
  // `count` uninitialised elements from the current device's pool (see the
  // file comment), ordered on the legacy default stream.
  static DeviceBuffer pooled(size_t count) {
    DeviceBuffer buffer;
    buffer.allocate(count, true);
    return buffer;
  }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        device_(other.device_),
        pooled_(other.pooled_) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      device_ = other.device_;
      pooled_ = other.pooled_;
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }
  // Whether its memory is on the current device (an empty buffer's is):
  // storage kept between runs that may switch devices (a library's
  // file-scope vertex data) is reallocated when it is not.
  bool on_current_device() const { return data_ == nullptr || device_ == detail::current_device(); }
  // Whether its memory comes from a pool (pooled() on a device with pools;
  // for an empty buffer, whether reset() would take it from one).
  bool is_pooled() const { return pooled_; }
  // The device its memory is on (meaningless when empty).
  int device() const { return device_; }

  // Replaces the storage by `count` uninitialised elements (frees first, so
  // the old and new allocations never coexist). No-op when count == size().
  void reset(size_t count) {
    if (count == size_) return;
    const bool pooled = pooled_;
    release();
    allocate(count, pooled);
  }

  // Copies host[0, count) to elements [0, count); count <= size(). The
  // asynchronous form returns at once for page-locked `host` memory; for
  // pageable memory CUDA stages the data before returning, so `host` may be
  // reused immediately either way.
  void upload_async(const T* host, size_t count, cudaStream_t stream) {
    detail::check_transfer_size("DeviceBuffer::upload", count, size_);
    if (count == 0) return;
    IRGL_CUDA_CHECK(
        cudaMemcpyAsync(data_, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  // Same, then waits for `stream`.
  void upload(const T* host, size_t count, cudaStream_t stream = 0) {
    upload_async(host, count, stream);
    IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  void upload(const std::vector<T>& host, cudaStream_t stream = 0) {
    upload(host.data(), host.size(), stream);
  }

  // Copies elements [0, count) to host[0, count); count <= size(). The
  // asynchronous form needs page-locked `host` memory to be truly
  // asynchronous, and `host` must stay valid until the stream reaches it.
  void download_async(T* host, size_t count, cudaStream_t stream) const {
    detail::check_transfer_size("DeviceBuffer::download", count, size_);
    if (count == 0) return;
    IRGL_CUDA_CHECK(
        cudaMemcpyAsync(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }
  // Same, then waits for `stream`.
  void download(T* host, size_t count, cudaStream_t stream = 0) const {
    download_async(host, count, stream);
    IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  // The first `count` elements (default: all), after waiting for `stream`.
  std::vector<T> download(cudaStream_t stream = 0) const { return download_prefix(size_, stream); }
  std::vector<T> download_prefix(size_t count, cudaStream_t stream = 0) const {
    std::vector<T> host(count);
    download(host.data(), count, stream);
    return host;
  }

  // Sets every element to `value`, asynchronously: one kernel (or memset)
  // on `stream`. T must be 1, 2, 4 or 8 bytes.
  void fill(const T& value, cudaStream_t stream = 0) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "DeviceBuffer::fill supports elements of 1, 2, 4 or 8 bytes");
    if (size_ != 0) detail::fill_words(data_, size_, &value, sizeof(T), stream);
  }
  // Sets every byte to 0, asynchronously (cudaMemsetAsync).
  void zero(cudaStream_t stream = 0) {
    if (size_ != 0) IRGL_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), stream));
  }

 private:
  void allocate(size_t count, bool pooled = false) {
    pooled_ = pooled;
    if (count == 0) return;
    pooled_ = detail::allocate(reinterpret_cast<void**>(&data_), count * sizeof(T), pooled);
    size_ = count;
    device_ = detail::current_device();
  }
  void release() noexcept {
    // Errors are ignored: after a sticky device error every call fails, and
    // a destructor must not throw.
    if (data_ != nullptr) detail::free_on(device_, data_, pooled_);
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  int device_ = 0;       // where data_ was allocated
  bool pooled_ = false;  // from the device's pool: freed with cudaFreeAsync
};

// Page-locked (pinned) host memory: transfers to and from it are truly
// asynchronous and faster than from pageable memory. Allocation is expensive
// (it maps pages for the device): keep such buffers for the whole run, for
// example for counters the host reads every round.
template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "PinnedBuffer holds raw bytes: T must be trivially copyable");

 public:
  PinnedBuffer() = default;
  // `count` value-initialised elements.
  explicit PinnedBuffer(size_t count) {
    if (count == 0) return;
    IRGL_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)));
    size_ = count;
    for (size_t i = 0; i < count; ++i) data_[i] = T{};
  }
  ~PinnedBuffer() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      if (data_ != nullptr) cudaFreeHost(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace irgl::gpu
