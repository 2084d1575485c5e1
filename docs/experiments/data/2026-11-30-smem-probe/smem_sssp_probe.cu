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
// the arrays SharedPlacement copied). Answers checked against Dijkstra.
//
//   smem_sssp_probe GRAPH.csr SOURCE [RUNS]   (irgl-graph convert --output-format csr)
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
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<uint32_t> got(n);
  for (int mode = 0; mode < 5; ++mode) {
    if (mode < 4 && !fits) {
      std::printf("shared: %zu bytes > %d, not run\n", shared_bytes, limit);
      continue;
    }
    std::vector<float> times;
    for (int r = 0; r < runs + 2; ++r) {
      CHECK(cudaEventRecord(start));
      if (mode < 4) {
        void* args[] = {&g, (void*)&n, (void*)&m, (void*)&source, &rounds_done};
        CHECK(cudaLaunchKernel(kernels[mode], 1, mode < 2 ? 1024 : 256, args, shared_bytes, 0));
      } else global_rounds<1024><<<1, 1024>>>(g, n, source, count, rounds_done);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaGetLastError());
      float ms;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (r >= 2) times.push_back(ms);
    }
    CHECK(cudaMemcpy(got.data(), g.dist, 4 * n, cudaMemcpyDeviceToHost));
    std::sort(times.begin(), times.end());
    std::printf("%s: %u vertices, %u edges, %u rounds, median %.4f ms (min %.4f) of %d, %zu shared bytes, %s\n",
                mode < 4 ? names[mode] : "global", n, m, *rounds_done, times[times.size() / 2], times[0],
                runs, shared_bytes, got == expected ? "PASS" : "WRONG");
  }
  return 0;
}
