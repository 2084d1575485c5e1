// irgl-serve's line protocol (query_protocol.h).
#include "query_protocol.h"

#include <charconv>
#include <cstdio>
#include <sstream>
#include <vector>

#include "irgl/support/name_list.h"

namespace irgl::serve {

using gpu::tasks::kQueryKinds;
using gpu::tasks::kQueryTargets;
using gpu::tasks::kUnreached;
using gpu::tasks::QueryKind;
using gpu::tasks::QueryKindName;

namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream stream(line);
  std::vector<std::string> words;
  for (std::string word; stream >> word;) words.push_back(word);
  return words;
}

// A decimal number below `limit`, or why `word` is not one.
bool parse_number(const std::string& word, uint64_t limit, uint64_t& value) {
  const char* end = word.data() + word.size();
  const auto [stop, error] = std::from_chars(word.data(), end, value);
  return error == std::errc() && stop == end && value < limit;
}

}  // namespace

QueryLine parse_query_line(const std::string& line, uint64_t id, uint64_t vertices,
                           const std::string& refused_sssp) {
  QueryLine parsed;
  const std::vector<std::string> words = words_of(line);
  if (words.empty() || words[0][0] == '#') return parsed;
  parsed.kind = QueryLine::Kind::error;
  const QueryKindName* kind = nullptr;
  for (const QueryKindName& entry : kQueryKinds)
    if (words[0] == entry.name) kind = &entry;
  if (kind == nullptr) {
    parsed.error = "unknown query '" + words[0] + "' (" + name_list(kQueryKinds) + ")";
    return parsed;
  }
  const auto usage = [&](const std::string& problem) {
    parsed.error = problem + " (usage: " + kind->usage + ")";
    return parsed;
  };
  if (kind->kind == QueryKind::sssp && !refused_sssp.empty()) {
    parsed.error = "sssp: " + refused_sssp;
    return parsed;
  }
  const size_t fixed = kind->kind == QueryKind::khop ? 3 : 2;
  if (words.size() < fixed) return usage("too few words");
  if (words.size() - fixed > kQueryTargets)
    return usage(std::to_string(words.size() - fixed) + " targets; at most " +
                 std::to_string(kQueryTargets));
  GraphQuery& query = parsed.query;
  query.id = id;
  query.kind = kind->kind;
  const auto vertex = [&](const std::string& word, VertexId& into) {
    uint64_t value = 0;
    if (parse_number(word, vertices, value)) {
      into = VertexId(value);
      return true;
    }
    uint64_t any = 0;
    parsed.error = parse_number(word, UINT64_MAX, any)
                       ? "vertex " + word + " is not in the graph (it has " +
                             std::to_string(vertices) + " vertices, 0 to " +
                             std::to_string(vertices - 1) + ")"
                       : "'" + word + "' is not a vertex id";
    return false;
  };
  if (!vertex(words[1], query.source)) return parsed;
  if (kind->kind == QueryKind::khop) {
    uint64_t hops = 0;
    if (!parse_number(words[2], kUnreached, hops))
      return usage("'" + words[2] + "' is not a number of hops below " +
                   std::to_string(kUnreached));
    query.hops = uint32_t(hops);
  }
  for (size_t w = fixed; w < words.size(); ++w)
    if (!vertex(words[w], query.targets[query.target_count++])) return parsed;
  parsed.kind = QueryLine::Kind::query;
  return parsed;
}

std::string format_answer(const GraphQuery& query, const QueryAnswer& answer, double micros) {
  std::string line = std::to_string(query.id) + " ok " + gpu::tasks::to_string(query.kind) +
                     " " + std::to_string(query.source);
  if (query.kind == QueryKind::khop) line += " " + std::to_string(query.hops);
  line += " reached=" + std::to_string(answer.reached);
  if (query.kind != QueryKind::sssp)  // sssp's rounds are the engine's, not the answer's
    line += " levels=" + std::to_string(answer.levels);
  for (uint32_t t = 0; t < query.target_count; ++t)
    line += " " + std::to_string(query.targets[t]) + "=" +
            (answer.distance[t] == kUnreached ? std::string("unreached")
                                              : std::to_string(answer.distance[t]));
  char latency[32];
  std::snprintf(latency, sizeof latency, " us=%.1f", micros);
  return line + latency;
}

std::string format_error(uint64_t id, const std::string& message) {
  return std::to_string(id) + " error: " + message;
}

}  // namespace irgl::serve
