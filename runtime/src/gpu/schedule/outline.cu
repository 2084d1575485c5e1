// Host-side parts of iteration outlining (irgl/gpu/schedule/outline.cuh).

#include "irgl/gpu/schedule/outline.cuh"

namespace irgl::gpu::schedule {

namespace detail {

namespace {
cudaKernelNodeParams round_params(const void* kernel, unsigned blocks, unsigned threads,
                                  void** args) {
  cudaKernelNodeParams params{};
  params.func = const_cast<void*>(kernel);
  params.gridDim = dim3(blocks);
  params.blockDim = dim3(threads);
  params.sharedMemBytes = 0;
  params.kernelParams = args;
  return params;
}
}  // namespace

void RoundGraph::build(const void* kernel, unsigned blocks, unsigned threads, void** args,
                       cudaGraphConditionalHandle* condition_slot) {
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
  const cudaKernelNodeParams params = round_params(kernel, blocks, threads, args);
  IRGL_CUDA_CHECK(cudaGraphAddKernelNode(&round, loop.conditional.phGraph_out[0], nullptr, 0, &params));
  cudaLaunchAttributeValue cooperative{};
  cooperative.cooperative = 1;
  IRGL_CUDA_CHECK(cudaGraphKernelNodeSetAttribute(round, cudaLaunchAttributeCooperative, &cooperative));
  IRGL_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
}

bool RoundGraph::update(const void* kernel, unsigned blocks, unsigned threads, void** args) {
  const cudaKernelNodeParams params = round_params(kernel, blocks, threads, args);
  if (cudaGraphExecKernelNodeSetParams(exec, round, &params) == cudaSuccess) return true;
  (void)cudaGetLastError();  // clears the refusal; the caller rebuilds
  return false;
}

void RoundGraph::destroy() {
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  exec = nullptr;
  graph = nullptr;
  round = nullptr;
}

}  // namespace detail

uint64_t grant_dynamic_shared_memory(const void* kernel) {
  int device = 0, optin = 0;
  IRGL_CUDA_CHECK(cudaGetDevice(&device));
  IRGL_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes attributes{};
  IRGL_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  const int dynamic = optin - int(attributes.sharedSizeBytes);
  IRGL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic));
  return uint64_t(std::max(dynamic, 1));
}

}  // namespace irgl::gpu::schedule
