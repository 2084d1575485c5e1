// What both extension modules (irgl._core, irgl._cuda) hand back: a
// program's output (a vector, or values copied from the GPU) as a numpy
// array that owns it, and irglc's input errors as ValueError.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

#include "irgl/support/error.h"

namespace irgl::python {

// f() with the GIL released (a program's run), returning its value for
// the caller to convert while holding the GIL again.
template <class F>
auto without_gil(F f) {
  nanobind::gil_scoped_release unlocked;
  return f();
}

// A vector's contents as a new numpy array that owns them (no copy). Needs
// the GIL (it creates Python objects): refused without it rather than
// corrupting the interpreter.
template <class T>
nanobind::ndarray<nanobind::numpy, T, nanobind::ndim<1>> to_numpy(std::vector<T>&& values) {
  if (!PyGILState_Check()) throw std::logic_error("irgl: to_numpy called without the GIL");
  auto* owned = new std::vector<T>(std::move(values));
  nanobind::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return {owned->data(), {owned->size()}, owner};
}

// Host memory for `count` values, left uninitialised for a copy to fill,
// in transparent huge pages where the kernel offers them (numpy asks the
// same for its large arrays): a copy into fresh 4 KiB pages spends most of
// its time in page faults, and a std::vector's zero-fill would touch every
// page once more.
template <class T>
class HostValues {
 public:
  explicit HostValues(size_t count) : size_(count) {
    constexpr size_t kHugePage = size_t{2} << 20;
    const size_t bytes = std::max<size_t>(count * sizeof(T), 1);
    const size_t alignment = bytes >= kHugePage ? kHugePage : alignof(std::max_align_t);
    void* memory = nullptr;
    if (posix_memalign(&memory, alignment, bytes) != 0) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (alignment == kHugePage) madvise(memory, bytes, MADV_HUGEPAGE);  // a hint: may be ignored
#endif
    values_.reset(static_cast<T*>(memory));
  }
  T* data() { return values_.get(); }
  size_t size() const { return size_; }
  // Hands the memory over, to be freed with release_values().
  T* release() { return values_.release(); }
  static void release_values(void* values) noexcept { std::free(values); }

 private:
  struct Free {
    void operator()(T* values) const noexcept { std::free(values); }
  };
  std::unique_ptr<T, Free> values_;
  size_t size_;
};

// As above, for values in HostValues.
template <class T>
nanobind::ndarray<nanobind::numpy, T, nanobind::ndim<1>> to_numpy(HostValues<T>&& host) {
  if (!PyGILState_Check()) throw std::logic_error("irgl: to_numpy called without the GIL");
  const size_t size = host.size();
  T* values = host.data();
  nanobind::capsule owner(values, &HostValues<T>::release_values);
  host.release();  // the capsule owns it now
  return {values, {size}, owner};
}

// irgl::InputError (a malformed file, a bad option value) as ValueError,
// like the std::invalid_argument of a refused graph or parameter.
inline void register_input_errors() {
  nanobind::register_exception_translator([](const std::exception_ptr& error, void*) {
    try {
      std::rethrow_exception(error);
    } catch (const irgl::InputError& input) {
      PyErr_SetString(PyExc_ValueError, input.what());
    }
  });
}

}  // namespace irgl::python
