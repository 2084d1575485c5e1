// Hashing and counter-based random numbers for the graph library (internal).
//
//   Xxh64       the XXH64 hash (Collet's xxHash, 64-bit variant, from
//               libxxhash used header-only), streaming: used for the binary
//               format's checksums and cache keys.
//   mix64       the splitmix64 finaliser: a bijective 64-bit mixer, used as a
//               counter-based random number generator by the generators.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace irgl::hashing {

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
// the concatenated input. libxxhash, compiled in (XXH_INLINE_ALL): no shared
// library at run time.
class Xxh64 {
 public:
  explicit Xxh64(uint64_t seed = 0) { XXH64_reset(&state_, seed); }

  void update(const void* data, uint64_t size) {
    if (size != 0) XXH64_update(&state_, data, static_cast<size_t>(size));
  }
  uint64_t digest() const { return XXH64_digest(&state_); }

  static uint64_t of(const void* data, uint64_t size, uint64_t seed = 0) {
    return XXH64(data, static_cast<size_t>(size), seed);
  }
  static uint64_t of(std::string_view text, uint64_t seed = 0) {
    return of(text.data(), text.size(), seed);
  }

 private:
  XXH64_state_t state_;
};

}  // namespace irgl::hashing
