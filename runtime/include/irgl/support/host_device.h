// IRGL_HD marks a function that host and device code may both call:
// __host__ __device__ under nvcc, nothing for a plain C++ compiler, so that
// the headers using it (views, index arithmetic, the language's types and
// operations) also compile in host-only code and in irglc's CPU target.
//
// It says where a function runs, not how it is inlined, because its users
// need different things: irglc writes it before every function of a .irgl
// file, which says `inline` or not as its author chose (and which nvcc
// should inline no more eagerly than any other function, recursive or
// large ones included), and the runtime's functions are members (inline by
// definition) or small namespace-scope functions in headers, which write
// `inline` themselves for the one-definition rule. nvcc inlines such small
// device functions without being forced to.
#pragma once

#if defined(__CUDACC__)
#define IRGL_HD __host__ __device__
#else
#define IRGL_HD
#endif
