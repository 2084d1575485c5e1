// The language's operations on values, written once for both targets of
// irglc: the operators of reductions, the atomics on vertex data, and the
// reductions Sum, Min and Max. The CPU prelude (irgl.h) and the CUDA runtime
// (cuda.cuh) both include this header, so an operation has one name, one
// signature and one meaning, the sequential code here (an operator's
// combine()). What differs by target is only how it is carried out: the
// CUDA runtime adds the instruction that performs each atomic on the GPU
// (cuda_atomics.cuh), and each target stores a Reduction its own way.
#pragma once

#include <limits>
#include <type_traits>

#include "common.h"
#include "outputs.h"

namespace irgl::lang {

//===----------------------------------------------------------------------===//
// Reduction operators
//===----------------------------------------------------------------------===//

// combine(a, b) combines two values; identity() changes nothing it is
// combined with (GPU threads start their partial values there).
struct SumOp {
  template <class T>
  IRGL_HD static T identity() { return T(0); }
  template <class T>
  IRGL_HD static T combine(T a, T b) { return a + b; }
};
struct MinOp {
  template <class T>
  IRGL_HD static T identity() { return std::numeric_limits<T>::max(); }
  template <class T>
  IRGL_HD static T combine(T a, T b) { return b < a ? b : a; }
};
struct MaxOp {
  template <class T>
  IRGL_HD static T identity() { return std::numeric_limits<T>::lowest(); }
  template <class T>
  IRGL_HD static T combine(T a, T b) { return a < b ? b : a; }
};

}  // namespace irgl::lang

// Not in irgl::lang: .irgl programs see its names (`using namespace
// irgl::lang` in irgl.h), and a `detail` there would clash with theirs.
namespace irgl::detail {

// The operators of the atomics that no reduction has: combine(old,
// operands...) is the value the atomic stores.
struct SubOp {
  template <class T>
  IRGL_HD static T combine(T old, T value) { return old - value; }
};
struct ExchOp {
  template <class T>
  IRGL_HD static T combine(T, T value) { return value; }
};
struct OrOp {
  template <class T>
  IRGL_HD static T combine(T old, T value) { return old | value; }
};
struct AndOp {
  template <class T>
  IRGL_HD static T combine(T old, T value) { return old & value; }
};
struct CasOp {
  template <class T>
  IRGL_HD static T combine(T old, T expected, T desired) {
    return old == expected ? desired : old;
  }
};

// How the GPU performs Op atomically: apply(T* target, operands...) returns
// the old value. Specialized per operator by the CUDA runtime.
template <class Op>
struct AtomicInstruction;

// Stores Op::combine(target, operands...) in target and returns the value
// it replaced: in one atomic instruction on the GPU, in sequence elsewhere
// (the CPU target, and host code calling an IRGL_HD helper).
template <class Op, class T, class... Operands>
IRGL_HD T atomic_update(T& target, Operands... operands) {
#if defined(__CUDA_ARCH__)
  return AtomicInstruction<Op>::apply(&target, operands...);
#else
  const T old = target;
  target = Op::combine(old, operands...);
  return old;
#endif
}

}  // namespace irgl::detail

namespace irgl::lang {

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

// The type of the atomics' value operands: the target's, so that
// `atomic_add(count[v], 1)` works for any integer target type.
template <class T>
struct NonDeducedHelper {
  using type = T;
};
template <class T>
using NonDeduced = typename NonDeducedHelper<T>::type;

// Atomic read-modify-write on vertex data; each returns the value before
// the operation. The GPU has them for 32- and 64-bit integers, float and
// double (irglc checks GPU code's atomics); min and max on floating point
// are a loop of compare-and-swap there.
template <class T>
IRGL_HD T atomic_min(T& target, NonDeduced<T> value) {
  return irgl::detail::atomic_update<MinOp>(target, value);
}
template <class T>
IRGL_HD T atomic_max(T& target, NonDeduced<T> value) {
  return irgl::detail::atomic_update<MaxOp>(target, value);
}
template <class T>
IRGL_HD T atomic_add(T& target, NonDeduced<T> value) {
  return irgl::detail::atomic_update<SumOp>(target, value);
}
template <class T>
IRGL_HD T atomic_sub(T& target, NonDeduced<T> value) {
  return irgl::detail::atomic_update<irgl::detail::SubOp>(target, value);
}
template <class T>
IRGL_HD T atomic_exch(T& target, NonDeduced<T> value) {
  return irgl::detail::atomic_update<irgl::detail::ExchOp>(target, value);
}
// Bitwise or / and on integer data.
template <class T>
IRGL_HD T atomic_or(T& target, NonDeduced<T> value) {
  static_assert(std::is_integral_v<T>, "atomic_or takes integers");
  return irgl::detail::atomic_update<irgl::detail::OrOp>(target, value);
}
template <class T>
IRGL_HD T atomic_and(T& target, NonDeduced<T> value) {
  static_assert(std::is_integral_v<T>, "atomic_and takes integers");
  return irgl::detail::atomic_update<irgl::detail::AndOp>(target, value);
}
// Stores `desired` when the target equals `expected`. (The GPU compares
// bits: there, 0.0 and -0.0 differ, and a NaN equals the same NaN.)
template <class T>
IRGL_HD T atomic_cas(T& target, NonDeduced<T> expected, NonDeduced<T> desired) {
  return irgl::detail::atomic_update<irgl::detail::CasOp>(target, expected, desired);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// A global reduction, declared at file scope: kernels combine values into
// it with Op, the driver resets it (r = v) and reads it (r.value()). Each
// target defines it: on the CPU it holds the value, which kernels combine
// into directly; on the GPU it holds a word in device memory, which kernels
// combine into through a ReductionSlot.
template <class T, class Op>
class Reduction;

template <class T>
class Sum : public Reduction<T, SumOp> {
 public:
  using Reduction<T, SumOp>::Reduction;
  using Reduction<T, SumOp>::operator=;
  // `r += v` in kernel code, on the CPU. (A CUDA kernel combines into the
  // ReductionSlot that stands for r there, whose += this mirrors; the CUDA
  // driver cannot combine, and irglc rejects it.)
  Sum& operator+=(T value) {
    this->reduce(value);
    return *this;
  }
};
template <class T>
class Min : public Reduction<T, MinOp> {
 public:
  using Reduction<T, MinOp>::Reduction;
  using Reduction<T, MinOp>::operator=;
};
template <class T>
class Max : public Reduction<T, MaxOp> {
 public:
  using Reduction<T, MaxOp>::Reduction;
  using Reduction<T, MaxOp>::operator=;
};

// Makes a reduction's value a result of the program (a real one is
// written in the shortest form that reads back to the same double).
template <class T, class Op>
void output(const Reduction<T, Op>& reduction) {
  static_assert(std::is_arithmetic_v<T>, "output() takes reductions of numbers");
  record_output(reduction.name(), [&reduction](OutputWriter& writer) {
    if constexpr (std::is_floating_point_v<T>)
      writer.real_scalar(reduction.name(), static_cast<double>(reduction.value()));
    else if constexpr (std::is_signed_v<T>)
      writer.signed_scalar(reduction.name(), static_cast<int64_t>(reduction.value()));
    else
      writer.scalar(reduction.name(), static_cast<uint64_t>(reduction.value()));
  });
}

}  // namespace irgl::lang
