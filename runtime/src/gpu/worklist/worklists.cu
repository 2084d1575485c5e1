// Host-side parts of the worklists: DenseBitmap, SparseQueue, Pipe and the
// conversions between them.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/block/block_reduce.cuh>
#include <stdexcept>
#include <string>

#include "irgl/gpu/algorithms.cuh"
#include "irgl/gpu/launch.cuh"
#include "irgl/gpu/worklist/conversions.cuh"
#include "irgl/gpu/worklist/dense_bitmap.cuh"
#include "irgl/gpu/worklist/pipe.cuh"
#include "irgl/gpu/worklist/sparse_queue.cuh"

namespace irgl::gpu {

// ---- DenseBitmap ---------------------------------------------------------

DenseBitmap::DenseBitmap(uint64_t num_bits, cudaStream_t stream)
    : words_(DenseBitmapView::word_count(num_bits)), num_bits_(num_bits) {
  clear_all(stream);
}

void DenseBitmap::clear_all(cudaStream_t stream) { words_.zero(stream); }

void DenseBitmap::set_all(cudaStream_t stream) {
  if (words_.empty()) return;
  const uint32_t tail_bits = num_bits_ % DenseBitmapView::kBitsPerWord;
  IRGL_CUDA_CHECK(cudaMemsetAsync(words_.data(), 0xff, words_.bytes(), stream));
  if (tail_bits != 0) {
    const uint32_t tail_word = (1u << tail_bits) - 1;
    detail::fill_words(words_.data() + words_.size() - 1, 1, &tail_word, sizeof tail_word, stream);
  }
}

void DenseBitmap::assign(const std::vector<VertexId>& members, cudaStream_t stream) {
  std::vector<uint32_t> words(words_.size(), 0);
  for (VertexId v : members) {
    if (v >= num_bits_)
      throw std::out_of_range("DenseBitmap::assign: vertex " + std::to_string(v) +
                              " outside a bitmap of " + std::to_string(num_bits_) + " bits");
    words[DenseBitmapView::word_of(v)] |= DenseBitmapView::mask_of(v);
  }
  words_.upload(words, stream);
}

std::vector<uint32_t> DenseBitmap::download_words(cudaStream_t stream) const {
  return words_.download(stream);
}

std::vector<VertexId> DenseBitmap::download_members(cudaStream_t stream) const {
  const std::vector<uint32_t> words = download_words(stream);
  std::vector<VertexId> members;
  for (uint64_t w = 0; w < words.size(); ++w)
    for (uint32_t bits = words[w]; bits != 0; bits &= bits - 1)
      members.push_back(
          static_cast<VertexId>(w * DenseBitmapView::kBitsPerWord + __builtin_ctz(bits)));
  return members;
}

// ---- CounterBlock and shared queue operations ----------------------------

namespace detail {

CounterBlock::CounterBlock(size_t count, cudaStream_t stream) : device_(count), host_(count) {
  device_.zero(stream);
}

void CounterBlock::clear(size_t i, cudaStream_t stream) {
  IRGL_CUDA_CHECK(cudaMemsetAsync(device(i), 0, sizeof(QueueCounters), stream));
}

void CounterBlock::set_size(size_t i, uint64_t size, cudaStream_t stream) {
  const QueueCounters value{size, 0, 0};
  IRGL_CUDA_CHECK(cudaMemcpyAsync(device(i), &value, sizeof value, cudaMemcpyHostToDevice, stream));
}

const QueueCounters* CounterBlock::read(cudaStream_t stream) const {
  device_.download(host_.data(), host_.size(), stream);
  return host_.data();
}

void assign_queue(const SparseQueueView& queue, CounterBlock& counters, size_t index,
                  const VertexId* items, uint64_t count, cudaStream_t stream) {
  if (count > queue.capacity)
    throw std::length_error(std::to_string(count) + " items do not fit in a queue of " +
                            std::to_string(queue.capacity));
  if (count != 0)
    IRGL_CUDA_CHECK(cudaMemcpyAsync(queue.items, items, count * sizeof(VertexId),
                                    cudaMemcpyHostToDevice, stream));
  counters.set_size(index, count, stream);
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::vector<VertexId> download_queue(const SparseQueueView& queue, uint64_t size,
                                     cudaStream_t stream) {
  std::vector<VertexId> items(size);
  if (size != 0)
    IRGL_CUDA_CHECK(cudaMemcpyAsync(items.data(), queue.items, size * sizeof(VertexId),
                                    cudaMemcpyDeviceToHost, stream));
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return items;
}

}  // namespace detail

// ---- SparseQueue ---------------------------------------------------------

SparseQueue::SparseQueue(uint64_t capacity, cudaStream_t stream)
    : items_(capacity), counters_(1, stream) {}

SparseQueueView SparseQueue::view() const {
  return {const_cast<VertexId*>(items_.data()), items_.size(), counters_.device(0)};
}

void SparseQueue::assign(const std::vector<VertexId>& items, cudaStream_t stream) {
  detail::assign_queue(view(), counters_, 0, items.data(), items.size(), stream);
}

QueueStatus SparseQueue::status(cudaStream_t stream) const {
  return QueueStatus::of(counters_.read(stream)[0], capacity());
}

std::vector<VertexId> SparseQueue::download(cudaStream_t stream) const {
  return detail::download_queue(view(), status(stream).size, stream);
}

// ---- Pipe ----------------------------------------------------------------

Pipe::Pipe(uint64_t capacity, cudaStream_t stream)
    : items_{DeviceBuffer<VertexId>(capacity), DeviceBuffer<VertexId>(capacity)},
      counters_(2, stream),
      stream_(stream) {}

SparseQueueView Pipe::view(int index) const {
  return {const_cast<VertexId*>(items_[index].data()), items_[index].size(),
          counters_.device(index)};
}

std::string overflow_message(uint64_t pushed, uint64_t capacity) {
  return "worklist overflow: a round pushed " + std::to_string(pushed) +
         " items, more than the capacity of " + std::to_string(capacity);
}

void Pipe::swap() {
  current_in_ = 1 - current_in_;
  counters_.clear(1 - current_in_, stream_);
}

void Pipe::reset(const std::vector<VertexId>& initial) {
  counters_.clear(1 - current_in_, stream_);
  detail::assign_queue(in(), counters_, current_in_, initial.data(), initial.size(), stream_);
}

void Pipe::resume(bool swapped, const QueueCounters* device_counters) {
  if (swapped) current_in_ = 1 - current_in_;
  IRGL_CUDA_CHECK(cudaMemcpyAsync(counters_.device(current_in_), device_counters,
                                  sizeof(QueueCounters), cudaMemcpyDeviceToDevice, stream_));
  counters_.clear(1 - current_in_, stream_);
}

void Pipe::clear() {
  counters_.clear(0, stream_);
  counters_.clear(1, stream_);
}

PipeSizes Pipe::read_sizes() const {
  const QueueCounters* counters = counters_.read(stream_);
  return {QueueStatus::of(counters[current_in_], capacity()),
          QueueStatus::of(counters[1 - current_in_], capacity())};
}

std::vector<VertexId> Pipe::download_in() const {
  return detail::download_queue(in(), read_sizes().in.size, stream_);
}

// ---- Conversions ---------------------------------------------------------

namespace {

struct BitIsSet {
  DenseBitmapView bitmap;
  __device__ bool operator()(VertexId v) const { return bitmap.test(v); }
};

__global__ void queue_to_bitmap_kernel(SparseQueueView queue, DenseBitmapView bitmap) {
  const uint64_t size = queue.size();
  for (uint64_t i = global_thread_index(); i < size; i += grid_thread_count()) {
    const VertexId v = queue[i];
    if (v < bitmap.num_bits) bitmap.set(v);
  }
}

}  // namespace

void bitmap_to_queue(const DenseBitmapView& bitmap, const SparseQueueView& queue,
                     ScratchBuffer& scratch, cudaStream_t stream) {
  if (queue.capacity < bitmap.num_bits)
    throw std::length_error("bitmap_to_queue: a queue of " + std::to_string(queue.capacity) +
                            " items cannot hold a bitmap of " + std::to_string(bitmap.num_bits) +
                            " bits");
  IRGL_CUDA_CHECK(cudaMemsetAsync(queue.counters, 0, sizeof(QueueCounters), stream));
  select_if(thrust::counting_iterator<VertexId>(0), queue.items, &queue.counters->pushed,
            bitmap.num_bits, BitIsSet{bitmap}, scratch, stream);
}

void queue_to_bitmap(const SparseQueueView& queue, const DenseBitmapView& bitmap,
                     cudaStream_t stream) {
  queue_to_bitmap_kernel<<<grid_blocks(queue.capacity), kBlockThreads, 0, stream>>>(queue, bitmap);
  IRGL_CUDA_CHECK_LAUNCH();
}

// ---- Frontier statistics -------------------------------------------------
// Bitmap statistics are one CUB reduction (algorithms.cuh) over a transform
// of the vertex ids or words; queue degree sums are the sample kernel.

namespace {

struct WordMembers {
  const uint32_t* words;
  __device__ unsigned long long operator()(uint64_t w) const { return __popc(words[w]); }
};

// FrontierStats::MembersAndDegrees as the device reduces it.
struct Counts {
  unsigned long long members, degrees;
};
struct AddCounts {
  __device__ Counts operator()(const Counts& a, const Counts& b) const {
    return {a.members + b.members, a.degrees + b.degrees};
  }
};

// The members of word w and their degrees: the word's 32 vertices have
// consecutive offsets, so a thread reads one or two cache lines.
struct WordCounts {
  DenseBitmapView members;
  const uint64_t* offsets;
  __device__ Counts operator()(uint64_t w) const {
    uint32_t bits = members.words[w];
    Counts counts{static_cast<unsigned long long>(__popc(bits)), 0};
    for (; bits != 0; bits &= bits - 1) {
      const uint64_t v = w * DenseBitmapView::kBitsPerWord + (__ffs(bits) - 1);
      counts.degrees += offsets[v + 1] - offsets[v];
    }
    return counts;
  }
};

// The sampled degree sum of the queue at the size it has now, a thread per
// sample, so that the two dependent loads of each (the item, then its
// offsets) are paid once, not once per sample a thread takes (a single
// block, looping, cost rmat22 kcore about 15 us per round on an H100, by its
// gap to sparse); each block writes its partial sum to partials[blockIdx.x].
constexpr unsigned kSampleThreads = 256;
constexpr unsigned kSampleBlocks = FrontierStats::kDegreeSamples / kSampleThreads;
static_assert(FrontierStats::kDegreeSamples % kSampleThreads == 0);
__global__ void __launch_bounds__(kSampleThreads)
    sample_degrees_kernel(SparseQueueView queue, const uint64_t* offsets,
                          unsigned long long* partials) {
  const uint64_t size = queue.size();
  const uint64_t s = uint64_t(blockIdx.x) * kSampleThreads + threadIdx.x;
  const unsigned long long degree =
      s < FrontierStats::degree_samples(size) ? FrontierStats::sampled_degree(queue, size, offsets, s)
                                              : 0;
  using Reduce = cub::BlockReduce<unsigned long long, kSampleThreads>;
  __shared__ typename Reduce::TempStorage storage;
  const unsigned long long total = Reduce(storage).Sum(degree);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// Where the results live in FrontierStats' buffers: sum()'s at 0,
// members_and_degree_sum()'s at 0 and 1, the sample's partials after them.
constexpr size_t kPartialsSlot = 2;
constexpr size_t kResultSlots = kPartialsSlot + kSampleBlocks;

}  // namespace

void FrontierStats::allocate_results() {
  if (!result_.empty()) return;
  result_ = DeviceBuffer<unsigned long long>(kResultSlots);
  host_result_ = PinnedBuffer<unsigned long long>(kResultSlots);
}

template <class PerIndex>
uint64_t FrontierStats::sum(PerIndex per_index, uint64_t n, cudaStream_t stream) {
  allocate_results();
  reduce_sum(thrust::make_transform_iterator(thrust::counting_iterator<uint64_t>(0), per_index),
             result_.data(), n, scratch_, stream);
  IRGL_CUDA_CHECK(cudaMemcpyAsync(host_result_.data(), result_.data(), sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, stream));
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host_result_[0];
}

uint64_t FrontierStats::members(const DenseBitmapView& bitmap, cudaStream_t stream) {
  return sum(WordMembers{bitmap.words}, bitmap.num_words(), stream);
}

uint64_t FrontierStats::degree_sum(const SparseQueueView& queue, uint64_t size,
                                   const uint64_t* offsets, cudaStream_t stream) {
  if (size == 0) return 0;
  // The sample reads the size on the device: the queue's stored items,
  // which are at least `size`; take the first `size` as the contract says.
  const SparseQueueView first{queue.items, size, queue.counters};
  sample_degree_sum(first, offsets, stream);
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return sampled_degree_sum(size);
}

void FrontierStats::sample_degree_sum(const SparseQueueView& queue, const uint64_t* offsets,
                                      cudaStream_t stream) {
  allocate_results();
  unsigned long long* partials = result_.data() + kPartialsSlot;
  sample_degrees_kernel<<<kSampleBlocks, kSampleThreads, 0, stream>>>(queue, offsets, partials);
  IRGL_CUDA_CHECK_LAUNCH();
  IRGL_CUDA_CHECK(cudaMemcpyAsync(host_result_.data() + kPartialsSlot, partials,
                                  kSampleBlocks * sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, stream));
}

uint64_t FrontierStats::sampled_degree_sum(uint64_t size) const {
  if (size == 0) return 0;
  uint64_t sampled = 0;
  for (unsigned b = 0; b < kSampleBlocks; ++b) sampled += host_result_[kPartialsSlot + b];
  return scale_sampled_degrees(sampled, size);
}

uint64_t FrontierStats::degree_sum(const DenseBitmapView& members, const uint64_t* offsets,
                                   cudaStream_t stream) {
  return members_and_degree_sum(members, offsets, stream).degree_sum;
}

FrontierStats::MembersAndDegrees FrontierStats::members_and_degree_sum(
    const DenseBitmapView& members, const uint64_t* offsets, cudaStream_t stream) {
  allocate_results();
  Counts* counts = reinterpret_cast<Counts*>(result_.data());
  reduce(thrust::make_transform_iterator(thrust::counting_iterator<uint64_t>(0),
                                         WordCounts{members, offsets}),
         counts, members.num_words(), AddCounts{}, Counts{0, 0}, scratch_, stream);
  IRGL_CUDA_CHECK(cudaMemcpyAsync(host_result_.data(), result_.data(), sizeof(Counts),
                                  cudaMemcpyDeviceToHost, stream));
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return {host_result_[0], host_result_[1]};
}

}  // namespace irgl::gpu
