// The load log of instrumented schedules (irglc --instrument=load): for
// every kernel launch, the edges each thread block processed and how many
// vertices took each path. Programs write it as JSON (--load-report) and
// tools/plot-load.py draws the thread-block load (paper 001, figures 1 and 5).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
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

// The records of the current run, in launch order.
std::vector<LoadRecord>& global_load_log();

// Writes the log as JSON (nlohmann::json, one record per line):
// {"records": [{"kernel":..,"phase":..,"launch":..,"paths":{"thread":..,...},
// "block_edges":[..]}, ...], "frontiers": F}, with F the pipes' frontier
// choices (a JSON array, FrontierLog::json()), inserted as given.
void write_load_log(std::ostream& out, const std::vector<LoadRecord>& log,
                    const std::string& frontiers_json = "[]");

// Device buffers for one launch's counters, reused between launches.
class LoadRecorder {
 public:
  // Zeroed counters for a launch of `blocks` blocks.
  LoadCounters begin(unsigned blocks, cudaStream_t stream);
  // Copies the counters back (synchronizes) and appends a record.
  void end(const std::string& kernel, const std::string& phase, cudaStream_t stream);

 private:
  DeviceBuffer<unsigned long long> block_edges_;
  DeviceBuffer<unsigned long long> path_vertices_;
  unsigned blocks_ = 0;
};

}  // namespace irgl::gpu::schedule
