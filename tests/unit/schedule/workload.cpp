#include "workload.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>

namespace irgl::gpu::schedule::sim {

uint64_t Workload::graph_edges() const {
  return std::accumulate(degree.begin(), degree.end(), uint64_t{0});
}

uint64_t Workload::active_edges() const {
  uint64_t total = 0;
  for (VertexId v : frontier)
    if (active[v]) total += degree[v];
  return total;
}

uint64_t Workload::max_degree() const {
  return degree.empty() ? 0 : *std::max_element(degree.begin(), degree.end());
}

Workload make_workload(std::string name, std::vector<uint64_t> degrees, uint64_t inactive_every) {
  Workload work;
  work.name = std::move(name);
  work.degree = std::move(degrees);
  const uint64_t n = work.degree.size();
  work.edge_begin.resize(n);
  std::exclusive_scan(work.degree.begin(), work.degree.end(), work.edge_begin.begin(), uint64_t{0});
  work.active.assign(n, 1);
  if (inactive_every > 0) {
    for (uint64_t v = inactive_every - 1; v < n; v += inactive_every) work.active[v] = 0;
    work.name += "+guards";
  }
  work.frontier.resize(n);
  std::iota(work.frontier.begin(), work.frontier.end(), VertexId{0});
  return work;
}

Workload with_shuffled_frontier(Workload work, uint64_t count, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::shuffle(work.frontier.begin(), work.frontier.end(), random);
  work.frontier.resize(std::min<uint64_t>(count, work.frontier.size()));
  work.name += "+worklist";
  return work;
}

namespace mixes {

Workload empty_frontier() { return make_workload("empty-frontier", {}); }

Workload all_tiles_empty(uint64_t tiles) {
  return make_workload("all-empty", std::vector<uint64_t>(tiles, 0));
}

Workload one_huge(uint64_t tiles, uint64_t huge_degree) {
  std::vector<uint64_t> degrees(tiles);
  for (uint64_t v = 0; v < tiles; ++v) degrees[v] = v % 3;
  degrees[tiles / 2] = huge_degree;
  return make_workload("one-huge", std::move(degrees));
}

// Zipf-like: P(degree >= k) ~ 1 / (k + 1), capped at max_degree. The engine's
// raw output (not a std distribution, whose algorithm varies between
// libraries) keeps the degrees the same everywhere.
Workload power_law(uint64_t tiles, uint64_t max_degree, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> degrees(tiles);
  for (uint64_t& degree : degrees) {
    const double u = (double(random() >> 11) + 1.0) / 9007199254740992.0;  // (0, 1]
    degree = std::min<uint64_t>(max_degree, static_cast<uint64_t>(1.0 / u) - 1);
  }
  return make_workload("power-law", std::move(degrees));
}

Workload uniform(uint64_t tiles, uint64_t degree) {
  return make_workload("uniform", std::vector<uint64_t>(tiles, degree));
}

Workload bin_boundaries(uint32_t block_threads, uint64_t threshold) {
  const uint64_t edges[] = {31, 32, block_threads - 1u, block_threads, threshold, threshold + 1};
  std::vector<uint64_t> degrees;
  for (int repeat = 0; repeat < 3; ++repeat)
    for (uint64_t degree : edges) {
      degrees.push_back(degree);
      degrees.push_back(repeat % 2);
    }
  return make_workload("bin-boundaries", std::move(degrees));
}

Workload prime_total(uint64_t tiles) {
  std::vector<uint64_t> degrees(tiles);
  for (uint64_t v = 0; v < tiles; ++v) degrees[v] = (v * 7) % 40;
  auto is_prime = [](uint64_t n) {
    if (n < 2) return false;
    for (uint64_t d = 2; d * d <= n; ++d)
      if (n % d == 0) return false;
    return true;
  };
  uint64_t total = std::accumulate(degrees.begin(), degrees.end(), uint64_t{0});
  while (!is_prime(total)) ++degrees.back(), ++total;
  return make_workload("prime-total", std::move(degrees));
}

}  // namespace mixes

std::vector<Workload> standard_mixes(uint32_t block_threads, uint64_t threshold) {
  std::vector<Workload> base = {
      mixes::empty_frontier(),
      mixes::all_tiles_empty(777),
      mixes::one_huge(500, 1000000),
      mixes::power_law(3000, 20000, 7),
      mixes::uniform(1500, 5),
      mixes::bin_boundaries(block_threads, threshold),
      mixes::prime_total(1201),
  };
  std::vector<Workload> all = base;
  for (const Workload& work : base) {
    std::vector<uint64_t> degrees = work.degree;
    all.push_back(make_workload(work.name, std::move(degrees), 3));
  }
  return all;
}

}  // namespace irgl::gpu::schedule::sim
