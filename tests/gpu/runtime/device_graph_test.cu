// DeviceGraph upload/download, GraphView access on the device, and the
// memory fit check.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test.h"
#include "gpu_test_util.h"
#include "graph_fixtures.h"
#include "irgl/gpu/device_buffer.h"
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/launch.cuh"

namespace irgl::gpu {
namespace {

using irgl::testing::random_graph;
using irgl::testing::vectors_equal;

// Per-vertex facts read through a CsrView: degree, sum of neighbor ids,
// sum of weights as W (0 when unweighted). Shared by kernel and host so
// that both exercise the view the same way.
template <class W>
struct Summary {
  std::vector<uint64_t> degree, neighbor_sum;
  std::vector<W> weight_sum;
};

template <class W>
IRGL_HD void summarize_vertex(const CsrView& view, VertexId v, uint64_t* degree,
                              uint64_t* neighbor_sum, W* weight_sum) {
  *degree = view.degree(v);
  uint64_t neighbors = 0;
  W weights = 0;
  for (uint64_t e = view.begin(v); e < view.end(v); ++e) {
    neighbors += view.neighbor(e);
    if (view.has_weights()) weights += view.weight<W>(e);
  }
  *neighbor_sum = neighbors;
  *weight_sum = weights;
}

template <class W>
__global__ void summarize_kernel(CsrView view, uint64_t* degree, uint64_t* neighbor_sum,
                                 W* weight_sum) {
  for (uint64_t v = global_thread_index(); v < view.num_vertices(); v += grid_thread_count())
    summarize_vertex(view, static_cast<VertexId>(v), &degree[v], &neighbor_sum[v], &weight_sum[v]);
}

template <class W>
Summary<W> summarize_on_gpu(const CsrView& view) {
  const uint64_t n = view.num_vertices();
  DeviceBuffer<uint64_t> degree(n), neighbor_sum(n);
  DeviceBuffer<W> weight_sum(n);
  summarize_kernel<W><<<grid_blocks(n), kBlockThreads>>>(view, degree.data(), neighbor_sum.data(),
                                                         weight_sum.data());
  IRGL_CUDA_CHECK_LAUNCH();
  return {degree.download(), neighbor_sum.download(), weight_sum.download()};
}

template <class W>
Summary<W> summarize_through_host_view(const CsrView& view) {
  Summary<W> summary;
  const uint64_t n = view.num_vertices();
  summary.degree.resize(n);
  summary.neighbor_sum.resize(n);
  summary.weight_sum.resize(n);
  for (uint64_t v = 0; v < n; ++v)
    summarize_vertex(view, static_cast<VertexId>(v), &summary.degree[v], &summary.neighbor_sum[v],
                     &summary.weight_sum[v]);
  return summary;
}

// The expected summary straight from the host arrays (no view code).
template <class W>
Summary<W> summarize_host_arrays(const std::vector<uint64_t>& offsets,
                                 const std::vector<VertexId>& neighbors,
                                 const std::vector<uint32_t>& weight_words) {
  Summary<W> summary;
  for (size_t v = 0; v + 1 < offsets.size(); ++v) {
    uint64_t neighbor_sum = 0;
    W weight_sum = 0;
    for (uint64_t e = offsets[v]; e < offsets[v + 1]; ++e) {
      neighbor_sum += neighbors[e];
      if (!weight_words.empty()) {
        W weight;
        std::memcpy(&weight, &weight_words[e], sizeof weight);
        weight_sum += weight;
      }
    }
    summary.degree.push_back(offsets[v + 1] - offsets[v]);
    summary.neighbor_sum.push_back(neighbor_sum);
    summary.weight_sum.push_back(weight_sum);
  }
  return summary;
}

template <class W>
void expect_same_summary(const Summary<W>& expected, const Summary<W>& actual,
                         const std::string& what) {
  EXPECT_TRUE(vectors_equal(expected.degree, actual.degree)) << what << ": degrees";
  EXPECT_TRUE(vectors_equal(expected.neighbor_sum, actual.neighbor_sum))
      << what << ": neighbor sums";
  EXPECT_TRUE(vectors_equal(expected.weight_sum, actual.weight_sum)) << what << ": weight sums";
}

void expect_same_graph(const CsrGraph& expected, const CsrGraph& actual) {
  EXPECT_EQ(expected.name, actual.name);
  EXPECT_EQ(expected.num_vertices(), actual.num_vertices());
  EXPECT_EQ(expected.weight_type, actual.weight_type);
  EXPECT_EQ(expected.symmetric, actual.symmetric);
  EXPECT_EQ(expected.sorted, actual.sorted);
  EXPECT_TRUE(vectors_equal(expected.out_offsets, actual.out_offsets)) << "out_offsets";
  EXPECT_TRUE(vectors_equal(expected.out_targets, actual.out_targets)) << "out_targets";
  EXPECT_TRUE(vectors_equal(expected.out_weights, actual.out_weights)) << "out_weights";
  EXPECT_TRUE(vectors_equal(expected.in_offsets, actual.in_offsets)) << "in_offsets";
  EXPECT_TRUE(vectors_equal(expected.in_sources, actual.in_sources)) << "in_sources";
  EXPECT_TRUE(vectors_equal(expected.in_weights, actual.in_weights)) << "in_weights";
  EXPECT_NO_THROW(actual.validate());
}

uint64_t rounded(uint64_t bytes) {
  return (bytes + kAllocationGranularity - 1) / kAllocationGranularity * kAllocationGranularity;
}

TEST(DeviceGraph, RoundTripWithIntWeightsAndTranspose) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("int-graph", 3000, 40000, WeightType::int32, true, 11, 7);
  ASSERT_TRUE(host.has_transpose());
  const DeviceGraph device(host);
  EXPECT_EQ(device.num_vertices(), 3000u);
  EXPECT_EQ(device.num_edges(), host.num_edges());
  EXPECT_EQ(device.weight_type(), WeightType::int32);
  EXPECT_TRUE(device.has_in_edges());
  EXPECT_EQ(device.name(), "int-graph");
  expect_same_graph(host, device.download());
}

TEST(DeviceGraph, RoundTripWithFloatWeights) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("float-graph", 2000, 20000, WeightType::float32, true, 12);
  const DeviceGraph device(host);
  EXPECT_EQ(device.weight_type(), WeightType::float32);
  expect_same_graph(host, device.download());
}

TEST(DeviceGraph, KernelsReadBothDirectionsThroughTheView) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("view-graph", 5000, 60000, WeightType::int32, true, 13, 100);
  const DeviceGraph device(host);
  const GraphView view = device.view();
  EXPECT_EQ(view.num_vertices(), 5000u);
  EXPECT_EQ(view.num_edges(), host.num_edges());
  EXPECT_EQ(view.in.num_edges(), host.num_edges());
  EXPECT_EQ(view.weight_type, WeightType::int32);
  ASSERT_TRUE(view.has_in_edges());
  expect_same_summary(
      summarize_host_arrays<int32_t>(host.out_offsets, host.out_targets, host.out_weights),
      summarize_on_gpu<int32_t>(view.out), "out-edges, int32");
  expect_same_summary(
      summarize_host_arrays<int32_t>(host.in_offsets, host.in_sources, host.in_weights),
      summarize_on_gpu<int32_t>(view.in), "in-edges, int32");
  // The raw words, unsigned.
  expect_same_summary(
      summarize_host_arrays<uint32_t>(host.out_offsets, host.out_targets, host.out_weights),
      summarize_on_gpu<uint32_t>(view.out), "out-edges, words");
}

TEST(DeviceGraph, KernelsReadFloatWeights) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("float-view", 4000, 50000, WeightType::float32, true, 14);
  const DeviceGraph device(host);
  // Same summation order on both sides, so the float sums match exactly.
  expect_same_summary(
      summarize_host_arrays<float>(host.out_offsets, host.out_targets, host.out_weights),
      summarize_on_gpu<float>(device.view().out), "out-edges, float");
  expect_same_summary(
      summarize_host_arrays<float>(host.in_offsets, host.in_sources, host.in_weights),
      summarize_on_gpu<float>(device.view().in), "in-edges, float");
}

TEST(DeviceGraph, HostViewReadsTheHostArrays) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("host-view", 700, 5000, WeightType::int32, true, 15);
  const GraphView view = host_view(host);
  EXPECT_EQ(view.num_vertices(), 700u);
  ASSERT_TRUE(view.has_in_edges());
  expect_same_summary(
      summarize_host_arrays<int32_t>(host.out_offsets, host.out_targets, host.out_weights),
      summarize_through_host_view<int32_t>(view.out), "host view, out");
  expect_same_summary(
      summarize_host_arrays<int32_t>(host.in_offsets, host.in_sources, host.in_weights),
      summarize_through_host_view<int32_t>(view.in), "host view, in");
}

TEST(DeviceGraph, OptionsLeaveOutInEdgesAndWeights) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("options", 1000, 8000, WeightType::int32, true, 16);
  UploadOptions options;
  options.in_edges = false;
  options.weights = false;
  const DeviceGraph device(host, options);
  EXPECT_FALSE(device.has_in_edges());
  EXPECT_FALSE(device.has_weights());
  const GraphView view = device.view();
  EXPECT_FALSE(view.in.present());
  EXPECT_EQ(view.in.num_edges(), 0u);
  EXPECT_FALSE(view.out.has_weights());
  EXPECT_EQ(view.weight_type, WeightType::none);
  const CsrGraph back = device.download();
  EXPECT_TRUE(vectors_equal(host.out_targets, back.out_targets));
  EXPECT_TRUE(back.out_weights.empty());
  EXPECT_FALSE(back.has_transpose());
  EXPECT_EQ(estimate_upload_bytes(host, options),
            rounded(8 * 1001) + rounded(4 * host.num_edges()));
}

TEST(DeviceGraph, UnweightedGraphWithoutTranspose) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("plain", 2500, 30000, WeightType::none, false, 17, 3);
  const DeviceGraph device(host);
  const GraphView view = device.view();
  EXPECT_FALSE(view.has_in_edges());
  EXPECT_FALSE(view.out.has_weights());
  expect_same_summary(summarize_host_arrays<int32_t>(host.out_offsets, host.out_targets, {}),
                      summarize_on_gpu<int32_t>(view.out), "unweighted out-edges");
  expect_same_graph(host, device.download());
}

TEST(DeviceGraph, EmptyGraph) {
  IRGL_REQUIRE_GPU();
  CsrGraph host;
  host.name = "empty";
  const DeviceGraph device(host);
  EXPECT_EQ(device.num_vertices(), 0u);
  EXPECT_EQ(device.num_edges(), 0u);
  EXPECT_EQ(device.view().num_vertices(), 0u);
  expect_same_graph(host, device.download());
}

TEST(DeviceGraph, EstimateCountsEveryArrayRoundedToAllocationPages) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("estimate", 100000, 900000, WeightType::int32, true, 18);
  const uint64_t n = host.num_vertices(), m = host.num_edges();
  const uint64_t direction = rounded(8 * (n + 1)) + rounded(4 * m) + rounded(4 * m);
  EXPECT_EQ(estimate_upload_bytes(host), 2 * direction);
  const DeviceGraph device(host);
  EXPECT_EQ(device.device_bytes(), 2 * (8 * (n + 1) + 4 * m + 4 * m));
  EXPECT_LE(device.device_bytes(), estimate_upload_bytes(host));
}

TEST(DeviceGraph, RefusesAGraphThatDoesNotFit) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("too-big", 20000, 200000, WeightType::int32, true, 19);
  const uint64_t needed = estimate_upload_bytes(host) + kUploadMarginBytes;
  UploadOptions options;
  options.assume_free_bytes = needed - 1;
  try {
    DeviceGraph refused(host, options);
    FAIL() << "uploaded with one byte too few";
  } catch (const DeviceMemoryError& error) {
    const std::string message = error.what();
    std::cout << "refusal message: " << message << "\n";
    EXPECT_NE(message.find("'too-big'"), std::string::npos) << message;
    EXPECT_NE(message.find("needs " + format_bytes(needed)), std::string::npos) << message;
    EXPECT_NE(message.find(query_device().name), std::string::npos) << message;
    EXPECT_NE(message.find("has " + format_bytes(needed - 1) + " free"), std::string::npos)
        << message;
  }
  options.assume_free_bytes = needed;  // exactly enough
  const DeviceGraph accepted(host, options);
  EXPECT_EQ(accepted.num_edges(), host.num_edges());
}

TEST(DeviceGraph, ReservedBytesCountInTheFitCheck) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("reserve", 1000, 5000, WeightType::none, false, 20);
  UploadOptions options;
  options.reserve_bytes = uint64_t{3} << 30;
  options.assume_free_bytes =
      estimate_upload_bytes(host) + kUploadMarginBytes + (uint64_t{2} << 30);
  try {
    DeviceGraph refused(host, options);
    FAIL() << "the reserve was ignored";
  } catch (const DeviceMemoryError& error) {
    EXPECT_NE(std::string(error.what()).find("3.00 GiB reserved by the caller"), std::string::npos)
        << error.what();
  }
  options.reserve_bytes = uint64_t{2} << 30;
  EXPECT_NO_THROW((DeviceGraph{host, options}));
}

TEST(DeviceGraph, RealFreeMemoryIsCheckedByDefault) {
  IRGL_REQUIRE_GPU();
  const CsrGraph host = random_graph("reserve-all", 1000, 5000, WeightType::none, false, 21);
  UploadOptions options;
  options.reserve_bytes = query_device().total_memory;  // can never fit
  EXPECT_THROW((DeviceGraph{host, options}), DeviceMemoryError);
}

}  // namespace
}  // namespace irgl::gpu
