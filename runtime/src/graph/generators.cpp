// Synthetic graph generators (see generators.h).
//
// Randomness is counter-based: the k-th 64-bit random word of a generator with
// seed s is mix64(mix64(s) + (k + 1) * golden), the k-th output of splitmix64
// started from state mix64(s), so every edge's numbers come straight from its
// index. Edges are generated in parallel into their final positions, and the
// result is identical whatever the number of threads.
//
// RMAT follows the Graph500 Kronecker generator: each of the SCALE levels
// picks a quadrant with probabilities a, b, c, d = 1-a-b-c (rounded to
// multiples of 2^-16) from a 16-bit random number (four levels per word), with
// no per-level noise, so degrees show the generator's characteristic steps.
// Self-loops and repeated edges are kept; the build options decide. With
// permute (the default), vertex ids go through a keyed pseudo-random bijection
// on [0, 2^SCALE) (a four-round alternating Feistel network), which hides the
// generator's bias toward low ids without a permutation table. Its round
// function is a multiplicative hash: enough to scatter ids, not meant to be
// cryptographic.
#include "irgl/graph/generators.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "hashing.h"
#include "irgl/support/error.h"
#include "irgl/support/parallel.h"
#include "load_progress.h"

namespace irgl {
namespace {

using hashing::kGolden;
using hashing::mix64;

// The random words of one seed: word(k) is splitmix64's k-th output.
class RandomStream {
 public:
  explicit RandomStream(uint64_t seed) : base_(mix64(seed)) {}
  uint64_t word(uint64_t k) const { return mix64(base_ + (k + 1) * kGolden); }

 private:
  uint64_t base_;
};

// A value uniform in [0, range) from a random word (Lemire's multiply-shift;
// the bias is below range / 2^64).
inline uint64_t below(uint64_t word, uint64_t range) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(word) * range) >> 64);
}

// A keyed bijection on [0, 2^bits): the value is split into a high half and a
// low half, and four rounds alternately XOR one half with a keyed hash of the
// other. Each round is invertible, so the whole is a permutation.
class FeistelPermutation {
 public:
  FeistelPermutation(unsigned bits, uint64_t seed)
      : low_bits_(bits / 2),
        low_mask_((uint64_t(1) << (bits / 2)) - 1),
        high_mask_((uint64_t(1) << (bits - bits / 2)) - 1) {
    for (unsigned round = 0; round < kRounds; ++round) keys_[round] = mix64(seed + round * kGolden);
  }

  uint64_t operator()(uint64_t x) const {
    uint64_t high = x >> low_bits_, low = x & low_mask_;
    for (unsigned round = 0; round < kRounds; round += 2) {
      high ^= scramble(low, keys_[round]) & high_mask_;
      low ^= scramble(high, keys_[round + 1]) & low_mask_;
    }
    return high << low_bits_ | low;
  }

 private:
  // The round function on a half of at most 16 bits: multiplicative hashing
  // of the keyed half; bits 32..47 of the product depend on every input bit.
  static uint64_t scramble(uint64_t half, uint64_t key) { return ((half ^ key) * kGolden) >> 32; }

  static constexpr unsigned kRounds = 4;
  unsigned low_bits_;
  uint64_t low_mask_, high_mask_;
  uint64_t keys_[kRounds];
};

// Runs body(lo, hi) over [0, total) in parallel, advancing the current
// progress phase as pieces finish.
template <class Body>
void generate_in_parallel(uint64_t total, Body&& body) {
  constexpr uint64_t kPiece = uint64_t(1) << 20;
  parallel_chunks(0, total, [&](uint64_t lo, uint64_t hi, unsigned) {
    for (uint64_t piece = lo; piece < hi; piece += kPiece) {
      const uint64_t piece_end = std::min(hi, piece + kPiece);
      body(piece, piece_end);
      progress::advance(piece_end - piece);
    }
  });
}

EdgeList empty_edge_list(std::string name, uint64_t vertices, uint64_t edges) {
  EdgeList list;
  list.name = std::move(name);
  list.num_vertices = vertices;
  list.sources.resize(edges);
  list.targets.resize(edges);
  return list;
}

// ---------------------------------------------------------------------------
// Parameter checks, shared by the spec parser and direct callers; `where`
// names the spec (or the generator) in errors.

// Far beyond any machine's memory, but small enough that sizes cannot
// overflow on the way to a clean out-of-memory error.
constexpr uint64_t kMaxGeneratedEdges = uint64_t(1) << 40;

void check_edge_count(uint64_t edges, const std::string& where) {
  if (edges > kMaxGeneratedEdges)
    throw InputError::in(where,
                         std::to_string(edges) + " edges exceed the generator limit of 2^40");
}

void check_scale(uint64_t scale, const std::string& where) {
  if (scale < 1 || scale > 31)
    throw InputError::in(where, "scale " + std::to_string(scale) + " is out of range 1..31");
}

void check_edge_factor(uint64_t edge_factor, const std::string& where) {
  if (edge_factor < 1 || edge_factor > UINT32_MAX)
    throw InputError::in(
        where, "edge-factor " + std::to_string(edge_factor) + " is out of range 1..4294967295");
}

void check_rmat(const RmatParams& params, const std::string& where) {
  check_scale(params.scale, where);
  check_edge_factor(params.edge_factor, where);
  check_edge_count(uint64_t(params.edge_factor) << params.scale, where);
  using Probability = std::pair<const char*, double>;
  for (auto [name, value] :
       std::initializer_list<Probability>{{"a", params.a}, {"b", params.b}, {"c", params.c}})
    if (!(value >= 0 && value <= 1))
      throw InputError::in(where, std::string("probability ") + name + " = " +
                                      std::to_string(value) + " is not in [0, 1]");
  const double sum = params.a + params.b + params.c;
  if (sum > 1 + 1e-12)
    throw InputError::in(where, "a + b + c = " + std::to_string(sum) + " exceeds 1");
}

void check_grid(const GridParams& params, const std::string& where) {
  if (params.rows < 1 || params.cols < 1)
    throw InputError::in(where, "a grid needs at least 1 row and 1 column");
  if (params.rows > kMaxVertices / params.cols)
    throw InputError::in(where, "a " + std::to_string(params.rows) + " x " +
                                    std::to_string(params.cols) +
                                    " grid has more than 2^32-1 vertices");
}

void check_uniform(const UniformParams& params, const std::string& where) {
  if (params.vertices < 1 || params.vertices > kMaxVertices)
    throw InputError::in(
        where, "vertices " + std::to_string(params.vertices) + " is out of range 1..4294967295");
  check_edge_count(params.edges, where);
}

// The endpoints of RMAT edge e, computed from (seed, e) alone.
class RmatSampler {
 public:
  explicit RmatSampler(const RmatParams& params)
      : scale_(params.scale),
        words_per_edge_((params.scale + kLevelsPerWord - 1) / kLevelsPerWord),
        b_start_(threshold(params.a)),
        c_start_(threshold(params.a + params.b)),
        d_start_(threshold(params.a + params.b + params.c)),
        permute_(params.permute),
        random_(params.seed),
        permutation_(params.scale, mix64(params.seed ^ 0x5045524d55544531ull)) {}

  std::pair<VertexId, VertexId> edge(uint64_t e) const {
    uint64_t u = 0, v = 0;
    const uint64_t first_word = e * words_per_edge_;
    for (unsigned level = 0; level < scale_; level += kLevelsPerWord) {
      uint64_t word = random_.word(first_word + level / kLevelsPerWord);
      const unsigned levels = std::min(kLevelsPerWord, scale_ - level);
      for (unsigned k = 0; k < levels; ++k, word >>= 16) descend(word & 0xffff, u, v);
    }
    if (permute_) {
      u = permutation_(u);
      v = permutation_(v);
    }
    return {static_cast<VertexId>(u), static_cast<VertexId>(v)};
  }

 private:
  static constexpr unsigned kLevelsPerWord = 4;

  // Probability p as a threshold on 16-bit draws.
  static uint64_t threshold(double p) {
    return static_cast<uint64_t>(std::lround(std::ldexp(p, 16)));
  }

  // One level: the quadrant of draw r (a below b_start, b below c_start, c
  // below d_start, d above), branch-free since draws are unpredictable. The
  // row bit is set for c and d, the column bit for b and d.
  void descend(uint64_t r, uint64_t& u, uint64_t& v) const {
    const uint64_t past_b = r >= b_start_, past_c = r >= c_start_, past_d = r >= d_start_;
    u = u << 1 | past_c;
    v = v << 1 | (past_b ^ past_c ^ past_d);
  }

  unsigned scale_;
  uint64_t words_per_edge_;
  uint64_t b_start_, c_start_, d_start_;
  bool permute_;
  RandomStream random_;
  FeistelPermutation permutation_;
};

class RmatGenerator : public EdgeGenerator {
 public:
  RmatGenerator(const RmatParams& params, const std::string& name)
      : params_((check_rmat(params, name), params)), sampler_(params) {}
  uint64_t vertices() const override { return uint64_t(1) << params_.scale; }
  uint64_t units() const override { return vertices() * params_.edge_factor; }
  uint64_t first_edge(uint64_t unit) const override { return unit; }
  void edges(uint64_t lo, uint64_t hi, VertexId* sources, VertexId* targets) const override {
    const RmatSampler sampler = sampler_;  // a private copy for the calling thread
    for (uint64_t e = lo; e < hi; ++e) std::tie(sources[e - lo], targets[e - lo]) = sampler.edge(e);
  }

 private:
  RmatParams params_;
  RmatSampler sampler_;
};

// The number of out-edges of the vertices before (row, col) in row-major
// order, each vertex listing up, left, right, down (those that exist).
uint64_t grid_edges_before(const GridParams& grid, uint64_t row, uint64_t col) {
  const uint64_t rows = grid.rows, cols = grid.cols;
  const auto min = [](uint64_t x, uint64_t y) { return x < y ? x : y; };
  // Whole rows: 2 (cols - 1) horizontal edges each, plus one vertical edge
  // per vertex for each neighbouring row.
  const uint64_t full_rows =
      row * 2 * (cols - 1) + cols * ((row > 0 ? row - 1 : 0) + min(row, rows - 1));
  // The first `col` vertices of this row.
  const uint64_t vertical = (row > 0) + (row + 1 < rows);
  const uint64_t partial = (col > 0 ? col - 1 : 0) + min(col, cols - 1) + col * vertical;
  return full_rows + partial;
}

// Units are vertices: each lists its up, left, right and down neighbours.
class GridGenerator : public EdgeGenerator {
 public:
  GridGenerator(const GridParams& params, const std::string& name)
      : params_((check_grid(params, name), params)) {}
  uint64_t vertices() const override { return params_.rows * params_.cols; }
  uint64_t units() const override { return vertices(); }
  uint64_t first_edge(uint64_t v) const override {
    return grid_edges_before(params_, v / params_.cols, v % params_.cols);
  }
  void edges(uint64_t lo, uint64_t hi, VertexId* sources, VertexId* targets) const override {
    const uint64_t rows = params_.rows, cols = params_.cols;
    uint64_t e = 0;
    for (uint64_t v = lo; v < hi; ++v) {
      const uint64_t row = v / cols, col = v % cols;
      auto add = [&](uint64_t target) {
        sources[e] = static_cast<VertexId>(v);
        targets[e++] = static_cast<VertexId>(target);
      };
      if (row > 0) add(v - cols);
      if (col > 0) add(v - 1);
      if (col + 1 < cols) add(v + 1);
      if (row + 1 < rows) add(v + cols);
    }
  }

 private:
  GridParams params_;
};

class UniformGenerator : public EdgeGenerator {
 public:
  UniformGenerator(const UniformParams& params, const std::string& name)
      : params_((check_uniform(params, name), params)), random_(params.seed) {}
  uint64_t vertices() const override { return params_.vertices; }
  uint64_t units() const override { return params_.edges; }
  uint64_t first_edge(uint64_t unit) const override { return unit; }
  void edges(uint64_t lo, uint64_t hi, VertexId* sources, VertexId* targets) const override {
    for (uint64_t e = lo; e < hi; ++e) {
      sources[e - lo] = static_cast<VertexId>(below(random_.word(2 * e), params_.vertices));
      targets[e - lo] = static_cast<VertexId>(below(random_.word(2 * e + 1), params_.vertices));
    }
  }

 private:
  UniformParams params_;
  RandomStream random_;
};

// Every edge of `generator`, written in place by parallel pieces.
EdgeList generate(const EdgeGenerator& generator, const std::string& name, bool show_progress) {
  const uint64_t units = generator.units();
  // From before the allocation, which takes seconds at large scales.
  std::optional<progress::Phase> phase;
  if (show_progress) phase.emplace("generating edges", units);
  EdgeList edges = empty_edge_list(name, generator.vertices(), generator.first_edge(units));
  generate_in_parallel(units, [&](uint64_t lo, uint64_t hi) {
    const uint64_t first = generator.first_edge(lo);
    generator.edges(lo, hi, edges.sources.data() + first, edges.targets.data() + first);
  });
  return edges;
}

// ---------------------------------------------------------------------------
// Specs: "kind:key=value,key=value,..." or "kind:SHORTHAND".

class SpecParameters {
 public:
  // Splits `body` (the text after the colon) into key=value pairs; `keys`
  // are the parameters the generator takes.
  SpecParameters(const std::string& spec, std::string body, std::vector<std::string> keys)
      : spec_(spec), keys_(std::move(keys)) {
    if (body.empty()) return;
    size_t start = 0;
    for (;;) {
      const size_t comma = body.find(',', start);
      add(body.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }

  bool has(const std::string& key) const { return values_.count(key) != 0; }

  uint64_t unsigned_value(const std::string& key, uint64_t fallback) const {
    if (!has(key)) return fallback;
    const std::string& text = values_.at(key);
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || *end != '\0')
      throw error("parameter '" + key + "': '" + text + "' is not a non-negative integer");
    if (errno == ERANGE)
      throw error("parameter '" + key + "': " + text + " does not fit in 64 bits");
    return value;
  }

  uint64_t required_unsigned(const std::string& key) const {
    if (!has(key)) throw error("missing parameter '" + key + "'");
    return unsigned_value(key, 0);
  }

  double number_value(const std::string& key, double fallback) const {
    if (!has(key)) return fallback;
    const std::string& text = values_.at(key);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value))
      throw error("parameter '" + key + "': '" + text + "' is not a number");
    return value;
  }

  bool flag_value(const std::string& key, bool fallback) const {
    if (!has(key)) return fallback;
    const uint64_t value = unsigned_value(key, 0);
    if (value > 1) throw error("parameter '" + key + "' must be 0 or 1");
    return value == 1;
  }

  InputError error(const std::string& problem) const { return InputError::in(spec_, problem); }

 private:
  void add(const std::string& item) {
    const size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0)
      throw error("expected key=value, found '" + item + "'");
    const std::string key = item.substr(0, equals);
    if (std::find(keys_.begin(), keys_.end(), key) == keys_.end()) {
      std::string expected;
      for (const std::string& known : keys_) expected += (expected.empty() ? "" : ", ") + known;
      throw error("unknown parameter '" + key + "' (expected " + expected + ")");
    }
    if (!values_.emplace(key, item.substr(equals + 1)).second)
      throw error("parameter '" + key + "' is given twice");
  }

  std::string spec_;
  std::vector<std::string> keys_;
  std::map<std::string, std::string> values_;
};

RmatParams parse_rmat(const std::string& spec, const std::string& body) {
  const bool shorthand =
      !body.empty() && body.find('=') == std::string::npos && body.find(',') == std::string::npos;
  const SpecParameters parameters(spec, shorthand ? "scale=" + body : body,
                                  {"scale", "edge-factor", "seed", "a", "b", "c", "permute"});
  RmatParams params;
  const uint64_t scale = parameters.required_unsigned("scale");
  check_scale(scale, spec);
  params.scale = static_cast<unsigned>(scale);
  const uint64_t edge_factor = parameters.unsigned_value("edge-factor", params.edge_factor);
  check_edge_factor(edge_factor, spec);
  params.edge_factor = static_cast<unsigned>(edge_factor);
  params.seed = parameters.unsigned_value("seed", params.seed);
  params.a = parameters.number_value("a", params.a);
  params.b = parameters.number_value("b", params.b);
  params.c = parameters.number_value("c", params.c);
  params.permute = parameters.flag_value("permute", params.permute);
  return params;
}

GridParams parse_grid(const std::string& spec, const std::string& body) {
  std::string pairs = body;
  if (body.find('=') == std::string::npos) {  // the ROWSxCOLS shorthand
    const size_t x = body.find('x');
    if (x == std::string::npos)
      throw InputError::in(spec, "expected ROWSxCOLS or rows=R,cols=C, found '" + body + "'");
    pairs = "rows=" + body.substr(0, x) + ",cols=" + body.substr(x + 1);
  }
  const SpecParameters parameters(spec, pairs, {"rows", "cols"});
  GridParams params;
  params.rows = parameters.required_unsigned("rows");
  params.cols = parameters.required_unsigned("cols");
  return params;
}

UniformParams parse_uniform(const std::string& spec, const std::string& body) {
  const SpecParameters parameters(spec, body, {"vertices", "edges", "seed"});
  UniformParams params;
  params.vertices = parameters.required_unsigned("vertices");
  params.edges = parameters.required_unsigned("edges");
  params.seed = parameters.unsigned_value("seed", params.seed);
  return params;
}

}  // namespace

EdgeList generate_rmat(const RmatParams& params, bool show_progress) {
  const std::string name = "rmat:scale=" + std::to_string(params.scale) + ",edge-factor=" +
                           std::to_string(params.edge_factor) + ",seed=" +
                           std::to_string(params.seed);
  return generate(RmatGenerator(params, name), name, show_progress);
}

EdgeList generate_grid(const GridParams& params) {
  const std::string name = "grid:" + std::to_string(params.rows) + "x" + std::to_string(params.cols);
  return generate(GridGenerator(params, name), name, false);
}

EdgeList generate_uniform(const UniformParams& params) {
  const std::string name = "uniform:vertices=" + std::to_string(params.vertices) + ",edges=" +
                           std::to_string(params.edges) + ",seed=" + std::to_string(params.seed);
  return generate(UniformGenerator(params, name), name, false);
}

std::unique_ptr<EdgeGenerator> edge_generator_from_spec(const std::string& spec) {
  const size_t colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string body = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (kind == "rmat") return std::make_unique<RmatGenerator>(parse_rmat(spec, body), spec);
  if (kind == "grid") return std::make_unique<GridGenerator>(parse_grid(spec, body), spec);
  if (kind == "uniform") return std::make_unique<UniformGenerator>(parse_uniform(spec, body), spec);
  throw InputError::in(spec, "unknown generator '" + kind + "' (expected rmat, grid or uniform)");
}

EdgeList generate_from_spec(const std::string& spec, bool show_progress) {
  return generate(*edge_generator_from_spec(spec), spec, show_progress);
}

}  // namespace irgl
