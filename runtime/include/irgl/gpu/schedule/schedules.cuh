// The load-balancing schedules: policies that run a Body (body.h) over a
// Frontier (frontier.cuh), one header each. Each policy is a type with a
// host-side run() that launches its agents (agent.cuh), and a persistent
// form, InGrid<Policy> (grid.cuh), that runs inside a cooperative kernel:
//
//   static schedule::PerDevice<schedule::State<MyBody>> state;  // per launch site and GPU
//   schedule::Twc<256>::run(body, schedule::AllNodes{n}, state.current(), options);
//
// | policy             | header             | vertices to threads                            |
// |--------------------|--------------------|------------------------------------------------|
// | ThreadMapped<B>    | thread_mapped.cuh  | a vertex per thread, its edges sequentially    |
// | GroupMapped<B, G>  | group_mapped.cuh   | a vertex per group of G threads (Warp<B>: G=32, Block<B>: G=B) |
// | Twc<B>             | twc.cuh            | by degree: block (>= B edges), warp (>= 32), fine-grained |
// | Lb<B>              | edge_balanced.cuh  | all edges spread evenly over the grid (binary search) |
// | MergePath<B>       | edge_balanced.cuh  | equal shares of vertices + edges (2-D binary search) |
// | MultiPhase<B>      | multi_phase.cuh    | equal tiles of edges; per tile an interpolation or binary search, per edge a search in shared memory |
// | VirtualWarp<B>     | virtual_warp.cuh   | a vertex per virtual warp of 2-32 lanes, sized from the graph's mean degree |
// | DynamicVirtualWarp<B> | virtual_warp.cuh | the same, sized per launch from a sample of the frontier |
// | Alb<B>             | alb.cuh            | huge vertices (degree > threshold) as Lb, the rest Twc; row tiles |
// | Dp<B>              | dynamic_parallelism.cuh | huge vertices to child grids launched from the device, the rest Twc (-rdc=true) |
// | Auto<B>            | auto.cuh           | one of the above per launch, from the graph's degrees (auto_pick.h) |
//
// Kernels run on a grid that fills the GPU once (occupancy API, computed once
// per kernel). Buffers (per-item closures, prefix sums, CUB scratch) live in
// the State (state.cuh) and only grow: no allocation and no full memset per
// round. Nothing synchronizes the device except reading ALB's huge-list
// size, and only on graphs where a vertex can be huge at all (max degree >
// threshold).
#pragma once

#include "irgl/gpu/schedule/alb.cuh"
#include "irgl/gpu/schedule/auto.cuh"
#include "irgl/gpu/schedule/dynamic_parallelism.cuh"
#include "irgl/gpu/schedule/edge_balanced.cuh"
#include "irgl/gpu/schedule/group_mapped.cuh"
#include "irgl/gpu/schedule/multi_phase.cuh"
#include "irgl/gpu/schedule/per_device.h"
#include "irgl/gpu/schedule/thread_mapped.cuh"
#include "irgl/gpu/schedule/twc.cuh"
#include "irgl/gpu/schedule/virtual_warp.cuh"
