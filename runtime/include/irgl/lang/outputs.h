// Program outputs, shared by every target's runtime: output(...) statements
// record which data is a result; the generated main writes the recorded data
// after the timed runs, so copying results never counts in a run's time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace irgl::lang {

// Receives the recorded outputs' data.
class OutputWriter {
 public:
  virtual ~OutputWriter() = default;
  virtual void vertex_values(const std::string& name, const std::vector<uint32_t>& values) = 0;
  virtual void vertex_values(const std::string& name, const std::vector<int32_t>& values) = 0;
  virtual void vertex_values(const std::string& name, const std::vector<uint64_t>& values) = 0;
  virtual void vertex_values(const std::string& name, const std::vector<int64_t>& values) = 0;
  virtual void vertex_values(const std::string& name, const std::vector<float>& values) = 0;
  virtual void vertex_values(const std::string& name, const std::vector<double>& values) = 0;
  virtual void scalar(const std::string& name, uint64_t value) = 0;
  virtual void signed_scalar(const std::string& name, int64_t value) = 0;
  virtual void real_scalar(const std::string& name, double value) = 0;
};

// An OutputWriter that takes vertex values of every type through one
// template of Derived: `template <class T> void values(const std::string&,
// const std::vector<T>&)`.
template <class Derived>
class TypedOutputWriter : public OutputWriter {
 public:
  void vertex_values(const std::string& n, const std::vector<uint32_t>& v) override { take(n, v); }
  void vertex_values(const std::string& n, const std::vector<int32_t>& v) override { take(n, v); }
  void vertex_values(const std::string& n, const std::vector<uint64_t>& v) override { take(n, v); }
  void vertex_values(const std::string& n, const std::vector<int64_t>& v) override { take(n, v); }
  void vertex_values(const std::string& n, const std::vector<float>& v) override { take(n, v); }
  void vertex_values(const std::string& n, const std::vector<double>& v) override { take(n, v); }

 private:
  template <class T>
  void take(const std::string& name, const std::vector<T>& values) {
    static_cast<Derived*>(this)->values(name, values);
  }
};

// The outputs recorded by the current run on this thread, in order; each
// writes its data when called. Cleared by the generated main before every
// run. Per thread: library calls of different programs run concurrently.
struct RecordedOutput {
  std::string name;
  std::function<void(OutputWriter&)> write;
};
inline std::vector<RecordedOutput>& recorded_outputs() {
  thread_local std::vector<RecordedOutput> outputs;
  return outputs;
}
inline void record_output(std::string name, std::function<void(OutputWriter&)> write) {
  auto& outputs = recorded_outputs();
  for (auto& output : outputs)
    if (output.name == name) {
      output.write = std::move(write);
      return;
    }
  outputs.push_back({std::move(name), std::move(write)});
}

}  // namespace irgl::lang
