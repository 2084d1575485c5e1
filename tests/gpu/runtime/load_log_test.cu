// The load report's JSON (write_load_log): host code only, so it runs
// without a GPU. tools/plot-load.py and tests/lit/irglc/Inputs/load_totals.py
// read these fields.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "irgl/gpu/schedule/load_log.h"
#include "irgl/gpu/worklist/frontier_policy.h"

namespace irgl::gpu::schedule {
namespace {

LoadLog sample_log() {
  LoadRecord first;
  first.kernel = "relax";
  first.phase = "twc";
  first.block_edges = {5, 0, 12};
  first.path_vertices[0] = 7;
  first.path_vertices[kLoadPaths - 1] = 2;
  LoadRecord second = first;
  second.kernel = "a \"quoted\" kernel";
  second.phase = "huge";
  second.block_edges = {};
  LoadLog log;
  log.add(first);
  log.add(second);
  return log;
}

// Each record counts the launches of its kernel and phase before it, from
// the log's last clear() (a run).
TEST(LoadLog, NumbersLaunchesPerKernelAndPhase) {
  LoadLog log;
  for (const char* phase : {"twc", "huge", "twc", "twc", "huge"}) {
    LoadRecord record;
    record.kernel = "relax";
    record.phase = phase;
    log.add(record);
  }
  std::vector<uint64_t> launches;
  for (const LoadRecord& record : log.records()) launches.push_back(record.launch);
  EXPECT_EQ(launches, (std::vector<uint64_t>{0, 0, 1, 2, 1}));
  log.clear();
  EXPECT_TRUE(log.empty());
  LoadRecord again;
  again.kernel = "relax";
  again.phase = "twc";
  log.add(again);
  EXPECT_EQ(log.records().front().launch, 0u);
}

TEST(LoadLog, WritesOneRecordPerLine) {
  std::ostringstream out;
  write_load_log(out, sample_log());
  const std::string text = out.str();
  const std::string head = "{\"records\": [\n  {\"kernel\":\"relax\",\"phase\":\"twc\",\"launch\":0,";
  EXPECT_EQ(text.substr(0, head.size()), head) << text;
  EXPECT_NE(text.find("\"block_edges\":[5,0,12]},\n  {\"kernel\":\"a \\\"quoted\\\" kernel\""),
            std::string::npos)
      << text;
  const std::string tail = "\"block_edges\":[]}\n], \"frontiers\": []}\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail) << text;
}

TEST(LoadLog, ParsesBackWithEveryField) {
  FrontierLog frontiers;
  frontiers.rounds.push_back({3, 10, 40, FrontierForm::dense, 9, true});
  std::ostringstream out;
  write_load_log(out, sample_log(), frontiers.json());
  const nlohmann::json log = nlohmann::json::parse(out.str());
  ASSERT_EQ(log["records"].size(), 2u);
  const nlohmann::json& first = log["records"][0];
  EXPECT_EQ(first["kernel"], "relax");
  EXPECT_EQ(first["phase"], "twc");
  EXPECT_EQ(first["launch"], 0);
  EXPECT_EQ(first["block_edges"], nlohmann::json::array({5, 0, 12}));
  ASSERT_EQ(first["paths"].size(), size_t(kLoadPaths));
  EXPECT_EQ(first["paths"][to_string(LoadPath(0))], 7);
  EXPECT_EQ(first["paths"][to_string(LoadPath(kLoadPaths - 1))], 2);
  EXPECT_EQ(log["records"][1]["kernel"], "a \"quoted\" kernel");
  EXPECT_EQ(log["records"][1]["block_edges"], nlohmann::json::array());
  ASSERT_EQ(log["frontiers"].size(), 1u);
  EXPECT_EQ(log["frontiers"][0]["output"], "dense");
  EXPECT_EQ(log["frontiers"][0]["members"], 9);
  // The field order of the records, as before the switch to nlohmann::json.
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(out.str());
  std::vector<std::string> keys;
  for (auto it = ordered["records"][0].begin(); it != ordered["records"][0].end(); ++it)
    keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"kernel", "phase", "launch", "paths", "block_edges"}));
}

}  // namespace
}  // namespace irgl::gpu::schedule
