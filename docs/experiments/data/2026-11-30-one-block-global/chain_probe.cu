// Probe: do chains cut Bellman-Ford's rounds on road graphs enough to pay?
// Bulk-synchronous sssp in one cooperative kernel (grid barrier per round,
// a thread per item), where a thread that improves a vertex's distance may
// go on with that vertex itself, up to `chain` vertices, pushing the other
// improved neighbours to the next round. chain 1 is plain Bellman-Ford.
// Not part of irglc: an experiment (2026-11-30-one-block-global.md).
//
//   chain_probe GRAPH.wel SOURCE RUNS CHAIN...
// GRAPH.wel: "u v w" lines, 0-based (irgl-graph convert ... OUT.wel);
// CHAIN: a thread per item, or wN: a warp per item (bf_warp_kernel).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <queue>
#include <sstream>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e = (call);                                                      \
    if (e != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

struct Csr {
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> dst, weight;
};

Csr read_wel(const char* path) {
  std::ifstream in(path);
  std::vector<uint32_t> us, vs, ws;
  uint32_t n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    uint64_t u, v, w;
    if (!(fields >> u >> v >> w)) continue;
    us.push_back(u), vs.push_back(v), ws.push_back(w);
    n = std::max<uint32_t>(n, std::max(u, v) + 1);
  }
  Csr g;
  g.offsets.assign(n + 1, 0);
  for (uint32_t x : us) ++g.offsets[x + 1];
  for (uint32_t i = 0; i < n; ++i) g.offsets[i + 1] += g.offsets[i];
  g.dst.resize(us.size()), g.weight.resize(us.size());
  std::vector<uint64_t> at(g.offsets.begin(), g.offsets.end() - 1);
  for (size_t e = 0; e < us.size(); ++e) {
    g.dst[at[us[e]]] = vs[e];
    g.weight[at[us[e]]++] = ws[e];
  }
  return g;
}

std::vector<uint32_t> dijkstra(const Csr& g, uint32_t source) {
  std::vector<uint32_t> dist(g.offsets.size() - 1, UINT32_MAX);
  using Item = std::pair<uint32_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;
    for (uint64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      if (d + g.weight[e] < dist[g.dst[e]]) heap.push({dist[g.dst[e]] = d + g.weight[e], g.dst[e]});
  }
  return dist;
}

struct Args {
  const uint64_t* offsets;
  const uint32_t* dst;
  const uint32_t* weight;
  uint32_t* dist;
  uint32_t* queue[2];
  unsigned* count;  // [3]: round r reads count[r % 3], pushes to (r + 1) % 3
  unsigned chain;
  unsigned long long* rounds;
  unsigned capacity;  // of each queue; a push beyond it is lost (the check then fails)
};

__global__ void bf_kernel(Args a) {
  cg::grid_group grid = cg::this_grid();
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned long long r = 0;
  for (;; ++r) {
    const unsigned size = min(*(volatile unsigned*)&a.count[r % 3], a.capacity);
    if (size == 0) break;
    if (grid.thread_rank() == 0) a.count[(r + 2) % 3] = 0;
    const uint32_t* in = a.queue[r & 1];
    uint32_t* out = a.queue[(r + 1) & 1];
    unsigned* out_count = &a.count[(r + 1) % 3];
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += stride) {
      uint32_t u = in[i];
      for (unsigned step = 0; step < a.chain; ++step) {
        const uint32_t d = a.dist[u];
        uint32_t next = UINT32_MAX;
        for (uint64_t e = a.offsets[u]; e < a.offsets[u + 1]; ++e) {
          const uint32_t v = a.dst[e], c = d + a.weight[e];
          if (c < a.dist[v] && atomicMin(&a.dist[v], c) > c) {
            if (next == UINT32_MAX && step + 1 < a.chain) next = v;
            else if (const unsigned slot = atomicAdd(out_count, 1u); slot < a.capacity) out[slot] = v;
          }
        }
        if (next == UINT32_MAX) break;
        u = next;
      }
    }
    grid.sync();
  }
  if (grid.thread_rank() == 0) *a.rounds = r;
}

// The same with a warp per item: the lanes take a vertex's edges, and the
// warp goes on with the first lane's improved neighbour (a chain step is
// then one trip per access, not one per access and edge); the other
// improved neighbours are pushed with one atomic per warp.
__global__ void bf_warp_kernel(Args a) {
  cg::grid_group grid = cg::this_grid();
  constexpr unsigned kFull = 0xffffffffu;
  const unsigned lane = threadIdx.x & 31;
  const unsigned warps = gridDim.x * blockDim.x / 32;
  unsigned long long r = 0;
  for (;; ++r) {
    const unsigned size = min(*(volatile unsigned*)&a.count[r % 3], a.capacity);
    if (size == 0) break;
    if (grid.thread_rank() == 0) a.count[(r + 2) % 3] = 0;
    const uint32_t* in = a.queue[r & 1];
    uint32_t* out = a.queue[(r + 1) & 1];
    unsigned* out_count = &a.count[(r + 1) % 3];
    for (unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) / 32; i < size; i += warps) {
      uint32_t u = in[i];
      for (unsigned step = 0; step < a.chain; ++step) {
        const uint32_t d = a.dist[u];
        const uint64_t end = a.offsets[u + 1];
        uint32_t next = UINT32_MAX;
        for (uint64_t base = a.offsets[u]; base < end; base += 32) {
          const uint64_t e = base + lane;
          uint32_t v = 0;
          bool improved = false;
          if (e < end) {
            v = a.dst[e];
            const uint32_t c = d + a.weight[e];
            improved = c < a.dist[v] && atomicMin(&a.dist[v], c) > c;
          }
          unsigned mask = __ballot_sync(kFull, improved);
          if (mask == 0) continue;
          if (next == UINT32_MAX && step + 1 < a.chain) {
            next = __shfl_sync(kFull, v, __ffs(mask) - 1);
            mask &= mask - 1;
          }
          unsigned first = 0;
          if (lane == 0 && mask) first = atomicAdd(out_count, __popc(mask));
          first = __shfl_sync(kFull, first, 0);
          if (mask >> lane & 1) {
            const unsigned slot = first + __popc(mask & ((1u << lane) - 1));
            if (slot < a.capacity) out[slot] = v;
          }
        }
        if (next == UINT32_MAX) break;
        u = next;
      }
    }
    grid.sync();
  }
  if (grid.thread_rank() == 0) *a.rounds = r;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: chain_probe GRAPH.wel SOURCE RUNS CHAIN...\n");
    return 2;
  }
  const Csr g = read_wel(argv[1]);
  const uint32_t source = std::atoi(argv[2]);
  const int runs = std::atoi(argv[3]);
  const uint32_t n = g.offsets.size() - 1;
  const std::vector<uint32_t> expected = dijkstra(g, source);
  uint64_t *offsets;
  uint32_t *dst, *weight, *dist, *q0, *q1;
  unsigned* count;
  unsigned long long* rounds;
  const size_t cap = g.dst.size() + n;
  CHECK(cudaMalloc(&offsets, g.offsets.size() * 8));
  CHECK(cudaMalloc(&dst, g.dst.size() * 4));
  CHECK(cudaMalloc(&weight, g.dst.size() * 4));
  CHECK(cudaMalloc(&dist, n * 4));
  CHECK(cudaMalloc(&q0, cap * 4));
  CHECK(cudaMalloc(&q1, cap * 4));
  CHECK(cudaMalloc(&count, 12));
  CHECK(cudaMalloc(&rounds, 8));
  CHECK(cudaMemcpy(offsets, g.offsets.data(), g.offsets.size() * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dst, g.dst.data(), g.dst.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(weight, g.weight.data(), g.dst.size() * 4, cudaMemcpyHostToDevice));
  int sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bf_kernel, 256, 0));
  const unsigned blocks = sms * std::min(per_sm, 2);
  std::printf("%s: %u vertices, %zu edges, source %u, %u blocks of 256\n", argv[1], n, g.dst.size(),
              source, blocks);
  for (int c = 4; c < argc; ++c) {
    const bool warp = argv[c][0] == 'w';
    Args a{offsets, dst, weight, dist, {q0, q1}, count, unsigned(std::atoi(argv[c] + warp)), rounds,
           unsigned(cap)};
    void* kernel = warp ? (void*)bf_warp_kernel : (void*)bf_kernel;
    std::vector<float> times;
    unsigned long long host_rounds = 0;
    bool right = true;
    for (int run = 0; run < runs + 1; ++run) {
      std::vector<uint32_t> init(n, UINT32_MAX);
      init[source] = 0;
      const unsigned counts[3] = {1, 0, 0};
      CHECK(cudaMemcpy(dist, init.data(), n * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(q0, &source, 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(count, counts, 12, cudaMemcpyHostToDevice));
      cudaEvent_t start, stop;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));
      void* params[] = {&a};
      CHECK(cudaEventRecord(start));
      CHECK(cudaLaunchCooperativeKernel(kernel, blocks, 256, params, 0, 0));
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (run > 0) times.push_back(ms);
      std::vector<uint32_t> got(n);
      CHECK(cudaMemcpy(got.data(), dist, n * 4, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&host_rounds, rounds, 8, cudaMemcpyDeviceToHost));
      right = right && got == expected;
    }
    std::sort(times.begin(), times.end());
    std::printf("%s %u: median %.3f ms, %llu rounds, %.2f us a round, %s\n", warp ? "warp chain" : "chain", a.chain,
                times[times.size() / 2], host_rounds, 1000 * times[times.size() / 2] / host_rounds,
                right ? "right" : "WRONG");
  }
  return 0;
}
