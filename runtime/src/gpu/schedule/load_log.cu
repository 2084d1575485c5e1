// The load log of instrumented schedules (irgl/gpu/schedule/load_log.h).

#include <nlohmann/json.hpp>

#include "irgl/gpu/check.h"
#include "irgl/gpu/schedule/load_log.h"

namespace irgl::gpu::schedule {

void LoadLog::add(LoadRecord record) {
  record.launch = launches_[{record.kernel, record.phase}]++;
  records_.push_back(std::move(record));
}

void write_load_log(std::ostream& out, const LoadLog& load_log,
                    const std::string& frontiers_json) {
  // One record per line: the file stays readable and diffable with
  // thousands of launches.
  const std::vector<LoadRecord>& log = load_log.records();
  out << "{\"records\": [";
  for (size_t r = 0; r < log.size(); ++r) {
    const LoadRecord& record = log[r];
    nlohmann::ordered_json json;
    json["kernel"] = record.kernel;
    json["phase"] = record.phase;
    json["launch"] = record.launch;
    nlohmann::ordered_json& paths = json["paths"] = nlohmann::ordered_json::object();
    for (int p = 0; p < kLoadPaths; ++p)
      paths[to_string(static_cast<LoadPath>(p))] = record.path_vertices[p];
    json["block_edges"] = record.block_edges;
    out << (r ? ",\n  " : "\n  ") << json.dump();
  }
  out << "\n], \"frontiers\": " << frontiers_json << "}\n";
}

LoadCounters LoadRecorder::begin(unsigned blocks, cudaStream_t stream) {
  if (block_edges_.size() < blocks) block_edges_ = DeviceBuffer<unsigned long long>(blocks);
  if (path_vertices_.empty()) path_vertices_ = DeviceBuffer<unsigned long long>(kLoadPaths);
  blocks_ = blocks;
  IRGL_CUDA_CHECK(cudaMemsetAsync(block_edges_.data(), 0, blocks * sizeof(unsigned long long), stream));
  IRGL_CUDA_CHECK(cudaMemsetAsync(path_vertices_.data(), 0, kLoadPaths * sizeof(unsigned long long), stream));
  LoadCounters counters;
  counters.block_edges = block_edges_.data();
  counters.path_vertices = path_vertices_.data();
  return counters;
}

void LoadRecorder::end(LoadLog* log, const std::string& kernel, const std::string& phase,
                       cudaStream_t stream) {
  if (!log) return;
  std::vector<unsigned long long> edges(blocks_), paths(kLoadPaths);
  IRGL_CUDA_CHECK(cudaMemcpyAsync(edges.data(), block_edges_.data(), blocks_ * sizeof(unsigned long long),
                                  cudaMemcpyDeviceToHost, stream));
  IRGL_CUDA_CHECK(cudaMemcpyAsync(paths.data(), path_vertices_.data(),
                                  kLoadPaths * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream));
  IRGL_CUDA_CHECK(cudaStreamSynchronize(stream));
  LoadRecord record;
  record.kernel = kernel;
  record.phase = phase;
  record.block_edges.assign(edges.begin(), edges.end());
  for (int p = 0; p < kLoadPaths; ++p) record.path_vertices[p] = paths[p];
  log->add(std::move(record));
}

}  // namespace irgl::gpu::schedule
