// One line per program output saying what the answer is (vertices reached,
// components, k-core size, triangles, rank sum), and the same as JSON, so a
// user sees the result without opening the result file and tools read it
// without scraping text.
//
//   ResultSummary summary(description.name, graph.num_vertices());
//   for (const RecordedOutput& output : recorded_outputs()) output.write(summary);
//   for (const auto& line : summary.lines()) std::cout << line << "\n";
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "irgl/lang/outputs.h"

namespace irgl::lang {

class ResultSummary : public TypedOutputWriter<ResultSummary> {
 public:
  // `algorithm`: the program's name, which selects the result format and so
  // what the values mean (results/result_format.h).
  ResultSummary(std::string algorithm, uint64_t vertices)
      : algorithm_(std::move(algorithm)), vertices_(vertices) {}

  template <class T>
  void values(const std::string& name, const std::vector<T>& values);
  void scalar(const std::string& name, uint64_t value) override;
  void signed_scalar(const std::string& name, int64_t value) override;
  void real_scalar(const std::string& name, double value) override;

  // "result dist: 34 of 34 vertices reached, largest distance 5", one per output.
  const std::vector<std::string>& lines() const { return lines_; }
  // [{"name": "dist", "reached": 34, ...}, ...]
  const nlohmann::ordered_json& json() const { return json_; }

 private:
  std::string algorithm_;
  uint64_t vertices_;
  std::vector<std::string> lines_;
  nlohmann::ordered_json json_ = nlohmann::ordered_json::array();
};

}  // namespace irgl::lang
