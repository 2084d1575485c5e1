// The query engine on the GPU: queries of every kind submitted while
// others run, each answered once and equal to the host's answer, on a
// power-law graph (hubs), a grid (many levels) and a graph of isolated
// parts; one slot reused many times (the generation tags), a single
// block doing every chunk, the intake in mapped memory; and misuse.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/tasks/query_server.cuh"
#include "irgl/graph/load.h"
#include "query_reference.h"

namespace irgl::gpu::tasks {
namespace {

CsrGraph weighted(const std::string& spec) {
  LoadOptions options;
  options.show_progress = false;
  options.build.weights.source = WeightRule::Source::hash;
  options.build.weights.max = 100;
  return load_graph(spec, options);
}

// `count` random queries: kinds in turn, sources anywhere (isolated ones
// too), up to kQueryTargets random targets.
std::vector<GraphQuery> random_queries(const CsrGraph& graph, unsigned count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<uint64_t> vertex(0, graph.num_vertices() - 1);
  std::vector<GraphQuery> queries(count);
  for (unsigned q = 0; q < count; ++q) {
    GraphQuery& query = queries[q];
    query.id = 1000 + q;
    query.kind = QueryKind(q % 3);
    query.source = VertexId(vertex(random));
    if (query.kind == QueryKind::khop) query.hops = random() % 5;  // 0 too
    query.target_count = random() % (kQueryTargets + 1);
    for (uint32_t t = 0; t < query.target_count; ++t) query.targets[t] = VertexId(vertex(random));
  }
  return queries;
}

// Submits every query as the engines' slots free up (each engine in
// turn), polling in between; every answer arrives once and equals the
// host's. The number of answers each engine gave.
std::vector<unsigned> expect_host_answers(const CsrGraph& graph,
                                          const std::vector<QueryEngine*>& engines,
                                          const std::vector<GraphQuery>& queries) {
  std::map<uint64_t, GraphQuery> waiting;
  std::vector<QueryAnswer> answers;
  std::vector<unsigned> answered(engines.size(), 0);
  size_t next = 0;
  while (next < queries.size() || !waiting.empty()) {
    for (size_t e = 0; e < engines.size(); ++e) {
      QueryEngine& engine = *engines[e];
      while (next < queries.size() && engine.free_slots()) {
        waiting.emplace(queries[next].id, queries[next]);
        engine.submit(queries[next++]);
      }
      answers.clear();
      engine.poll(answers);
      for (const QueryAnswer& answer : answers) {
        const auto found = waiting.find(answer.id);
        EXPECT_NE(found, waiting.end()) << "answer to query " << answer.id << ", not waiting";
        if (found == waiting.end()) return answered;
        const GraphQuery& query = found->second;
        EXPECT_EQ(serve::compare_answers(query, serve::answer_on_host(graph, query), answer), "")
            << to_string(query.kind) << " from " << query.source << " (query " << query.id
            << ")";
        waiting.erase(found);
        ++answered[e];
      }
    }
  }
  for (QueryEngine* engine : engines) EXPECT_EQ(engine->running(), 0u);
  return answered;
}

// The same with one engine of `options` on the current GPU.
void expect_host_answers(const CsrGraph& graph, const QueryEngineOptions& options,
                         const std::vector<GraphQuery>& queries) {
  const DeviceGraph device(graph);
  QueryEngine engine(device, options);
  expect_host_answers(graph, {&engine}, queries);
  engine.finish();
}

TEST(QueryEngine, AnswersEqualTheHostsOnAPowerLawGraph) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = weighted("rmat:scale=14,edge-factor=16,seed=3");
  QueryEngineOptions options;
  options.slots = 16;
  expect_host_answers(graph, options, random_queries(graph, 300, 1));
}

TEST(QueryEngine, AnswersEqualTheHostsOnAGrid) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = weighted("grid:60x70");  // 128 levels: many advances per query
  QueryEngineOptions options;
  options.slots = 5;
  expect_host_answers(graph, options, random_queries(graph, 60, 2));
}

TEST(QueryEngine, OneSlotReusedAndOneBlockForEveryChunk) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = weighted("rmat:scale=10,edge-factor=4,seed=5");  // isolated vertices too
  QueryEngineOptions options;
  options.slots = 1;  // every query in the same slot: stale distances must not count
  options.blocks = 1;
  expect_host_answers(graph, options, random_queries(graph, 120, 3));
}

TEST(QueryEngine, MappedIntakeAndFewBlocks) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = weighted("rmat:scale=12,edge-factor=8,seed=7");
  QueryEngineOptions options;
  options.slots = 3;
  options.blocks = 2;
  options.placement = HostFedPlacement::mapped;
  expect_host_answers(graph, options, random_queries(graph, 90, 4));
}

TEST(QueryEngine, RefusesMisuse) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = weighted("grid:4x4");
  const DeviceGraph device(graph);
  QueryEngineOptions options;
  options.slots = 1;
  QueryEngine engine(device, options);
  GraphQuery query;
  query.source = 16;
  EXPECT_THROW(engine.submit(query), std::invalid_argument);  // not a vertex
  query.source = 0;
  query.target_count = kQueryTargets + 1;
  EXPECT_THROW(engine.submit(query), std::invalid_argument);
  query.target_count = 0;
  query.kind = QueryKind::bfs;
  engine.submit(query);
  EXPECT_THROW(engine.submit(query), std::logic_error);  // no free slot
  EXPECT_THROW(engine.finish(), std::logic_error);        // a query not answered
  std::vector<QueryAnswer> answers;
  while (answers.empty()) engine.poll(answers);
  EXPECT_EQ(answers[0].reached, 16u);
  EXPECT_EQ(answers[0].levels, 6u);
  engine.finish();
  EXPECT_THROW(engine.poll(answers), std::logic_error);
}

// The answer's id is the caller's, repeated or not: a repeated id in the
// slot just freed must not be taken for that slot's last answer, and the
// largest id must not read as "slot free".
TEST(QueryEngine, RepeatedAndLargestIds) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = weighted("grid:30x30");
  const DeviceGraph device(graph);
  QueryEngineOptions options;
  options.slots = 1;
  QueryEngine engine(device, options);
  const uint64_t ids[] = {7, 7, 7, UINT64_MAX, UINT64_MAX, 0};
  VertexId source = 0;
  for (uint64_t id : ids) {
    GraphQuery query;
    query.id = id;
    query.source = source;
    source = (source + 131) % 900;
    engine.submit(query);
    std::vector<QueryAnswer> answers;
    while (answers.empty()) engine.poll(answers);
    ASSERT_EQ(answers.size(), 1u);
    EXPECT_EQ(answers[0].id, id);
    EXPECT_EQ(serve::compare_answers(query, serve::answer_on_host(graph, query), answers[0]), "")
        << "bfs from " << query.source;
  }
  engine.finish();
}

// An engine on each of two GPUs, driven from one host thread with GPU 0
// current: each answers on its own GPU (the calls switch to it and back).
TEST(QueryEngine, AnEngineOnEachOfTwoGpus) {
  IRGL_REQUIRE_GPU();
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  if (devices < 2) GTEST_SKIP() << "fewer than two GPUs";
  const CsrGraph graph = weighted("rmat:scale=12,edge-factor=8,seed=11");
  std::vector<std::unique_ptr<DeviceGraph>> graphs;
  std::vector<std::unique_ptr<QueryEngine>> engines;
  QueryEngineOptions options;
  options.slots = 4;
  for (int g = 0; g < 2; ++g) {
    const ScopedDevice scope(g);
    graphs.push_back(std::make_unique<DeviceGraph>(graph));
    engines.push_back(std::make_unique<QueryEngine>(*graphs.back(), options));
    EXPECT_EQ(engines.back()->device(), g);
  }
  const std::vector<GraphQuery> queries = random_queries(graph, 80, 6);
  const std::vector<unsigned> answered =
      expect_host_answers(graph, {engines[0].get(), engines[1].get()}, queries);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 0);
  EXPECT_GT(answered[0], 0u);
  EXPECT_GT(answered[1], 0u);
  for (auto& engine : engines) engine->finish();
}

TEST(QueryEngine, RefusesBadOptions) {
  IRGL_REQUIRE_GPU();
  const CsrGraph graph = weighted("grid:4x4");
  const DeviceGraph device(graph);
  QueryEngineOptions options;
  options.memory_fraction = 0;
  EXPECT_THROW(QueryEngine(device, options), std::invalid_argument);
}

}  // namespace
}  // namespace irgl::gpu::tasks
