// The sequential meaning of the language's operations: what the CPU target
// runs and what the GPU's atomic instructions must reproduce.
#include "irgl/lang/operations.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace irgl::lang {
namespace {

TEST(Atomics, MinAndMaxStoreTheExtremeAndReturnTheOldValue) {
  uint32_t x = 5;
  EXPECT_EQ(atomic_min(x, 3), 5u);
  EXPECT_EQ(x, 3u);
  EXPECT_EQ(atomic_min(x, 4), 3u);
  EXPECT_EQ(x, 3u);
  int64_t y = -2;
  EXPECT_EQ(atomic_max(y, -7), -2);
  EXPECT_EQ(y, -2);
  EXPECT_EQ(atomic_max(y, 9), -2);
  EXPECT_EQ(y, 9);
  float f = 1.5f;
  EXPECT_EQ(atomic_min(f, 0.25), 1.5f);  // the operand converts to the target's type
  EXPECT_EQ(f, 0.25f);
}

TEST(Atomics, ArithmeticWrapsLikeTheTargetType) {
  uint64_t count = 0;
  EXPECT_EQ(atomic_add(count, 1), 0u);
  EXPECT_EQ(count, 1u);
  uint32_t small = 0;
  EXPECT_EQ(atomic_sub(small, 1), 0u);
  EXPECT_EQ(small, std::numeric_limits<uint32_t>::max());
  double d = 1.0;
  EXPECT_EQ(atomic_sub(d, 0.5), 1.0);
  EXPECT_EQ(d, 0.5);
}

TEST(Atomics, ExchangeAndBitwiseOperations) {
  float f = 1.0f;
  EXPECT_EQ(atomic_exch(f, 2.0f), 1.0f);
  EXPECT_EQ(f, 2.0f);
  uint32_t bits = 0b0101;
  EXPECT_EQ(atomic_or(bits, 0b0011u), 0b0101u);
  EXPECT_EQ(bits, 0b0111u);
  EXPECT_EQ(atomic_and(bits, 0b0110u), 0b0111u);
  EXPECT_EQ(bits, 0b0110u);
}

TEST(Atomics, CompareAndSwapStoresOnlyOnAMatch) {
  int32_t x = 4;
  EXPECT_EQ(atomic_cas(x, 3, 9), 4);
  EXPECT_EQ(x, 4);
  EXPECT_EQ(atomic_cas(x, 4, 9), 4);
  EXPECT_EQ(x, 9);
}

TEST(ReductionOperators, TheIdentityChangesNothing) {
  EXPECT_EQ(SumOp::combine(SumOp::identity<int32_t>(), -3), -3);
  EXPECT_EQ(MinOp::combine(MinOp::identity<uint32_t>(), 7u), 7u);
  EXPECT_EQ(MaxOp::combine(MaxOp::identity<float>(), -1e30f), -1e30f);
  EXPECT_EQ(MinOp::combine(2.0, 1.0), 1.0);
  EXPECT_EQ(MaxOp::combine(2.0, 1.0), 2.0);
}

}  // namespace
}  // namespace irgl::lang
