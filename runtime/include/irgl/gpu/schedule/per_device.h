// One object per CUDA device, made on first use there. What a launch site
// keeps between runs (a schedule's State, an outlined loop, a task pool's
// memory) holds one device's memory, events and grid sizes, while a
// library's calls may run on several GPUs in turn (the Python package's
// device="cuda:N"): each device gets its own.
//
//   static schedule::PerDevice<schedule::State<MyBody>> irgl_state;
//   schedule::Twc<256>::run(body, frontier, irgl_state.current(), options);
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "irgl/gpu/device_buffer.h"

namespace irgl::gpu::schedule {

template <class T>
class PerDevice {
 public:
  // The current device's object. Not thread-safe: a launch site's calls
  // take turns (a library entry point holds its program's lock).
  T& current() {
    const size_t device = static_cast<size_t>(gpu::detail::current_device());
    if (device >= objects_.size()) objects_.resize(device + 1);
    if (!objects_[device]) objects_[device] = std::make_unique<T>();
    return *objects_[device];
  }

 private:
  std::vector<std::unique_ptr<T>> objects_;
};

}  // namespace irgl::gpu::schedule
