// IRGL_HOST_DEVICE marks small functions (views, index arithmetic) callable
// from both host and device code. Headers that use it compile with nvcc and
// with a plain C++ compiler, so host-only code (g++) may include them.
#pragma once

#if defined(__CUDACC__)
#define IRGL_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define IRGL_HOST_DEVICE inline
#endif
