// Sparse matrices for the schedule-range tests, built from row lengths:
// uniform, skewed (rows of many thousands of nonzeros among short and empty
// ones), power-law, a single row, and empty. Values are small integers and
// the dense inputs multiples of 1/4, so float products sum exactly in any
// order and results compare equal to a CPU reference.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "irgl/gpu/device_buffer.h"
#include "irgl/graph/csr_graph.h"

namespace irgl::testing {

struct HostMatrix {
  std::string name;
  std::vector<uint64_t> offsets{0};  // rows + 1 entries
  std::vector<VertexId> columns;
  std::vector<float> values;
  uint32_t column_count = 1;

  uint32_t rows() const { return static_cast<uint32_t>(offsets.size() - 1); }
  uint64_t nonzeros() const { return columns.size(); }
  uint64_t degree(VertexId row) const { return offsets[row + 1] - offsets[row]; }
};

// Row r has degrees[r] nonzeros in random columns of [0, column_count),
// with values in [-4, 4]. Deterministic for a seed.
inline HostMatrix matrix_of_degrees(const std::string& name, const std::vector<uint64_t>& degrees,
                                    uint32_t column_count, uint64_t seed) {
  HostMatrix m;
  m.name = name;
  m.column_count = column_count;
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<VertexId> column(0, column_count - 1);
  std::uniform_int_distribution<int> value(-4, 4);
  for (uint64_t degree : degrees) {
    for (uint64_t k = 0; k < degree; ++k) {
      m.columns.push_back(column(random));
      m.values.push_back(static_cast<float>(value(random)));
    }
    m.offsets.push_back(m.columns.size());
  }
  return m;
}

// The matrices every range test runs on.
inline std::vector<HostMatrix> test_matrices() {
  std::mt19937_64 random(20);
  std::vector<HostMatrix> matrices;
  std::vector<uint64_t> uniform(2000);
  for (uint64_t& d : uniform) d = random() % 4 == 0 ? 0 : random() % 13;
  matrices.push_back(matrix_of_degrees("uniform", uniform, 1500, 1));

  std::vector<uint64_t> skewed(3000);
  for (uint64_t& d : skewed) d = random() % 3 == 0 ? 0 : random() % 4;
  skewed[17] = 40000;
  skewed[1800] = 9000;
  skewed[2999] = 700;
  matrices.push_back(matrix_of_degrees("skewed", skewed, 3000, 2));

  std::vector<uint64_t> power_law(6000);
  for (size_t r = 0; r < power_law.size(); ++r) power_law[r] = 12000 / (r + 1);
  std::shuffle(power_law.begin(), power_law.end(), random);
  matrices.push_back(matrix_of_degrees("power-law", power_law, 6000, 3));

  matrices.push_back(matrix_of_degrees("single-row", {5000}, 800, 4));
  matrices.push_back(matrix_of_degrees("single-empty-row", {0}, 10, 5));
  matrices.push_back(matrix_of_degrees("all-empty", std::vector<uint64_t>(500, 0), 500, 6));
  return matrices;
}

// A dense row-major matrix of `rows` x `cols`: multiples of 1/4 in [-2, 2].
inline std::vector<float> dense_matrix(uint64_t rows, uint32_t cols, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> quarter(-8, 8);
  std::vector<float> b(rows * cols);
  for (float& v : b) v = quarter(random) / 4.0f;
  return b;
}

// C = A B on the CPU (exact for these values).
inline std::vector<float> reference_product(const HostMatrix& a, const std::vector<float>& b,
                                            uint32_t cols) {
  std::vector<float> c(uint64_t(a.rows()) * cols);
  for (VertexId row = 0; row < a.rows(); ++row)
    for (uint32_t col = 0; col < cols; ++col) {
      double sum = 0;
      for (uint64_t nz = a.offsets[row]; nz < a.offsets[row + 1]; ++nz)
        sum += double(a.values[nz]) * b[uint64_t(a.columns[nz]) * cols + col];
      c[uint64_t(row) * cols + col] = static_cast<float>(sum);
    }
  return c;
}

// Every row r with r % 3 != 1, shuffled: a tile list with gaps, out of order.
inline std::vector<VertexId> shuffled_row_subset(uint32_t rows, uint64_t seed) {
  std::vector<VertexId> ids;
  for (VertexId r = 0; r < rows; ++r)
    if (r % 3 != 1) ids.push_back(r);
  std::shuffle(ids.begin(), ids.end(), std::mt19937_64(seed));
  return ids;
}

// The matrix on the device.
struct DeviceMatrix {
  explicit DeviceMatrix(const HostMatrix& m)
      : offsets(m.offsets), columns(m.columns), values(m.values), rows(m.rows()) {}
  gpu::DeviceBuffer<uint64_t> offsets;
  gpu::DeviceBuffer<VertexId> columns;
  gpu::DeviceBuffer<float> values;
  uint32_t rows;
};

}  // namespace irgl::testing
