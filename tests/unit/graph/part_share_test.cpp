// build_part_share(): each part, built from the generator alone by its own
// thread (the collectives meet between threads), holds what
// build_part_view() cuts from the whole graph built with the same options:
// the same masters, edges, weights, in-edges, global degrees and mirrors;
// with duplicates dropped the master blocks may differ, and the parts'
// edges together are still the whole graph's. part_share_of(), from a
// mapped binary file, holds exactly that cut in every case.
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "graph_test_util.h"
#include "irgl/graph/binary_format.h"
#include "irgl/graph/generators.h"
#include "irgl/graph/part_share.h"
#include "irgl/graph/part_view.h"
#include "irgl/support/error.h"

namespace irgl::testing {
namespace {

// Collectives between the threads of one test: each part's n-th call meets
// the others' n-th call.
class ThreadCollectives {
 public:
  explicit ThreadCollectives(unsigned parts) : parts_(parts), calls_(parts, 0) {}

  PartCollectives of(unsigned part) {
    return {[this, part](std::vector<uint64_t>& values) {
              const auto all = meet(part, values);
              for (size_t i = 0; i < values.size(); ++i) {
                values[i] = 0;
                for (const auto& contribution : all) values[i] += contribution[i];
              }
            },
            [this, part](uint64_t value) {
              uint64_t largest = 0;
              for (const auto& contribution : meet(part, std::vector<uint64_t>{value}))
                largest = std::max<uint64_t>(largest, contribution[0]);
              return largest;
            }};
  }

 private:
  template <class T>
  std::vector<std::vector<uint64_t>> meet(unsigned part, const std::vector<T>& values) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto& round = rounds_[calls_[part]++];
    round.emplace_back(values.begin(), values.end());
    changed_.notify_all();
    changed_.wait(lock, [&] { return round.size() == parts_; });
    return round;
  }

  unsigned parts_;
  std::vector<unsigned> calls_;
  std::map<unsigned, std::vector<std::vector<uint64_t>>> rounds_;
  std::mutex mutex_;
  std::condition_variable changed_;
};

// Every part's share, each built by build(part, collectives) in its own thread.
template <class Build>
std::vector<PartShare> shares_in_threads(unsigned parts, Build&& build) {
  ThreadCollectives collectives(parts);
  std::vector<PartShare> shares(parts);
  std::vector<std::exception_ptr> errors(parts);
  std::vector<std::thread> threads;
  for (unsigned p = 0; p < parts; ++p)
    threads.emplace_back([&, p] {
      try {
        shares[p] = build(p, collectives.of(p));
      } catch (...) {
        errors[p] = std::current_exception();
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return shares;
}

std::vector<PartShare> build_shares(const std::string& spec, const BuildOptions& build,
                                    PartitionPolicy policy, unsigned parts) {
  const auto generator = edge_generator_from_spec(spec);
  return shares_in_threads(parts, [&](unsigned p, const PartCollectives& collectives) {
    return build_part_share(*generator, spec, build, {policy, parts, p, build.transpose},
                            collectives);
  });
}

void expect_same_part(const PartView& share, const PartView& cut) {
  EXPECT_EQ(share.first_masters, cut.first_masters);
  EXPECT_EQ(share.graph.out_offsets, cut.graph.out_offsets);
  EXPECT_EQ(share.graph.out_targets, cut.graph.out_targets);
  EXPECT_EQ(share.graph.out_weights, cut.graph.out_weights);
  EXPECT_EQ(share.graph.in_offsets, cut.graph.in_offsets);
  EXPECT_EQ(share.graph.in_sources, cut.graph.in_sources);
  EXPECT_EQ(share.graph.in_weights, cut.graph.in_weights);
  EXPECT_EQ(share.mirrors, cut.mirrors);
}

void expect_shares(const std::string& spec, const BuildOptions& build, PartitionPolicy policy,
                   unsigned parts) {
  SCOPED_TRACE(spec + ", " + to_string(policy) + ", " + std::to_string(parts) + " parts" +
               (build.symmetrize ? ", symmetrized" : "") +
               (build.drop_duplicates ? ", no duplicates" : "") +
               (build.transpose ? ", in-edges" : ""));
  const CsrGraph whole = build_csr(generate_from_spec(spec, false), build);
  const std::vector<PartShare> shares = build_shares(spec, build, policy, parts);
  std::vector<EdgeWord> all;
  uint32_t largest = 0;
  for (const uint32_t word : whole.out_weights) largest = std::max(largest, word);
  for (unsigned p = 0; p < parts; ++p) {
    const PartShare& share = shares[p];
    EXPECT_EQ(share.edges, whole.num_edges());
    EXPECT_EQ(share.largest_weight, static_cast<int64_t>(largest));
    EXPECT_FALSE(share.negative_weight);
    ASSERT_EQ(share.view.out_degrees.size(), whole.num_vertices());
    for (VertexId v = 0; v < whole.num_vertices(); ++v)
      ASSERT_EQ(share.view.out_degrees[v], whole.out_degree(v)) << "vertex " << v;
    const MasterBlocks masters{share.view.first_masters};
    for (const EdgeWord& edge : edge_words_of(share.view.graph)) {
      EXPECT_EQ(edge_part(policy, masters, part_grid(parts), std::get<0>(edge), std::get<1>(edge)),
                p);
      all.push_back(edge);
    }
    if (!build.drop_duplicates)
      expect_same_part(share.view,
                       build_part_view(whole, {policy, parts, p, build.transpose, true}));
  }
  std::vector<EdgeWord> expected = edge_words_of(whole);
  std::sort(expected.begin(), expected.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, expected);
}

BuildOptions hashed(bool symmetrize, bool simple, bool in_edges) {
  BuildOptions build;
  build.weights.source = WeightRule::Source::hash;
  build.symmetrize = symmetrize || simple;
  build.drop_self_loops = build.drop_duplicates = simple;
  build.transpose = in_edges;
  return build;
}

TEST(PartShare, EachPartHoldsWhatTheWholeGraphsCutHolds) {
  for (const char* spec : {"rmat:scale=9,edge-factor=8,seed=3", "grid:rows=17,cols=13",
                           "uniform:vertices=300,edges=2000,seed=5"})
    for (const BuildOptions& build : {hashed(false, false, false), hashed(true, false, false),
                                      hashed(false, false, true), hashed(true, true, false)})
      for (PartitionPolicy policy : {PartitionPolicy::outgoing_edge_cut,
                                     PartitionPolicy::incoming_edge_cut,
                                     PartitionPolicy::cartesian_vertex_cut})
        for (unsigned parts : {1u, 2u, 3u, 4u})
          expect_shares(spec, build, policy, parts);
}

// The shares of `whole` written to a file and mapped, against the cut.
void expect_mapped_shares(const CsrGraph& whole, PartitionPolicy policy, unsigned parts) {
  SCOPED_TRACE(whole.name + ", " + to_string(policy) + ", " + std::to_string(parts) + " parts" +
               (whole.has_transpose() ? ", in-edges" : ""));
  ScratchDir dir;
  write_irgl_binary(dir.file("g.csr"), whole, /*overwrite=*/true);
  const MappedCsrFile file(dir.file("g.csr"));
  const bool in_edges = whole.has_transpose();
  const std::vector<PartShare> shares =
      shares_in_threads(parts, [&](unsigned p, const PartCollectives& collectives) {
        return part_share_of(file.arrays(), {policy, parts, p, in_edges}, collectives);
      });
  int64_t largest = 0;
  bool negative = false;
  for (uint64_t e = 0; e < whole.num_edges() && whole.weight_type == WeightType::int32; ++e) {
    largest = std::max<int64_t>(largest, whole.out_weight<int32_t>(e));
    negative = negative || whole.out_weight<int32_t>(e) < 0;
  }
  for (unsigned p = 0; p < parts; ++p) {
    const PartShare& share = shares[p];
    const PartView cut = build_part_view(whole, {policy, parts, p, in_edges, true});
    expect_same_part(share.view, cut);
    EXPECT_EQ(share.view.out_degrees, cut.out_degrees);
    EXPECT_EQ(share.edges, whole.num_edges());
    EXPECT_EQ(share.largest_weight, largest);
    EXPECT_EQ(share.negative_weight, negative);
  }
}

TEST(PartShareOf, AMappedFilesPartsAreTheWholeGraphsCut) {
  for (const char* spec : {"rmat:scale=9,edge-factor=8,seed=3", "grid:rows=17,cols=13"})
    for (const BuildOptions& build : {hashed(false, false, false), hashed(false, false, true),
                                      hashed(true, true, true), BuildOptions{}}) {
      CsrGraph whole = build_csr(generate_from_spec(spec, false), build);
      whole.name = spec;
      for (PartitionPolicy policy : {PartitionPolicy::outgoing_edge_cut,
                                     PartitionPolicy::incoming_edge_cut,
                                     PartitionPolicy::cartesian_vertex_cut})
        for (unsigned parts : {1u, 2u, 3u, 4u}) expect_mapped_shares(whole, policy, parts);
    }
}

TEST(PartShareOf, NegativeWeightsReachEveryPart) {
  CsrGraph whole = build_csr(
      weighted_edge_list<int32_t>(6, {{0, 1, 5}, {1, 2, 9}, {2, 3, -4}, {3, 4, 1}, {4, 5, 2}}),
      BuildOptions{});
  whole.name = "negative";
  expect_mapped_shares(whole, PartitionPolicy::outgoing_edge_cut, 3);
}

TEST(PartShareOf, RefusesARenumberedGraph) {
  CsrGraph whole = build_csr(edge_list(3, {{0, 1}, {1, 2}}), BuildOptions{});
  whole.original_ids = {4, 5, 6};
  const PartCollectives alone{[](std::vector<uint64_t>&) {}, [](uint64_t value) { return value; }};
  EXPECT_THROW(part_share_of(arrays_of(whole), {PartitionPolicy::outgoing_edge_cut, 1, 0}, alone),
               std::logic_error);
}

TEST(PartShare, UnweightedGraphsHaveNoWeights) {
  const std::vector<PartShare> shares =
      build_shares("rmat:scale=8", BuildOptions{}, PartitionPolicy::cartesian_vertex_cut, 4);
  for (const PartShare& share : shares) {
    EXPECT_FALSE(share.view.graph.has_weights());
    EXPECT_EQ(share.largest_weight, 0);
  }
}

TEST(PartShare, RefusesBadPartOptionsAndRenumbering) {
  const auto generator = edge_generator_from_spec("grid:2x2");
  const PartCollectives alone{[](std::vector<uint64_t>&) {}, [](uint64_t value) { return value; }};
  EXPECT_THROW(build_part_share(*generator, "grid:2x2", {}, {PartitionPolicy::outgoing_edge_cut, 5, 0},
                                alone),
               InputError);
  EXPECT_THROW(build_part_share(*generator, "grid:2x2", {}, {PartitionPolicy::outgoing_edge_cut, 2, 2},
                                alone),
               InputError);
  BuildOptions renumber;
  renumber.renumber = true;
  EXPECT_THROW(build_part_share(*generator, "grid:2x2", renumber,
                                {PartitionPolicy::outgoing_edge_cut, 1, 0}, alone),
               std::logic_error);
}

TEST(EdgeGenerator, PiecesMakeTheSameEdgesAsTheWholeGeneration) {
  for (const char* spec : {"rmat:scale=7", "grid:5x9", "uniform:vertices=50,edges=400"}) {
    SCOPED_TRACE(spec);
    const EdgeList whole = generate_from_spec(spec, false);
    const auto generator = edge_generator_from_spec(spec);
    ASSERT_EQ(generator->vertices(), whole.num_vertices);
    ASSERT_EQ(generator->first_edge(generator->units()), whole.size());
    std::vector<VertexId> sources(whole.size()), targets(whole.size());
    for (uint64_t lo = 0; lo < generator->units(); lo += 7) {
      const uint64_t hi = std::min<uint64_t>(lo + 7, generator->units());
      const uint64_t first = generator->first_edge(lo);
      generator->edges(lo, hi, sources.data() + first, targets.data() + first);
    }
    EXPECT_EQ(sources, whole.sources);
    EXPECT_EQ(targets, whole.targets);
  }
  EXPECT_THROW(edge_generator_from_spec("mesh:4"), InputError);
  EXPECT_THROW(edge_generator_from_spec("rmat:scale=0"), InputError);
}

}  // namespace
}  // namespace irgl::testing
