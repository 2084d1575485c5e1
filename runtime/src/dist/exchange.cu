// Synchronisation between the parts of a multi-GPU run (irgl/dist/exchange.cuh).
#include "irgl/dist/exchange.cuh"

#include <algorithm>
#include <optional>

namespace irgl::dist {

namespace {

__global__ void mark_pushed(gpu::SparseQueueView out, gpu::DenseBitmapView marks) {
  const uint64_t size = out.size();
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < size;
       i += uint64_t(gridDim.x) * blockDim.x)
    marks.set(out[i]);
}

}  // namespace

Exchange::Exchange(Comm& comm, const PartView& view)
    : comm_(comm), policy_(view.policy), first_masters_(view.first_masters) {
  if (view.parts != comm.size() || view.part != comm.rank())
    throw std::logic_error("Exchange: part " + std::to_string(view.part) + " of " +
                           std::to_string(view.parts) + " built for rank " +
                           std::to_string(comm.rank()) + " of " + std::to_string(comm.size()));
  const unsigned p = parts();
  counts_ = gpu::DeviceBuffer<unsigned long long>(2 * p);
  host_counts_ = gpu::PinnedBuffer<unsigned long long>(2 * p);

  // Mirror lists here; their sizes tell each owner how long its master list is.
  std::vector<VertexId> mirror_ids;
  mirrors_.host_begin.assign(1, 0);
  for (unsigned q = 0; q < p; ++q) {
    mirror_ids.insert(mirror_ids.end(), view.mirrors[q].begin(), view.mirrors[q].end());
    mirrors_.host_begin.push_back(mirror_ids.size());
    host_counts_[q] = view.mirrors[q].size();
  }
  mirrors_.ids = gpu::DeviceBuffer<VertexId>(std::max<size_t>(mirror_ids.size(), 1));
  mirrors_.ids.upload(mirror_ids);
  mirrors_.begin = gpu::DeviceBuffer<uint64_t>(mirrors_.host_begin);
  counts_.upload(host_counts_.data(), host_counts_.size());
  exchange_counts();
  masters_.host_begin.assign(1, 0);
  for (unsigned q = 0; q < p; ++q)
    masters_.host_begin.push_back(masters_.host_begin.back() + host_counts_[p + q]);
  masters_.ids = gpu::DeviceBuffer<VertexId>(std::max<uint64_t>(master_entries(), 1));
  masters_.begin = gpu::DeviceBuffer<uint64_t>(masters_.host_begin);
  IRGL_NCCL_CHECK(ncclGroupStart());
  for (unsigned q = 0; q < p; ++q) {
    if (q == part()) continue;
    const uint64_t sent = view.mirrors[q].size(), received = host_counts_[p + q];
    if (sent) IRGL_NCCL_CHECK(ncclSend(mirrors_.ids.data() + mirrors_.host_begin[q], sent,
                                       ncclUint32, static_cast<int>(q), comm_.nccl(), 0));
    if (received) IRGL_NCCL_CHECK(ncclRecv(masters_.ids.data() + masters_.host_begin[q], received,
                                           ncclUint32, static_cast<int>(q), comm_.nccl(), 0));
  }
  IRGL_NCCL_CHECK(ncclGroupEnd());

  for (unsigned q = 0; q < p; ++q)
    for (const Lists* lists : {&mirrors_, &masters_})
      if (lists->host_begin[q + 1] - lists->host_begin[q] >= detail::kPushedBit)
        throw std::length_error("Exchange: parts " + std::to_string(part()) + " and " +
                                std::to_string(q) + " share 2^31 vertices or more");
  total_ = gpu::DeviceBuffer<uint64_t>(1);
  host_total_ = gpu::PinnedBuffer<uint64_t>(1);
  const uint64_t capacity = std::max<uint64_t>({mirror_entries(), master_entries(), 1});
  send_index_ = gpu::DeviceBuffer<uint32_t>(capacity);
  receive_index_ = gpu::DeviceBuffer<uint32_t>(capacity);
  send_values_ = gpu::DeviceBuffer<uint64_t>(capacity);
  receive_values_ = gpu::DeviceBuffer<uint64_t>(capacity);
  dense_peers_ = gpu::DeviceBuffer<uint8_t>(2 * p);
  host_dense_peers_ = gpu::PinnedBuffer<uint8_t>(2 * p);
  IRGL_CUDA_CHECK(cudaDeviceSynchronize());
}

Exchange::~Exchange() {
  for (const Interval& interval : intervals_) {
    cudaEventDestroy(interval.start);
    cudaEventDestroy(interval.stop);
  }
  if (run_start_) cudaEventDestroy(run_start_);
}

Exchange::Timed::Timed(Exchange& exchange, bool ends_superstep) : exchange_(exchange) {
  if (exchange.timing_depth_++ > 0) return;
  auto& intervals = exchange.intervals_;
  if (exchange.intervals_used_ == intervals.size()) {
    Interval interval{};
    IRGL_CUDA_CHECK(cudaEventCreate(&interval.start));
    IRGL_CUDA_CHECK(cudaEventCreate(&interval.stop));
    intervals.push_back(interval);
  }
  Interval& interval = intervals[exchange.intervals_used_];
  interval.ends_superstep = ends_superstep;
  IRGL_CUDA_CHECK(cudaEventRecord(interval.start, 0));
}

Exchange::Timed::~Timed() {
  if (--exchange_.timing_depth_ > 0) return;
  // An exchange that threw still closes its interval.
  if (cudaEventRecord(exchange_.intervals_[exchange_.intervals_used_].stop, 0) == cudaSuccess)
    ++exchange_.intervals_used_;
}

void Exchange::start_run() {
  intervals_used_ = 0;
  pending_pushes_.clear();
  marked_.clear();
  if (!run_start_) IRGL_CUDA_CHECK(cudaEventCreate(&run_start_));
  IRGL_CUDA_CHECK(cudaEventRecord(run_start_, 0));
}

float Exchange::elapsed_ms(cudaEvent_t from, cudaEvent_t to) const {
  float ms = 0;
  IRGL_CUDA_CHECK(cudaEventElapsedTime(&ms, from, to));
  return ms;
}

double Exchange::exchange_ms() const {
  double total = 0;
  for (size_t i = 0; i < intervals_used_; ++i)
    total += elapsed_ms(intervals_[i].start, intervals_[i].stop);
  return total;
}

std::vector<Exchange::Superstep> Exchange::supersteps() const {
  std::vector<Superstep> steps;
  if (!run_start_) return steps;
  cudaEvent_t begin = run_start_;
  double exchange = 0;
  for (size_t i = 0; i < intervals_used_; ++i) {
    const Interval& interval = intervals_[i];
    exchange += elapsed_ms(interval.start, interval.stop);
    if (!interval.ends_superstep) continue;
    const double span = elapsed_ms(begin, interval.stop);
    steps.push_back({std::max(span - exchange, 0.0), exchange});
    begin = interval.stop;
    exchange = 0;
  }
  return steps;
}

void Exchange::start_total(const gpu::SparseQueueView& in) {
  // pushed, not size: no part has overflowed where the sum is used.
  static_assert(sizeof(in.counters->pushed) == sizeof(uint64_t));
  const auto* local = reinterpret_cast<const uint64_t*>(&in.counters->pushed);
  std::optional<Timed> timed;
  if (parts() > 1) {
    timed.emplace(*this, /*ends_superstep=*/true);
    comm_.all_reduce(local, total_.data(), 1, Combine::sum);
    local = total_.data();
  }
  IRGL_CUDA_CHECK(cudaMemcpyAsync(host_total_.data(), local, sizeof(uint64_t),
                                  cudaMemcpyDeviceToHost, 0));
}

uint64_t Exchange::total() {
  IRGL_CUDA_CHECK(cudaStreamSynchronize(0));  // done already where the pipe read its sizes
  return host_total_[0];
}

uint64_t Exchange::sum(uint64_t local) { return all_reduce(local, Combine::sum); }

dim3 Exchange::grid() const {
  const uint64_t entries = std::max(mirror_entries(), master_entries());
  return dim3(static_cast<unsigned>(std::clamp<uint64_t>((entries + 255) / 256, 1, 1024)), parts());
}

void Exchange::exchange_counts() {
  const unsigned p = parts();
  IRGL_NCCL_CHECK(ncclGroupStart());
  for (unsigned q = 0; q < p; ++q) {
    if (q == part()) continue;
    IRGL_NCCL_CHECK(ncclSend(counts_.data() + q, 1, ncclUint64, static_cast<int>(q), comm_.nccl(), 0));
    IRGL_NCCL_CHECK(
        ncclRecv(counts_.data() + p + q, 1, ncclUint64, static_cast<int>(q), comm_.nccl(), 0));
  }
  IRGL_NCCL_CHECK(ncclGroupEnd());
  IRGL_CUDA_CHECK(cudaMemcpyAsync(host_counts_.data(), counts_.data(),
                                  host_counts_.size() * sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, 0));
  IRGL_CUDA_CHECK(cudaStreamSynchronize(0));
}

Exchange::DenseSides Exchange::choose_dense(const Lists& from, const Lists& to,
                                            size_t value_bytes) {
  const unsigned p = parts();
  DenseSides sides;
  bool any = false;
  for (unsigned q = 0; q < p; ++q) {
    host_dense_peers_[q] = pays_dense(host_counts_[q], from.host_begin[q + 1] - from.host_begin[q],
                                      value_bytes);
    host_dense_peers_[p + q] =
        pays_dense(host_counts_[p + q], to.host_begin[q + 1] - to.host_begin[q], value_bytes);
    sides.any_send = sides.any_send || host_dense_peers_[q];
    any = any || host_dense_peers_[q] || host_dense_peers_[p + q];
  }
  IRGL_CUDA_CHECK(cudaMemcpyAsync(dense_peers_.data(), host_dense_peers_.data(), 2 * p,
                                  cudaMemcpyHostToDevice, 0));
  if (any && send_flags_.size() == 0) {
    const uint64_t capacity = send_values_.size();
    send_dense_ = gpu::DeviceBuffer<uint64_t>(capacity);
    receive_dense_ = gpu::DeviceBuffer<uint64_t>(capacity);
    send_flags_ = gpu::DeviceBuffer<uint8_t>(capacity);
    receive_flags_ = gpu::DeviceBuffer<uint8_t>(capacity);
  }
  for (unsigned q = 0; q < p; ++q)
    if (host_dense_peers_[q])
      IRGL_CUDA_CHECK(cudaMemsetAsync(send_flags_.data() + from.host_begin[q], 0,
                                      from.host_begin[q + 1] - from.host_begin[q], 0));
  sides.send = {dense_peers_.data(), send_flags_.data()};
  sides.receive = {dense_peers_.data() + p, receive_flags_.data()};
  return sides;
}

void Exchange::send_payload(const Lists& from, const Lists& to, const void* values_out,
                            void* values_in, size_t value_bytes) {
  const unsigned p = parts();
  const auto* out = static_cast<const char*>(values_out);
  auto* in = static_cast<char*>(values_in);
  const auto* dense_out = reinterpret_cast<const char*>(send_dense_.data());
  auto* dense_in = reinterpret_cast<char*>(receive_dense_.data());
  IRGL_NCCL_CHECK(ncclGroupStart());
  for (unsigned q = 0; q < p; ++q) {
    if (q == part()) continue;
    const int peer = static_cast<int>(q);
    const uint64_t sent = host_counts_[q], at_out = from.host_begin[q];
    if (host_dense_peers_[q]) {
      const uint64_t length = from.host_begin[q + 1] - at_out;
      IRGL_NCCL_CHECK(ncclSend(dense_out + at_out * value_bytes, length * value_bytes, ncclUint8,
                               peer, comm_.nccl(), 0));
      IRGL_NCCL_CHECK(
          ncclSend(send_flags_.data() + at_out, length, ncclUint8, peer, comm_.nccl(), 0));
      bytes_sent_ += length * (value_bytes + 1);
      ++payloads_sent_;
      ++dense_payloads_sent_;
    } else if (sent) {
      IRGL_NCCL_CHECK(
          ncclSend(send_index_.data() + at_out, sent, ncclUint32, peer, comm_.nccl(), 0));
      IRGL_NCCL_CHECK(ncclSend(out + at_out * value_bytes, sent * value_bytes, ncclUint8, peer,
                               comm_.nccl(), 0));
      bytes_sent_ += sent * (sizeof(uint32_t) + value_bytes);
      ++payloads_sent_;
    }
    const uint64_t received = host_counts_[p + q], at_in = to.host_begin[q];
    if (host_dense_peers_[p + q]) {
      const uint64_t length = to.host_begin[q + 1] - at_in;
      IRGL_NCCL_CHECK(ncclRecv(dense_in + at_in * value_bytes, length * value_bytes, ncclUint8,
                               peer, comm_.nccl(), 0));
      IRGL_NCCL_CHECK(
          ncclRecv(receive_flags_.data() + at_in, length, ncclUint8, peer, comm_.nccl(), 0));
    } else if (received) {
      IRGL_NCCL_CHECK(
          ncclRecv(receive_index_.data() + at_in, received, ncclUint32, peer, comm_.nccl(), 0));
      IRGL_NCCL_CHECK(ncclRecv(in + at_in * value_bytes, received * value_bytes, ncclUint8, peer,
                               comm_.nccl(), 0));
    }
  }
  IRGL_NCCL_CHECK(ncclGroupEnd());
}

std::vector<lang::PushedVertices>::iterator Exchange::pending_of(
    const lang::PushedVertices& pushed) {
  return std::find_if(pending_pushes_.begin(), pending_pushes_.end(),
                      [&](const lang::PushedVertices& p) { return p.bits.words == pushed.bits.words; });
}

detail::PushShare Exchange::mark(const lang::PushedVertices& pushed) {
  if (pushed.from_queue) {
    mark_pushed<<<1024, 256>>>(pushed.queue, pushed.bits);
    IRGL_CUDA_CHECK_LAUNCH();
    // A second launch in the round marks the same bitmap again.
    if (std::find(marked_.begin(), marked_.end(), pushed.bits.words) == marked_.end())
      marked_.push_back(pushed.bits.words);
  }
  return {pushed};
}

void Exchange::expect_pushes(const lang::PushedVertices& pushed) {
  if (parts() > 1 && pending_of(pushed) == pending_pushes_.end()) pending_pushes_.push_back(pushed);
}

detail::PushShare Exchange::take_pending_pushes() {
  if (pending_pushes_.size() != 1) return {};
  const lang::PushedVertices pushed = pending_pushes_.front();
  pending_pushes_.clear();
  return mark(pushed);
}

void Exchange::move_pushes(const detail::PushShare& pushes) {
  move<uint8_t>(mirrors_, detail::SelectPushed{pushes}, masters_,
                detail::ActivatePushed{pushes, nullptr});
  move<uint8_t>(masters_, detail::SelectPushed{pushes}, mirrors_,
                detail::ActivatePushed{pushes, local_out_offsets_});
}

void Exchange::share_pushes(const lang::PushedVertices& pushed) {
  if (parts() == 1) return;
  if (const auto pending = pending_of(pushed); pending != pending_pushes_.end()) {
    pending_pushes_.erase(pending);
    const Timed timed(*this);
    move_pushes(mark(pushed));
  }
  const auto marked = std::find(marked_.begin(), marked_.end(), pushed.bits.words);
  if (marked == marked_.end()) return;
  marked_.erase(marked);
  IRGL_CUDA_CHECK(
      cudaMemsetAsync(pushed.bits.words, 0, pushed.bits.num_words() * sizeof(uint32_t), 0));
}

}  // namespace irgl::dist
