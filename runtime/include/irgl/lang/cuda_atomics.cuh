// The GPU's instruction for each atomic of the language (operations.h): the
// hardware's atomic where it has one for the type, else a loop of
// compare-and-swap around the operator's combine(). Values travel as the
// 32- or 64-bit words the hardware updates.
#pragma once

#include <cstring>
#include <type_traits>

#include "irgl/lang/operations.h"

namespace irgl::detail {

template <class T>
__device__ unsigned long long* as_ull(T* p) {
  static_assert(sizeof(T) == 8, "64-bit types only");
  return reinterpret_cast<unsigned long long*>(p);
}
template <class T>
__device__ unsigned int* as_uint(T* p) {
  static_assert(sizeof(T) == 4, "32-bit types only");
  return reinterpret_cast<unsigned int*>(p);
}
template <class T>
__device__ T from_bits(unsigned long long bits) {
  T value;
  memcpy(&value, &bits, sizeof(T));
  return value;
}
template <class T>
__device__ unsigned long long to_bits(T value) {
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof(T));
  return bits;
}

// Stores Op::combine(old, value) with a loop of compare-and-swap (for
// operators the hardware lacks on T).
template <class Op, class T>
__device__ T cas_loop(T* target, T value) {
  if constexpr (sizeof(T) == 4) {
    unsigned int* word = as_uint(target);
    unsigned int old = *word, assumed;
    do {
      assumed = old;
      const T next = Op::combine(from_bits<T>(assumed), value);
      old = atomicCAS(word, assumed, static_cast<unsigned int>(to_bits(next)));
    } while (old != assumed);
    return from_bits<T>(old);
  } else {
    unsigned long long* word = as_ull(target);
    unsigned long long old = *word, assumed;
    do {
      assumed = old;
      old = atomicCAS(word, assumed, to_bits(Op::combine(from_bits<T>(assumed), value)));
    } while (old != assumed);
    return from_bits<T>(old);
  }
}

// Min or max: `instruction` (atomicMin or atomicMax) on integers, signed or
// not; a loop on floating point, which the hardware does not order.
template <class Op, class T, class Instruction>
__device__ T ordering_atomic(T* target, T value, Instruction instruction) {
  if constexpr (std::is_floating_point_v<T>) {
    return cas_loop<Op>(target, value);
  } else if constexpr (sizeof(T) == 4) {
    return instruction(target, value);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(
        instruction(reinterpret_cast<long long*>(target), static_cast<long long>(value)));
  } else {
    return static_cast<T>(instruction(as_ull(target), static_cast<unsigned long long>(value)));
  }
}

// Or or and: `instruction` (atomicOr or atomicAnd) on the unsigned word.
template <class T, class Instruction>
__device__ T bitwise_atomic(T* target, T value, Instruction instruction) {
  if constexpr (sizeof(T) == 4) {
    return static_cast<T>(instruction(as_uint(target), static_cast<unsigned int>(value)));
  } else {
    return static_cast<T>(instruction(as_ull(target), static_cast<unsigned long long>(value)));
  }
}

template <>
struct AtomicInstruction<lang::MinOp> {
  template <class T>
  __device__ static T apply(T* target, T value) {
    return ordering_atomic<lang::MinOp>(target, value,
                                        [](auto* word, auto v) { return atomicMin(word, v); });
  }
};
template <>
struct AtomicInstruction<lang::MaxOp> {
  template <class T>
  __device__ static T apply(T* target, T value) {
    return ordering_atomic<lang::MaxOp>(target, value,
                                        [](auto* word, auto v) { return atomicMax(word, v); });
  }
};

template <>
struct AtomicInstruction<lang::SumOp> {
  template <class T>
  __device__ static T apply(T* target, T value) {
    if constexpr (std::is_floating_point_v<T> || sizeof(T) == 4) {
      return atomicAdd(target, value);
    } else {
      // Two's complement makes unsigned addition right for signed values too.
      return static_cast<T>(atomicAdd(as_ull(target), static_cast<unsigned long long>(value)));
    }
  }
};
template <>
struct AtomicInstruction<SubOp> {
  template <class T>
  __device__ static T apply(T* target, T value) {
    if constexpr (std::is_floating_point_v<T>) {
      return atomicAdd(target, -value);
    } else if constexpr (sizeof(T) == 4) {
      return atomicSub(target, value);
    } else {
      return static_cast<T>(
          atomicAdd(as_ull(target), 0ull - static_cast<unsigned long long>(value)));
    }
  }
};

template <>
struct AtomicInstruction<ExchOp> {
  template <class T>
  __device__ static T apply(T* target, T value) {
    if constexpr (sizeof(T) == 4) {
      return from_bits<T>(atomicExch(as_uint(target), static_cast<unsigned int>(to_bits(value))));
    } else {
      return from_bits<T>(atomicExch(as_ull(target), to_bits(value)));
    }
  }
};

template <>
struct AtomicInstruction<OrOp> {
  template <class T>
  __device__ static T apply(T* target, T value) {
    return bitwise_atomic(target, value, [](auto* word, auto v) { return atomicOr(word, v); });
  }
};
template <>
struct AtomicInstruction<AndOp> {
  template <class T>
  __device__ static T apply(T* target, T value) {
    return bitwise_atomic(target, value, [](auto* word, auto v) { return atomicAnd(word, v); });
  }
};

// Compares and stores the bits of T.
template <>
struct AtomicInstruction<CasOp> {
  template <class T>
  __device__ static T apply(T* target, T expected, T desired) {
    if constexpr (sizeof(T) == 4) {
      return from_bits<T>(atomicCAS(as_uint(target), static_cast<unsigned int>(to_bits(expected)),
                                    static_cast<unsigned int>(to_bits(desired))));
    } else {
      return from_bits<T>(atomicCAS(as_ull(target), to_bits(expected), to_bits(desired)));
    }
  }
};

}  // namespace irgl::detail
