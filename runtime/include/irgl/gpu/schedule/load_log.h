// The load log of instrumented schedules (irglc --instrument=load): for
// every kernel launch, the edges each thread block processed and how many
// vertices took each path. Programs write it as JSON (--load-report) and
// tools/plot-load.py draws the thread-block load (paper 001, figures 1 and 5).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/schedule/instrument.cuh"

namespace irgl::gpu::schedule {

struct LoadRecord {
  std::string kernel;  // the .irgl kernel
  std::string phase;   // "twc", "huge", "gather", "edges", "thread", ...
  uint64_t launch = 0; // how many launches of this kernel came before
  std::vector<uint64_t> block_edges;
  std::array<uint64_t, kLoadPaths> path_vertices{};
};

// The records of one run, in launch order: RunOptions::load_log points to
// it (the generated programs' CudaRun owns one).
class LoadLog {
 public:
  // Appends `record`, numbering its launch among its kernel's and phase's.
  void add(LoadRecord record);
  const std::vector<LoadRecord>& records() const { return records_; }
  bool empty() const { return records_.empty(); }
  void clear() {
    records_.clear();
    launches_.clear();
  }

 private:
  std::vector<LoadRecord> records_;
  std::map<std::pair<std::string, std::string>, uint64_t> launches_;
};

// Writes the log as JSON (nlohmann::json, one record per line):
// {"records": [{"kernel":..,"phase":..,"launch":..,"paths":{"thread":..,...},
// "block_edges":[..]}, ...], "frontiers": F}, with F the pipes' frontier
// choices (a JSON array, FrontierLog::json()), inserted as given.
void write_load_log(std::ostream& out, const LoadLog& log,
                    const std::string& frontiers_json = "[]");

// Device buffers for one launch's counters, reused between launches.
class LoadRecorder {
 public:
  // Zeroed counters for a launch of `blocks` blocks.
  LoadCounters begin(unsigned blocks, cudaStream_t stream);
  // Copies the counters back (synchronizes) and appends a record to `log`
  // (none: nothing is copied).
  void end(LoadLog* log, const std::string& kernel, const std::string& phase,
           cudaStream_t stream);

 private:
  DeviceBuffer<unsigned long long> block_edges_;
  DeviceBuffer<unsigned long long> path_vertices_;
  unsigned blocks_ = 0;
};

}  // namespace irgl::gpu::schedule
