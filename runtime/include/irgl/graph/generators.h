// Synthetic graphs, deterministic for a given seed whatever the number of
// threads used to make them.
//
// Specs (usable wherever a graph path is accepted):
//   rmat:SCALE  or  rmat:scale=S[,edge-factor=F][,seed=N][,a=..,b=..,c=..][,permute=0|1]
//       2^S vertices, F*2^S directed edges, Graph500 RMAT (a=0.57 b=0.19
//       c=0.19 by default); vertex ids randomly permuted unless permute=0.
//   grid:ROWSxCOLS  or  grid:rows=R,cols=C
//       a 2D 4-neighbour mesh, every edge in both directions (road-like:
//       degree <= 4, diameter rows+cols-2).
//   uniform:vertices=N,edges=M[,seed=S]
//       M directed edges with endpoints uniform at random (Erdos-Renyi style).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "irgl/graph/edge_list.h"

namespace irgl {

struct RmatParams {
  unsigned scale = 10;
  unsigned edge_factor = 16;
  double a = 0.57, b = 0.19, c = 0.19;  // d = 1 - a - b - c
  uint64_t seed = 1;
  bool permute = true;
};

struct GridParams {
  uint64_t rows = 0;
  uint64_t cols = 0;
};

struct UniformParams {
  uint64_t vertices = 0;
  uint64_t edges = 0;
  uint64_t seed = 1;
};

EdgeList generate_rmat(const RmatParams& params, bool show_progress);
EdgeList generate_grid(const GridParams& params);
EdgeList generate_uniform(const UniformParams& params);

// Parses a spec (see above) and generates it; throws InputError naming the
// spec on a malformed or out-of-range parameter.
EdgeList generate_from_spec(const std::string& spec, bool show_progress);

// A generator's edges piece by piece, for a reader that keeps only some of
// them (a multi-GPU part, irgl/graph/part_share.h). The edges come in
// units (an edge of rmat and uniform, a vertex and its edges of grid);
// units lo .. hi - 1 hold edges first_edge(lo) .. first_edge(hi) - 1, the
// same as generate_from_spec() makes whatever the pieces.
class EdgeGenerator {
 public:
  virtual ~EdgeGenerator() = default;
  virtual uint64_t vertices() const = 0;
  virtual uint64_t units() const = 0;
  virtual uint64_t first_edge(uint64_t unit) const = 0;
  // Writes the edges of units [lo, hi) to sources[0..] and targets[0..];
  // safe to call from several threads at once.
  virtual void edges(uint64_t lo, uint64_t hi, VertexId* sources, VertexId* targets) const = 0;
};

// The generator of a spec; InputError as generate_from_spec() for a bad one.
std::unique_ptr<EdgeGenerator> edge_generator_from_spec(const std::string& spec);

}  // namespace irgl
