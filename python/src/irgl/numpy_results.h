// What both extension modules (irgl._core, irgl._cuda) hand back: a
// program's output vector as a numpy array that owns it, and irglc's input
// errors as ValueError.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <exception>
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
