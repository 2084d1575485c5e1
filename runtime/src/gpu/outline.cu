// Host-side parts of iteration outlining (irgl/gpu/schedule/outline.cuh).

#include "irgl/gpu/schedule/outline.cuh"

namespace irgl::gpu::schedule {

const char* to_string(OutlineMode mode) {
  switch (mode) {
    case OutlineMode::off: return "off";
    case OutlineMode::persistent: return "persistent";
    case OutlineMode::graph: return "graph";
  }
  return "off";
}

bool parse_outline_mode(const std::string& text, OutlineMode& mode) {
  for (OutlineMode candidate : {OutlineMode::off, OutlineMode::persistent, OutlineMode::graph}) {
    if (text == to_string(candidate)) {
      mode = candidate;
      return true;
    }
  }
  return false;
}

OutlineMode& outline_mode() {
  static OutlineMode mode = OutlineMode::persistent;
  return mode;
}

namespace detail {

cudaGraphExec_t build_round_graph(const void* kernel, unsigned blocks, unsigned threads,
                                  void** args, cudaGraphConditionalHandle* condition_slot) {
  cudaGraph_t graph = nullptr;
  IRGL_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  // The body runs at least once (default 1); the kernel decides after that.
  IRGL_CUDA_CHECK(cudaGraphConditionalHandleCreate(condition_slot, graph, 1,
                                                   cudaGraphCondAssignDefault));
  cudaGraphNodeParams loop{};
  loop.type = cudaGraphNodeTypeConditional;
  loop.conditional.handle = *condition_slot;
  loop.conditional.type = cudaGraphCondTypeWhile;
  loop.conditional.size = 1;
  cudaGraphNode_t loop_node = nullptr;
  IRGL_CUDA_CHECK(cudaGraphAddNode(&loop_node, graph, nullptr, nullptr, 0, &loop));
  cudaGraph_t body = loop.conditional.phGraph_out[0];

  cudaKernelNodeParams round{};
  round.func = const_cast<void*>(kernel);
  round.gridDim = dim3(blocks);
  round.blockDim = dim3(threads);
  round.sharedMemBytes = 0;
  round.kernelParams = args;
  cudaGraphNode_t round_node = nullptr;
  IRGL_CUDA_CHECK(cudaGraphAddKernelNode(&round_node, body, nullptr, 0, &round));
  cudaLaunchAttributeValue cooperative{};
  cooperative.cooperative = 1;
  IRGL_CUDA_CHECK(cudaGraphKernelNodeSetAttribute(round_node, cudaLaunchAttributeCooperative,
                                                  &cooperative));
  cudaGraphExec_t exec = nullptr;
  IRGL_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  IRGL_CUDA_CHECK(cudaGraphDestroy(graph));
  return exec;
}

}  // namespace detail

}  // namespace irgl::gpu::schedule
