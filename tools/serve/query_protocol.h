// irgl-serve's line protocol: one query per line in, one answer per query
// out, in the order the answers finish.
//
//   bfs SOURCE [TARGET...]      hops from SOURCE
//   sssp SOURCE [TARGET...]     distances over the int32 edge weights
//   khop SOURCE K [TARGET...]   the vertices within K hops
//   # a comment; blank lines are skipped
//
// Up to kQueryTargets targets; vertex ids as the graph was loaded
// (0-based). A query's id is its line number in its stream. Answers:
//
//   ID ok KIND SOURCE[ K] reached=R[ levels=L][ TARGET=D|unreached...] us=LATENCY
//
// reached: the vertices at a finite distance (within K), the source
// included; levels (bfs, khop): the largest hop distance among them.
//   ID error: MESSAGE
#pragma once

#include <cstdint>
#include <string>

#include "irgl/gpu/tasks/query.h"

namespace irgl::serve {

using gpu::tasks::GraphQuery;
using gpu::tasks::QueryAnswer;

struct QueryLine {
  enum class Kind { skip, query, error };
  Kind kind = Kind::skip;
  GraphQuery query;   // Kind::query
  std::string error;  // Kind::error: what is wrong with the line
};

// Parses line `id` of a stream against a graph of `vertices` vertices.
// `refused_sssp`, when not empty, is why sssp cannot run on this graph.
QueryLine parse_query_line(const std::string& line, uint64_t id, uint64_t vertices,
                           const std::string& refused_sssp = "");

// "ID ok ..." for `query`'s answer, `micros` after it arrived.
std::string format_answer(const GraphQuery& query, const QueryAnswer& answer, double micros);
// "ID error: MESSAGE".
std::string format_error(uint64_t id, const std::string& message);

}  // namespace irgl::serve
