// Probe, not a product: how fast could sssp's rounds run on a graph small
// enough for one SM's shared memory? One block copies the CSR (32-bit
// offsets), the weights, the distances and two queues into shared memory
// and runs the data-driven Bellman-Ford rounds of lang-examples/sssp.irgl
// (a thread per queued vertex), with __syncthreads between rounds; then the
// same rounds on one block of 1024 threads with everything in global
// memory. The shared form runs in four variants: blocks of 1024 or 256
// threads, and the arrays' pointers as the compiler sees them (shared: it
// knows they point into shared memory, LDS/ATOMS) or laundered through an
// empty asm (generic: LD/ATOM on generic addresses, as irglc's Bodies reach
// the arrays SharedPlacement copied). Then, for graphs of any size,
// partition-local rounds on the whole grid (partitioned_rounds): each block
// owns a range of vertices, keeps their distances and edges in its shared
// memory and relaxes within its range until nothing changes there (block
// barriers only); improvements to another block's vertices go through the
// global distances and that block's inbox, read at the next grid barrier.
// Answers checked against Dijkstra.
//
//   smem_sssp_probe GRAPH.csr SOURCE [RUNS]   (irgl-graph convert --output-format csr)
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <queue>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e = (x);                                                           \
    if (e != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

constexpr uint32_t kInf = 0xffffffffu;

struct View {
  uint32_t *offsets, *targets, *weights, *dist, *queue[2];
};

// The rounds, over whichever memory `g` points to; every thread calls it.
template <int kThreads>
__device__ void rounds(View g, uint32_t source, uint32_t* count, uint32_t* rounds_done) {
  if (threadIdx.x == 0) {
    g.dist[source] = 0;
    g.queue[0][0] = source;
    count[0] = 1;
    count[1] = 0;
  }
  __syncthreads();
  uint32_t round = 0;
  for (;;) {
    const uint32_t in = round & 1, size = count[in];
    if (size == 0) break;
    for (uint32_t i = threadIdx.x; i < size; i += kThreads) {
      const uint32_t v = g.queue[in][i], d = g.dist[v];
      for (uint32_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
        const uint32_t t = g.targets[e], candidate = d + g.weights[e];
        if (candidate < g.dist[t] && atomicMin(&g.dist[t], candidate) > candidate)
          g.queue[in ^ 1][atomicAdd(&count[in ^ 1], 1u)] = t;
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) count[in] = 0;
    ++round;
    __syncthreads();
  }
  if (threadIdx.x == 0) *rounds_done = round;
}

template <int kThreads, bool kGeneric>
__global__ void __launch_bounds__(kThreads)
    shared_rounds(View global, uint32_t n, uint32_t m, uint32_t source, uint32_t* rounds_done) {
  extern __shared__ uint32_t shared[];
  __shared__ uint32_t count[2];
  View s;
  s.offsets = shared;
  s.targets = s.offsets + n + 1;
  s.weights = s.targets + m;
  s.dist = s.weights + m;
  s.queue[0] = s.dist + n;
  s.queue[1] = s.queue[0] + m + 1;
  for (uint32_t i = threadIdx.x; i <= n; i += kThreads) s.offsets[i] = global.offsets[i];
  for (uint32_t i = threadIdx.x; i < m; i += kThreads) {
    s.targets[i] = global.targets[i];
    s.weights[i] = global.weights[i];
  }
  for (uint32_t i = threadIdx.x; i < n; i += kThreads) s.dist[i] = kInf;
  __syncthreads();
  uint32_t* c = count;
  if (kGeneric) {
    asm volatile("" : "+l"(s.offsets), "+l"(s.targets), "+l"(s.weights), "+l"(s.dist));
    asm volatile("" : "+l"(s.queue[0]), "+l"(s.queue[1]), "+l"(c));
  }
  rounds<kThreads>(s, source, c, rounds_done);
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < n; i += kThreads) global.dist[i] = s.dist[i];
}

template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    global_rounds(View global, uint32_t n, uint32_t source, uint32_t* count, uint32_t* rounds_done) {
  for (uint32_t i = threadIdx.x; i < n; i += kThreads) global.dist[i] = kInf;
  __syncthreads();
  rounds<kThreads>(global, source, count, rounds_done);
}

// The partitioned rounds' state in global memory. Block b owns vertices
// [b * part, (b + 1) * part); its inbox holds the owned vertices that other
// blocks improved in a round (at most once each: `queued`), read at the
// next one; dist is the mailbox of those improvements and the answer.
struct Parts {
  uint32_t n, part, max_edges;
  const uint32_t *offsets, *targets, *weights;
  uint32_t* dist;
  uint32_t* inbox[2];        // block b's slots at b * part
  uint32_t* inbox_count[2];  // one per block
  uint32_t* queued;          // per vertex
  uint32_t* pushed;          // [3]: inbox pushes of round r in pushed[(r + 1) % 3]
  uint32_t* stats;           // rounds, local waves (block 0)
};

__device__ uint32_t volatile_load(const uint32_t* p) { return *static_cast<const volatile uint32_t*>(p); }

__global__ void __launch_bounds__(256) partitioned_rounds(Parts p, uint32_t source) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  extern __shared__ uint32_t smem[];
  __shared__ uint32_t count[2];
  const uint32_t lo = min(blockIdx.x * p.part, p.n), hi = min(lo + p.part, p.n), own = hi - lo;
  const uint32_t e_lo = p.offsets[lo];
  uint32_t* dist = smem;               // own
  uint32_t* off = dist + p.part;       // own + 1, from e_lo
  uint32_t* queue[2] = {off + p.part + 1, off + 2 * p.part + 1};
  uint32_t* in_queue = off + 3 * p.part + 1;
  uint32_t* targets = in_queue + p.part;
  uint32_t* weights = targets + p.max_edges;
  for (uint32_t i = threadIdx.x; i < own; i += blockDim.x) {
    dist[i] = lo + i == source ? 0 : kInf;
    off[i] = p.offsets[lo + i] - e_lo;
    in_queue[i] = 0;
  }
  const uint32_t edges = p.offsets[hi] - e_lo;
  if (threadIdx.x == 0) off[own] = edges;
  for (uint32_t e = threadIdx.x; e < edges; e += blockDim.x) {
    targets[e] = p.targets[e_lo + e];
    weights[e] = p.weights[e_lo + e];
  }
  if (threadIdx.x == 0) {
    count[0] = 0;
    count[1] = 0;
    if (source >= lo && source < hi) {
      queue[0][0] = source - lo;
      in_queue[source - lo] = 1;
      count[0] = 1;
    }
  }
  __syncthreads();
  uint32_t round = 0, waves = 0, cur = 0;
  for (;; ++round) {
    const uint32_t in = round & 1, out = in ^ 1;
    if (round > 0) {  // the owned vertices others improved
      const uint32_t items = p.inbox_count[in][blockIdx.x];
      for (uint32_t i = threadIdx.x; i < items; i += blockDim.x) {
        const uint32_t v = p.inbox[in][blockIdx.x * p.part + i];
        atomicExch(&p.queued[v], 0u);  // before the read: a later improvement pushes again
        __threadfence();
        const uint32_t d = volatile_load(&p.dist[v]);
        if (d < dist[v - lo] && atomicMin(&dist[v - lo], d) > d && atomicExch(&in_queue[v - lo], 1u) == 0)
          queue[cur][atomicAdd(&count[cur], 1u)] = v - lo;
      }
      __syncthreads();
      if (threadIdx.x == 0) p.inbox_count[in][blockIdx.x] = 0;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) p.pushed[(round + 2) % 3] = 0;
    for (;;) {  // local waves until the range is quiet
      const uint32_t items = count[cur];
      if (items == 0) break;
      for (uint32_t i = threadIdx.x; i < items; i += blockDim.x) {
        const uint32_t u = queue[cur][i];
        atomicExch(&in_queue[u], 0u);
        __threadfence_block();
        const uint32_t d = volatile_load(&dist[u]);
        for (uint32_t e = off[u]; e < off[u + 1]; ++e) {
          const uint32_t w = targets[e], c = d + weights[e];
          if (w >= lo && w < hi) {
            if (c < dist[w - lo] && atomicMin(&dist[w - lo], c) > c && atomicExch(&in_queue[w - lo], 1u) == 0)
              queue[cur ^ 1][atomicAdd(&count[cur ^ 1], 1u)] = w - lo;
          } else if (c < volatile_load(&p.dist[w]) && atomicMin(&p.dist[w], c) > c) {
            __threadfence();
            if (atomicExch(&p.queued[w], 1u) == 0) {
              const uint32_t owner = w / p.part;
              p.inbox[out][owner * p.part + atomicAdd(&p.inbox_count[out][owner], 1u)] = w;
              atomicAdd(&p.pushed[(round + 1) % 3], 1u);
            }
          }
        }
      }
      __syncthreads();
      if (threadIdx.x == 0) count[cur] = 0;
      cur ^= 1;
      ++waves;
      __syncthreads();
    }
    for (uint32_t i = threadIdx.x; i < own; i += blockDim.x)  // prunes others' pushes
      if (dist[i] < volatile_load(&p.dist[lo + i])) atomicMin(&p.dist[lo + i], dist[i]);
    grid.sync();
    if (volatile_load(&p.pushed[(round + 1) % 3]) == 0) break;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    p.stats[0] = round + 1;
    p.stats[1] = waves;
  }
}

// The times of `runs` calls of launch() after two warm-ups, by events around
// each, sorted.
template <class Launch>
std::vector<float> sorted_times(int runs, Launch launch) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < runs + 2; ++r) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 2) times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times;
}

// partitioned_rounds on 132 to 1056 blocks of 256 threads (those resident).
void run_partitioned(const View& g, const std::vector<uint32_t>& offsets, uint32_t n, uint32_t source,
                     int runs, const std::vector<uint32_t>& expected) {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (uint32_t blocks : {uint32_t(sms), 2u * sms, 4u * sms, 8u * sms}) {
    Parts p{};
    p.n = n;
    p.part = (n + blocks - 1) / blocks;
    for (uint32_t b = 0; b < blocks; ++b) {
      const uint32_t lo = std::min(b * p.part, n), hi = std::min(lo + p.part, n);
      p.max_edges = std::max(p.max_edges, offsets[hi] - offsets[lo]);
    }
    const size_t shared = 4 * (size_t(5) * p.part + 1 + 2 * size_t(p.max_edges));
    CHECK(cudaFuncSetAttribute(partitioned_rounds, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, partitioned_rounds, 256, shared));
    if (blocks > uint32_t(per_sm) * sms) {
      std::printf("partitioned %u blocks: %d resident, not run\n", blocks, per_sm * sms);
      continue;
    }
    p.offsets = g.offsets;
    p.targets = g.targets;
    p.weights = g.weights;
    p.dist = g.dist;
    const size_t slots = size_t(p.part) * blocks;
    uint32_t* state = nullptr;
    const size_t words = 2 * slots + 2 * blocks + n + 3 + 2;
    CHECK(cudaMalloc(&state, 4 * words));
    p.inbox[0] = state;
    p.inbox[1] = state + slots;
    p.inbox_count[0] = state + 2 * slots;
    p.inbox_count[1] = p.inbox_count[0] + blocks;
    p.queued = p.inbox_count[1] + blocks;
    p.pushed = p.queued + n;
    p.stats = p.pushed + 3;
    const uint32_t zero = 0;
    const std::vector<float> times = sorted_times(runs, [&] {
      CHECK(cudaMemsetAsync(p.inbox_count[0], 0, 4 * (2 * blocks + n + 3)));
      CHECK(cudaMemsetAsync(p.dist, 0xff, 4 * size_t(n)));
      CHECK(cudaMemcpyAsync(p.dist + source, &zero, 4, cudaMemcpyHostToDevice));
      void* args[] = {&p, &source};
      CHECK(cudaLaunchCooperativeKernel((const void*)partitioned_rounds, blocks, 256, args, shared, 0));
    });
    std::vector<uint32_t> got(n), stats(2);
    CHECK(cudaMemcpy(got.data(), p.dist, 4 * size_t(n), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(stats.data(), p.stats, 8, cudaMemcpyDeviceToHost));
    std::printf("partitioned %u blocks of %u vertices: %u grid rounds, %u waves in block 0, median %.4f ms (min %.4f) of %d, %zu shared bytes, %s\n",
                blocks, p.part, stats[0], stats[1], times[times.size() / 2], times[0], runs, shared,
                got == expected ? "PASS" : "WRONG");
    CHECK(cudaFree(state));
  }
}

int main(int argc, char** argv) {
  if (argc < 3) return std::fprintf(stderr, "usage: %s GRAPH.csr SOURCE [RUNS]\n", argv[0]), 2;
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) return std::perror(argv[1]), 1;
  char header[64];
  if (std::fread(header, 1, 64, f) != 64 || std::memcmp(header, "IRGLCSR", 8) != 0)
    return std::fprintf(stderr, "%s: not irglc's binary CSR\n", argv[1]), 1;
  uint32_t flags;
  uint64_t n64, m64;
  std::memcpy(&flags, header + 12, 4);
  std::memcpy(&n64, header + 24, 8);
  std::memcpy(&m64, header + 32, 8);
  const uint32_t n = uint32_t(n64), m = uint32_t(m64), source = uint32_t(std::atoi(argv[2]));
  const int runs = argc > 3 ? std::atoi(argv[3]) : 21;
  std::vector<uint64_t> offsets64(n + 1);
  std::vector<uint32_t> targets(m + (m & 1)), weights(m + (m & 1));
  if (std::fread(offsets64.data(), 8, n + 1, f) != n + 1 ||
      std::fread(targets.data(), 4, targets.size(), f) != targets.size() || !(flags & 1) ||
      std::fread(weights.data(), 4, weights.size(), f) != weights.size())
    return std::fprintf(stderr, "%s: short or unweighted\n", argv[1]), 1;
  std::vector<uint32_t> offsets(offsets64.begin(), offsets64.end());

  // Dijkstra, the reference.
  std::vector<uint32_t> expected(n, kInf);
  using Entry = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  expected[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, v] = heap.top();
    heap.pop();
    if (d != expected[v]) continue;
    for (uint32_t e = offsets[v]; e < offsets[v + 1]; ++e)
      if (d + weights[e] < expected[targets[e]]) heap.push({expected[targets[e]] = uint32_t(d + weights[e]), targets[e]});
  }

  View g;
  uint32_t *count, *rounds_done;
  CHECK(cudaMalloc(&g.offsets, 4 * (n + 1)));
  CHECK(cudaMalloc(&g.targets, 4 * m));
  CHECK(cudaMalloc(&g.weights, 4 * m));
  CHECK(cudaMalloc(&g.dist, 4 * n));
  CHECK(cudaMalloc(&g.queue[0], 4 * (m + 1)));
  CHECK(cudaMalloc(&g.queue[1], 4 * (m + 1)));
  CHECK(cudaMalloc(&count, 8));
  CHECK(cudaMallocManaged(&rounds_done, 4));
  CHECK(cudaMemcpy(g.offsets, offsets.data(), 4 * (n + 1), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(g.targets, targets.data(), 4 * m, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(g.weights, weights.data(), 4 * m, cudaMemcpyHostToDevice));
  const size_t shared_bytes = 4 * (size_t(n) + 1 + 2 * m + n + 2 * (m + 1));
  int limit = 0;
  CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  const bool fits = shared_bytes <= size_t(limit);
  const void* kernels[4] = {(const void*)shared_rounds<1024, false>, (const void*)shared_rounds<1024, true>,
                            (const void*)shared_rounds<256, false>, (const void*)shared_rounds<256, true>};
  const char* names[4] = {"shared-1024", "generic-1024", "shared-256", "generic-256"};
  if (fits) for (auto k : kernels) CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)));
  std::vector<uint32_t> got(n);
  for (int mode = 0; mode < 5; ++mode) {
    if (mode < 4 && !fits) {
      std::printf("shared: %zu bytes > %d, not run\n", shared_bytes, limit);
      continue;
    }
    const std::vector<float> times = sorted_times(runs, [&] {
      if (mode < 4) {
        void* args[] = {&g, (void*)&n, (void*)&m, (void*)&source, &rounds_done};
        CHECK(cudaLaunchKernel(kernels[mode], 1, mode < 2 ? 1024 : 256, args, shared_bytes, 0));
      } else global_rounds<1024><<<1, 1024>>>(g, n, source, count, rounds_done);
    });
    CHECK(cudaMemcpy(got.data(), g.dist, 4 * n, cudaMemcpyDeviceToHost));
    std::printf("%s: %u vertices, %u edges, %u rounds, median %.4f ms (min %.4f) of %d, %zu shared bytes, %s\n",
                mode < 4 ? names[mode] : "global", n, m, *rounds_done, times[times.size() / 2], times[0],
                runs, shared_bytes, got == expected ? "PASS" : "WRONG");
  }
  run_partitioned(g, offsets, n, source, runs, expected);
  return 0;
}
