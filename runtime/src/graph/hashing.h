// Hashing and counter-based random numbers for the graph library (internal).
//
//   Xxh64       the XXH64 hash (Collet's xxHash, 64-bit variant), streaming:
//               used for the binary format's checksums and cache keys.
//   mix64       the splitmix64 finaliser: a bijective 64-bit mixer, used as a
//               counter-based random number generator by the generators.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace irgl::hashing {

inline constexpr uint64_t rotl64(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }

// splitmix64's output function (Steele, Lea, Flood 2014). A bijection with
// good avalanche, so mix64(key + counter * kGolden) behaves as an independent
// random stream per key, computable in any order.
inline constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ull;
inline constexpr uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// XXH64, fed in pieces of any size; the digest equals the one-shot hash of
// the concatenated input (reference: github.com/Cyan4973/xxHash).
class Xxh64 {
 public:
  explicit Xxh64(uint64_t seed = 0)
      : lanes_{seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1}, seed_(seed) {}

  void update(const void* data, uint64_t size) {
    if (size == 0) return;
    const auto* bytes = static_cast<const unsigned char*>(data);
    total_ += size;
    if (buffered_ > 0) {  // complete a partial 32-byte stripe first
      const uint64_t take = size < 32 - buffered_ ? size : 32 - buffered_;
      std::memcpy(buffer_ + buffered_, bytes, take);
      buffered_ += static_cast<unsigned>(take);
      bytes += take;
      size -= take;
      if (buffered_ < 32) return;
      consume_stripe(buffer_);
      buffered_ = 0;
    }
    for (; size >= 32; bytes += 32, size -= 32) consume_stripe(bytes);
    std::memcpy(buffer_, bytes, size);
    buffered_ = static_cast<unsigned>(size);
  }

  uint64_t digest() const {
    uint64_t h;
    if (total_ >= 32) {
      h = rotl64(lanes_[0], 1) + rotl64(lanes_[1], 7) + rotl64(lanes_[2], 12) +
          rotl64(lanes_[3], 18);
      for (uint64_t lane : lanes_) h = (h ^ round(0, lane)) * kPrime1 + kPrime4;
    } else {
      h = seed_ + kPrime5;
    }
    h += total_;
    const unsigned char* p = buffer_;
    unsigned left = buffered_;
    for (; left >= 8; p += 8, left -= 8)
      h = rotl64(h ^ round(0, load64(p)), 27) * kPrime1 + kPrime4;
    if (left >= 4) {
      h = rotl64(h ^ (uint64_t(load32(p)) * kPrime1), 23) * kPrime2 + kPrime3;
      p += 4;
      left -= 4;
    }
    for (; left > 0; ++p, --left) h = rotl64(h ^ (*p * kPrime5), 11) * kPrime1;
    h ^= h >> 33;
    h *= kPrime2;
    h ^= h >> 29;
    h *= kPrime3;
    return h ^ (h >> 32);
  }

  static uint64_t of(const void* data, uint64_t size, uint64_t seed = 0) {
    Xxh64 hash(seed);
    hash.update(data, size);
    return hash.digest();
  }
  static uint64_t of(std::string_view text, uint64_t seed = 0) {
    return of(text.data(), text.size(), seed);
  }

 private:
  static constexpr uint64_t kPrime1 = 0x9e3779b185ebca87ull;
  static constexpr uint64_t kPrime2 = 0xc2b2ae3d27d4eb4full;
  static constexpr uint64_t kPrime3 = 0x165667b19e3779f9ull;
  static constexpr uint64_t kPrime4 = 0x85ebca77c2b2ae63ull;
  static constexpr uint64_t kPrime5 = 0x27d4eb2f165667c5ull;

  // Little-endian loads (the only byte order we build for).
  static uint64_t load64(const unsigned char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  static uint32_t load32(const unsigned char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  static uint64_t round(uint64_t acc, uint64_t input) {
    return rotl64(acc + input * kPrime2, 31) * kPrime1;
  }
  void consume_stripe(const unsigned char* p) {
    for (int i = 0; i < 4; ++i) lanes_[i] = round(lanes_[i], load64(p + 8 * i));
  }

  uint64_t lanes_[4];
  uint64_t seed_;
  uint64_t total_ = 0;
  unsigned char buffer_[32];
  unsigned buffered_ = 0;
};

}  // namespace irgl::hashing
