// The irgl language prelude: `#include <irgl.h>` at the top of every .irgl
// program.
//
// A .irgl file is C++17. This header declares what the language adds (graph,
// per-vertex data, worklists, pipes, reductions, atomics, the `kernel` and
// `program` markers) so that Clang can type-check programs (irglc and clangd
// both parse them with it). It is also the runtime of irglc's sequential CPU
// target (--target=cpu), so every operation here has the sequential meaning
// the GPU code must reproduce (the atomics and reductions are written once,
// for both targets, in operations.h). docs/language.md describes the
// language.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common.h"
#include "input.h"
#include "operations.h"
#include "outputs.h"

// The markers of .irgl sources (not needed, and not defined, in the code
// irglc generates, which may use these words as names).
#ifndef IRGL_GENERATED_CODE
// Marks a function whose body holds a parallel loop over vertices.
#define kernel __attribute__((annotate("irgl::kernel")))
// Marks the host driver: its parameters after the graph become the generated
// program's command-line options.
#define program __attribute__((annotate("irgl::program")))
#endif

namespace irgl::lang {

// One value of type T per vertex. Declared at file scope; the generated
// driver sizes it for the graph and zero-fills it on every run.
template <class T>
class NodeData {
 public:
  explicit NodeData(const char* name = "") : name_(name) {}

  T& operator[](Node n) { return values_[n]; }
  const T& operator[](Node n) const { return values_[n]; }

  // Sizes the data for `nodes` vertices, all T{} (done by the driver).
  void reset(uint32_t nodes) { values_.assign(nodes, T{}); }
  // Sizes the data for `nodes` vertices, values unspecified (done by the
  // driver for data that a launch writes whole before any read).
  void resize(uint32_t nodes) { values_.resize(nodes); }
  const std::string& name() const { return name_; }
  const std::vector<T>& values() const { return values_; }

 private:
  std::string name_;
  std::vector<T> values_;
};

// Data that is not per vertex: `count` values of type T, declared at file
// scope like NodeData (`Array<Node> order;`) and sized by the driver with
// `order.reset(count)` (all T{}); every run starts with it empty. Kernels
// index it like vertex data, with the same rules for writes. Here an index
// out of range is an error naming the array (on the GPU it is not checked).
template <class T>
class Array {
 public:
  explicit Array(const char* name = "") : name_(name) {}

  T& operator[](uint64_t i) { return values_[checked(i)]; }
  const T& operator[](uint64_t i) const { return values_[checked(i)]; }
  // `count` values, all T{}.
  void reset(uint64_t count) { values_.assign(count, T{}); }
  uint64_t size() const { return values_.size(); }
  const std::string& name() const { return name_; }

 private:
  uint64_t checked(uint64_t i) const {
    if (i >= values_.size())
      throw std::out_of_range("index " + std::to_string(i) + " is out of range of Array '" +
                              name_ + "' (size " + std::to_string(values_.size()) + ")");
    return i;
  }
  std::string name_;
  std::vector<T> values_;
};

// A set of vertices to process (data-driven loops iterate over one) or to
// fill (push). Items may repeat; order is unspecified.
class Worklist {
 public:
  using const_iterator = std::vector<Node>::const_iterator;
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }

  void push(Node n) { items_.push_back(n); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  void clear() { items_.clear(); }

 private:
  std::vector<Node> items_;
};

// Two worklists for rounds of data-driven work: kernels read in() and push
// to out(); swap() makes out the next round's input and empties out.
class Pipe {
 public:
  explicit Pipe(const Graph& graph) : nodes_(graph.num_nodes()) {}

  // Adds a vertex to the current input.
  void push(Node n) { in_.push(n); }
  // Adds every vertex to the current input.
  void push_all() {
    for (Node n = 0; n < nodes_; ++n) in_.push(n);
  }
  bool empty() const { return in_.empty(); }
  size_t size() const { return in_.size(); }
  Worklist& in() { return in_; }
  Worklist& out() { return out_; }
  void swap() {
    std::swap(in_, out_);
    out_.clear();
    ++rounds_;
  }
  // Number of swap() calls so far.
  uint64_t rounds() const { return rounds_; }

 private:
  uint32_t nodes_;
  Worklist in_, out_;
  uint64_t rounds_ = 0;
};

// A pool of tasks of a user type T (a trivially copyable struct declared at
// file scope): the driver declares one, pushes the first tasks and passes
// it to a kernel whose loop `for (T t : pool)` runs every task, and every
// task a task pushes, until none is left. Here tasks run one at a time,
// first in first out (the generated CPU code drains the pool with pop()):
// a traversal then visits in breadth-first order and relaxes a vertex
// about once, where newest-first order can relax it again and again. On
// the GPU they run in parallel from per-block work-stealing deques
// (docs/tasks.md), so a program must not depend on their order.
template <class T>
class TaskPool {
  static_assert(std::is_trivially_copyable_v<T>,
                "a task is copied as bytes between GPU blocks: its type must be trivially "
                "copyable");

 public:
  void push(const T& task) { tasks_.push_back(task); }
  size_t size() const { return tasks_.size(); }
  bool empty() const { return tasks_.empty(); }
  // The oldest task, removed.
  T pop() {
    const T task = tasks_.front();
    tasks_.pop_front();
    return task;
  }
  // A task loop's range, for type checking; irglc generates the loop that
  // drains the pool.
  typename std::deque<T>::const_iterator begin() const { return tasks_.begin(); }
  typename std::deque<T>::const_iterator end() const { return tasks_.end(); }

 private:
  std::deque<T> tasks_;
};

// `for (T i : parallel(first, last))` at the top level of a task loop's
// body: the indices [first, last), whose iterations the threads of a
// block share on the GPU (a block task, docs/language.md#tasks). Here
// they run in order.
template <class First, class Last>
IndexRange<std::common_type_t<First, Last>> parallel(First first, Last last) {
  using Index = std::common_type_t<First, Last>;
  static_assert(std::is_integral_v<Index>, "parallel(first, last) takes integer bounds");
  return {Index(first), Index(last) < Index(first) ? Index(first) : Index(last)};
}

// A global reduction (operations.h). Here it holds the value, and kernels
// combine into it directly.
template <class T, class Op>
class Reduction {
 public:
  explicit Reduction(const char* name = "") : name_(name) {}
  Reduction& operator=(T value) {
    value_ = value;
    return *this;
  }
  void reduce(T value) { value_ = Op::combine(value_, value); }
  T value() const { return value_; }
  operator T() const { return value_; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  T value_{};
};

// Runs body(n) for every vertex n, in parallel on the GPU (driver only).
template <class Body>
void for_all_nodes(const Graph& graph, Body&& body) {
  for (Node n = 0; n < graph.num_nodes(); ++n) body(n);
}

// What the program assumes of its graph (input.h): require(g, Input::symmetric,
// path_lengths_fit(dist)) at the top of the program body. irglc turns it into
// the generated program's load options and checks; it is not a statement of
// the driver, so here it does nothing.
template <class T>
struct PathLengthsFit {
  const NodeData<T>* field;
};
template <class T>
PathLengthsFit<T> path_lengths_fit(const NodeData<T>& field) {
  return {&field};
}
template <class... Requirements>
void require(const Graph&, Requirements...) {}

// Makes vertex data a result of the program (a reduction: operations.h).
template <class T>
void output(const NodeData<T>& data) {
  record_output(data.name(), [&data](OutputWriter& writer) {
    writer.vertex_values(data.name(), data.values());
  });
}

}  // namespace irgl::lang

using namespace irgl::lang;
