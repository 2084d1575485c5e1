// libFuzzer target for the graph file readers: each input is written to a
// file and read by every text parser and by the Galois binary reader. An
// InputError is the expected answer to bad input; any other exception, a
// crash, a sanitizer report or an edge list that breaks its invariants is a
// bug.
//
// Built and run by run_smoke.sh (ctest: fuzz-graph-loaders-smoke).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "formats.h"
#include "irgl/support/error.h"

namespace {

// A file name of this process's own for the inputs; in memory (/dev/shm)
// where possible. The file exists only while an input is being read, since
// libFuzzer may end the process without running exit handlers.
const std::string& input_path() {
  static const std::string path = [] {
    std::string name = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    name += "/irgl-fuzz-input-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) std::abort();
    close(fd);
    return name;
  }();
  return path;
}

void write_input(const uint8_t* data, size_t size) {
  std::FILE* file = std::fopen(input_path().c_str(), "wb");
  if (!file || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) std::abort();
}

// What every reader promises about the edges it returns.
void check_invariants(const irgl::EdgeList& edges) {
  if (edges.targets.size() != edges.size()) std::abort();
  const bool weighted = edges.weight_type != irgl::WeightType::none;
  if (edges.weights.size() != (weighted ? edges.size() : 0)) std::abort();
  if (edges.num_vertices > irgl::kMaxVertices) std::abort();
  for (uint64_t e = 0; e < edges.size(); ++e)
    if (edges.sources[e] >= edges.num_vertices || edges.targets[e] >= edges.num_vertices)
      std::abort();
  if (edges.name != input_path()) std::abort();
}

template <class Read>
void read_and_check(Read&& read) {
  try {
    check_invariants(read());
  } catch (const irgl::InputError&) {
    // Bad input, reported as such: the expected outcome.
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("IRGL_NO_PROGRESS", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  write_input(data, size);
  const std::string& path = input_path();
  try {
    irgl::peek_decompressed(path, 16);
    const irgl::TextInput input = irgl::read_text_input(path, false);
    read_and_check([&] { return irgl::parse_matrix_market(input); });
    read_and_check([&] { return irgl::parse_edge_list(input); });
    read_and_check([&] { return irgl::parse_dimacs(input); });
  } catch (const irgl::InputError&) {
    // A broken compressed stream.
  }
  read_and_check([&] { return irgl::read_galois_binary(path, false); });
  std::remove(path.c_str());
  return 0;
}
