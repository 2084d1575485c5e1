// irgl-serve's protocol (tools/serve/query_protocol.h): every kind of
// query, and every malformed line answered by an error naming what is
// wrong; and the host answers --check compares with.
#include <gtest/gtest.h>

#include "irgl/graph/edge_list.h"
#include "query_protocol.h"
#include "query_reference.h"

namespace irgl::serve {
namespace {

using gpu::tasks::kUnreached;
using gpu::tasks::QueryKind;

QueryLine parse(const std::string& line, uint64_t vertices = 10) {
  return parse_query_line(line, 7, vertices);
}

TEST(QueryProtocol, ParsesEveryKind) {
  QueryLine bfs = parse("bfs 3 4 9");
  ASSERT_EQ(bfs.kind, QueryLine::Kind::query) << bfs.error;
  EXPECT_EQ(bfs.query.id, 7u);
  EXPECT_EQ(bfs.query.kind, QueryKind::bfs);
  EXPECT_EQ(bfs.query.source, 3u);
  EXPECT_EQ(bfs.query.hops, kUnreached);
  ASSERT_EQ(bfs.query.target_count, 2u);
  EXPECT_EQ(bfs.query.targets[1], 9u);

  QueryLine khop = parse("  khop 0 2\t5 ");
  ASSERT_EQ(khop.kind, QueryLine::Kind::query) << khop.error;
  EXPECT_EQ(khop.query.kind, QueryKind::khop);
  EXPECT_EQ(khop.query.hops, 2u);
  EXPECT_EQ(khop.query.target_count, 1u);

  EXPECT_EQ(parse("sssp 9").query.kind, QueryKind::sssp);
}

TEST(QueryProtocol, SkipsBlankAndCommentLines) {
  EXPECT_EQ(parse("").kind, QueryLine::Kind::skip);
  EXPECT_EQ(parse("   \t").kind, QueryLine::Kind::skip);
  EXPECT_EQ(parse("# bfs 1").kind, QueryLine::Kind::skip);
}

// Each malformed line: an error that names the offending word.
TEST(QueryProtocol, RefusesMalformedLines) {
  const struct {
    const char* line;
    const char* error;
  } cases[] = {
      {"bfz 1", "unknown query 'bfz' (bfs, sssp or khop)"},
      {"bfs", "too few words (usage: bfs SOURCE [TARGET...])"},
      {"khop 1", "too few words (usage: khop SOURCE K [TARGET...])"},
      {"bfs 10", "vertex 10 is not in the graph (it has 10 vertices, 0 to 9)"},
      {"bfs 1 99999999999999999999", "'99999999999999999999' is not a vertex id"},
      {"bfs -1", "'-1' is not a vertex id"},
      {"bfs 1x", "'1x' is not a vertex id"},
      {"bfs 1 2 3 4 5 6 7 8 9 1", "9 targets; at most 8 (usage: bfs SOURCE [TARGET...])"},
      {"khop 1 two", "'two' is not a number of hops below 4294967295 (usage: khop SOURCE K "
                     "[TARGET...])"},
      {"khop 1 2 10", "vertex 10 is not in the graph (it has 10 vertices, 0 to 9)"},
  };
  for (const auto& c : cases) {
    const QueryLine parsed = parse(c.line);
    EXPECT_EQ(parsed.kind, QueryLine::Kind::error) << c.line;
    EXPECT_EQ(parsed.error, c.error) << c.line;
  }
  const QueryLine refused = parse_query_line("sssp 1", 3, 10, "the graph has no weights");
  EXPECT_EQ(refused.kind, QueryLine::Kind::error);
  EXPECT_EQ(refused.error, "sssp: the graph has no weights");
  EXPECT_EQ(format_error(3, refused.error), "3 error: sssp: the graph has no weights");
}

TEST(QueryProtocol, FormatsAnswers) {
  const GraphQuery query = parse("khop 2 3 5 6").query;
  QueryAnswer answer;
  answer.reached = 4;
  answer.levels = 3;
  answer.target_count = 2;
  answer.distance[0] = 1;
  answer.distance[1] = kUnreached;
  EXPECT_EQ(format_answer(query, answer, 12.34),
            "7 ok khop 2 3 reached=4 levels=3 5=1 6=unreached us=12.3");
  GraphQuery sssp = parse("sssp 2 5").query;
  answer.target_count = 1;
  EXPECT_EQ(format_answer(sssp, answer, 1), "7 ok sssp 2 reached=4 5=1 us=1.0");
}

// 0 -> 1 -> 2 -> 3 (weights 5, 1, 1) and 0 -> 3 (weight 9); 4 isolated.
CsrGraph path_graph() {
  EdgeList edges;
  edges.num_vertices = 5;
  edges.weight_type = WeightType::int32;
  const uint32_t list[][3] = {{0, 1, 5}, {1, 2, 1}, {2, 3, 1}, {0, 3, 9}};
  for (const auto& e : list) {
    edges.sources.push_back(e[0]);
    edges.targets.push_back(e[1]);
    edges.weights.push_back(e[2]);
  }
  return build_csr(std::move(edges), BuildOptions{});
}

TEST(QueryReference, AnswersEachKind) {
  const CsrGraph graph = path_graph();
  GraphQuery query = parse("bfs 0 3 4", 5).query;
  QueryAnswer answer = answer_on_host(graph, query);
  EXPECT_EQ(answer.reached, 4u);
  EXPECT_EQ(answer.levels, 2u);
  EXPECT_EQ(answer.distance[0], 1u);
  EXPECT_EQ(answer.distance[1], kUnreached);

  query = parse("sssp 0 3", 5).query;
  answer = answer_on_host(graph, query);
  EXPECT_EQ(answer.reached, 4u);
  EXPECT_EQ(answer.distance[0], 7u);  // 5 + 1 + 1 beats 9

  query = parse("khop 1 1 3", 5).query;
  answer = answer_on_host(graph, query);
  EXPECT_EQ(answer.reached, 2u);  // 1 and 2
  EXPECT_EQ(answer.levels, 1u);
  EXPECT_EQ(answer.distance[0], kUnreached);  // 3 is two hops away

  QueryAnswer served = answer;
  served.reached = 3;
  EXPECT_EQ(compare_answers(query, answer, served), "reached 3 (expected 2)");
  EXPECT_EQ(compare_answers(query, answer, answer), "");
}

}  // namespace
}  // namespace irgl::serve
