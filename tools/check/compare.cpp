#include "compare.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

namespace irgl::check {
namespace {

// Counts offending vertices and keeps the description of the first few;
// descriptions are only built for those shown.
class MismatchRecorder {
 public:
  explicit MismatchRecorder(uint64_t max_shown) : max_shown_(max_shown) {}

  template <class Describe>
  void add(uint64_t vertex, Describe&& describe) {
    ++verdict_.mismatches;
    if (verdict_.shown.size() < max_shown_)
      verdict_.shown.push_back("vertex " + std::to_string(vertex) + ": " + describe());
  }

  uint64_t count() const { return verdict_.mismatches; }

  Verdict finish(std::string summary) {
    verdict_.passed = verdict_.mismatches == 0;
    verdict_.summary = std::move(summary);
    return std::move(verdict_);
  }

 private:
  uint64_t max_shown_;
  Verdict verdict_;
};

void require_same_size(size_t expected, size_t got) {
  if (expected != got)
    throw std::invalid_argument("comparing " + std::to_string(got) + " values with " +
                                std::to_string(expected) + " reference values");
}

std::string format_distance(uint64_t distance) {
  return distance == kUnreachable ? std::string(kInfinityWord) : std::to_string(distance);
}

std::string expected_got(const std::string& expected, const std::string& got) {
  return "expected " + expected + ", got " + got;
}

std::string value_count_summary(uint64_t mismatches, uint64_t total,
                                const std::string& failure) {
  if (mismatches == 0) return "all " + std::to_string(total) + " values match";
  return std::to_string(mismatches) + " of " + std::to_string(total) + " values " + failure;
}

// The vertex with the largest |got - expected| (NaN counts as largest).
struct LargestError {
  double error = 0;
  uint64_t vertex = 0;
  void consider(uint64_t v, double e) {
    if (!(e <= error) && !std::isnan(error)) {
      error = e;
      vertex = v;
    }
  }
  std::string describe() const {
    return "largest error " + format_error(error) + " at vertex " + std::to_string(vertex);
  }
};

// How compare_reals judges and describes an entry.
struct RealRule {
  bool show_allowed = false;  // the line of an off entry says what was allowed
  bool nonnegative = false;   // a negative value is off, however close
};

struct RealComparison {
  MismatchRecorder mismatches;
  LargestError largest;
  double l1 = 0;  // sum of |got_i - expected_i|
};

// Compares reals entry by entry: entry i is off when |got_i - expected_i| >
// allowed(i) (so NaN always is) or the rule rejects its sign. Each off
// entry's line: "expected X, got Y (off by E)".
template <class Allowed>
RealComparison compare_reals(const std::vector<double>& expected, const std::vector<double>& got,
                             uint64_t max_shown, Allowed&& allowed, RealRule rule) {
  require_same_size(expected.size(), got.size());
  RealComparison result{MismatchRecorder(max_shown), {}, 0};
  for (uint64_t i = 0; i < got.size(); ++i) {
    // Equal values (infinities too: an unreached distance) are off by 0.
    const double error = got[i] == expected[i] ? 0.0 : std::fabs(got[i] - expected[i]);
    const double allowed_here = allowed(i);
    result.l1 += error;
    result.largest.consider(i, error);
    const bool negative = rule.nonnegative && got[i] < 0;
    if (error <= allowed_here && !negative) continue;
    result.mismatches.add(i, [&] {
      return expected_got(format_real(expected[i]), format_real(got[i])) + " (" +
             (negative ? "negative, " : "") + "off by " + format_error(error) +
             (rule.show_allowed ? ", allowed " + format_error(allowed_here) : "") + ")";
    });
  }
  return result;
}

// The verdict of a comparison that every entry must pass: "all N values
// match" or "K of N values FAILURE", then the largest error.
Verdict every_entry_verdict(RealComparison& compared, uint64_t total, const std::string& failure) {
  return compared.mismatches.finish(
      value_count_summary(compared.mismatches.count(), total, failure) + " (" +
      compared.largest.describe() + ")");
}

}  // namespace

std::string format_real(double value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

std::string format_error(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

Verdict compare_distances(const std::vector<uint64_t>& expected,
                          const std::vector<uint64_t>& got, VertexId source,
                          uint64_t max_shown) {
  require_same_size(expected.size(), got.size());
  MismatchRecorder mismatches(max_shown);
  for (uint64_t v = 0; v < expected.size(); ++v) {
    if (expected[v] == got[v]) continue;
    mismatches.add(v, [&] {
      return std::string(v == source ? "(the source) " : "") +
             expected_got(format_distance(expected[v]), format_distance(got[v]));
    });
  }
  return mismatches.finish(value_count_summary(mismatches.count(), got.size(), "differ"));
}

Verdict compare_partitions(const Components& expected, const std::vector<int64_t>& got,
                           uint64_t max_shown) {
  require_same_size(expected.component.size(), got.size());
  // first_vertex[c]: the lowest vertex of reference component c; its label is
  // the one the whole component must carry. label_owner[l]: the lowest vertex
  // carrying label l; all vertices with l must be in its component.
  std::vector<VertexId> first_vertex(expected.count, kNoVertex);
  std::unordered_map<int64_t, VertexId> label_owner;
  label_owner.reserve(expected.count);
  MismatchRecorder mismatches(max_shown);
  for (VertexId v = 0; v < got.size(); ++v) {
    const VertexId component = expected.component[v];
    if (first_vertex[component] == kNoVertex) first_vertex[component] = v;
    const VertexId first = first_vertex[component];
    const VertexId owner = label_owner.try_emplace(got[v], v).first->second;
    if (got[v] != got[first]) {
      mismatches.add(v, [&] {
        return "component split: connected to vertex " + std::to_string(first) +
               " but labelled " + std::to_string(got[v]) + ", not " + std::to_string(got[first]);
      });
    } else if (expected.component[owner] != component) {
      mismatches.add(v, [&] {
        return "components merged: labelled " + std::to_string(got[v]) +
               " like vertex " + std::to_string(owner) + ", which it is not connected to";
      });
    }
  }
  const std::string sizes = std::to_string(expected.count) + " components, " +
                            std::to_string(label_owner.size()) + " distinct labels";
  if (mismatches.count() == 0)
    return mismatches.finish("all " + std::to_string(got.size()) +
                             " vertices labelled consistently (" + sizes + ")");
  return mismatches.finish(std::to_string(mismatches.count()) + " of " +
                           std::to_string(got.size()) + " vertices labelled inconsistently (" +
                           sizes + ")");
}

Verdict compare_membership(const std::vector<uint32_t>& core_number, uint64_t k,
                           const std::vector<uint64_t>& got, uint64_t max_shown) {
  require_same_size(core_number.size(), got.size());
  MismatchRecorder mismatches(max_shown);
  uint64_t members = 0;
  for (uint64_t v = 0; v < got.size(); ++v) {
    const uint64_t member = core_number[v] >= k ? 1 : 0;
    members += member;
    if (got[v] == member) continue;
    mismatches.add(v, [&] {
      return expected_got(std::to_string(member), std::to_string(got[v])) + " (core number " +
             std::to_string(core_number[v]) + ")";
    });
  }
  return mismatches.finish(value_count_summary(mismatches.count(), got.size(), "differ") +
                           "; the " + std::to_string(k) + "-core has " +
                           std::to_string(members) + " vertices");
}

Verdict check_independent_set(const UndirectedGraph& graph, const std::vector<uint64_t>& got,
                              uint64_t max_shown) {
  const CsrGraph& csr = graph.csr();
  require_same_size(csr.num_vertices(), got.size());
  MismatchRecorder mismatches(max_shown);
  uint64_t members = 0;
  for (VertexId v = 0; v < got.size(); ++v) {
    if (got[v] > 1) {
      mismatches.add(v, [&] { return "value " + std::to_string(got[v]) + " is not 0 or 1"; });
      continue;
    }
    members += got[v];
    VertexId member_neighbour = v;
    for (uint64_t e = csr.out_offsets[v]; e < csr.out_offsets[v + 1]; ++e)
      if (csr.out_targets[e] != v && got[csr.out_targets[e]] == 1) {
        member_neighbour = csr.out_targets[e];
        break;
      }
    const bool has_member_neighbour = member_neighbour != v;
    if (got[v] == 1 && has_member_neighbour)
      mismatches.add(v, [&] {
        return "in the set with its neighbour " + std::to_string(member_neighbour);
      });
    else if (got[v] == 0 && !has_member_neighbour)
      mismatches.add(v, [] { return "out of the set, and so is every neighbour (not maximal)"; });
  }
  return mismatches.finish(
      mismatches.count() == 0
          ? "a maximal independent set of " + std::to_string(members) + " of " +
                std::to_string(got.size()) + " vertices"
          : std::to_string(mismatches.count()) + " of " + std::to_string(got.size()) +
                " vertices break independence or maximality");
}

Verdict check_coloring(const UndirectedGraph& graph, const std::vector<int64_t>& got,
                       uint64_t max_shown) {
  const CsrGraph& csr = graph.csr();
  require_same_size(csr.num_vertices(), got.size());
  MismatchRecorder mismatches(max_shown);
  std::vector<int64_t> colours;
  for (VertexId v = 0; v < got.size(); ++v) {
    if (got[v] < 0) {
      mismatches.add(v, [&] { return "colour " + std::to_string(got[v]) + " is negative"; });
      continue;
    }
    colours.push_back(got[v]);
    for (uint64_t e = csr.out_offsets[v]; e < csr.out_offsets[v + 1]; ++e) {
      const VertexId u = csr.out_targets[e];
      if (u == v || got[u] != got[v]) continue;
      mismatches.add(v, [&] {
        return "colour " + std::to_string(got[v]) + ", as its neighbour " + std::to_string(u);
      });
      break;
    }
  }
  std::sort(colours.begin(), colours.end());
  const uint64_t distinct = std::unique(colours.begin(), colours.end()) - colours.begin();
  return mismatches.finish(
      mismatches.count() == 0
          ? "a proper colouring of " + std::to_string(got.size()) + " vertices with " +
                std::to_string(distinct) + " colours"
          : std::to_string(mismatches.count()) + " of " + std::to_string(got.size()) +
                " vertices share a colour with a neighbour or have none");
}

Verdict compare_count(uint64_t expected, uint64_t got) {
  Verdict verdict;
  verdict.passed = expected == got;
  verdict.mismatches = verdict.passed ? 0 : 1;
  verdict.summary = verdict.passed
                        ? "count " + std::to_string(got) + " matches"
                        : expected_got(std::to_string(expected), std::to_string(got));
  return verdict;
}

Verdict compare_modularity(double expected, double got, double tolerance) {
  Verdict verdict;
  verdict.passed = got >= expected - tolerance * std::abs(expected);  // NaN fails
  verdict.mismatches = verdict.passed ? 0 : 1;
  verdict.summary = "modularity " + format_real(got) + (verdict.passed ? ", " : " is below ") +
                    "the reference's " + format_real(expected) +
                    (verdict.passed ? " within " : " by more than ") + format_error(tolerance) +
                    " of it";
  return verdict;
}

Verdict compare_pagerank(const std::vector<double>& expected, const std::vector<double>& got,
                         double tolerance, uint64_t max_shown) {
  RealComparison compared =
      compare_reals(expected, got, max_shown, [&](uint64_t) { return tolerance; }, RealRule{});
  MismatchRecorder& mismatches = compared.mismatches;
  const bool l1_ok = compared.l1 <= tolerance;
  const std::string bound = format_error(tolerance);
  std::string summary =
      "L1 error " + format_error(compared.l1) + (l1_ok ? " <= " : " > ") + bound;
  if (mismatches.count() > 0)
    summary += "; " + std::to_string(mismatches.count()) + " of " +
               std::to_string(got.size()) + " values are off by more than " + bound;
  summary += " (" + compared.largest.describe() + ")";
  Verdict verdict = mismatches.finish(summary);
  verdict.passed = l1_ok;
  return verdict;
}

Verdict compare_spmv(const SpmvResult& expected, const std::vector<double>& got,
                     double relative_tolerance, uint64_t max_shown) {
  RealRule rule;
  rule.show_allowed = true;
  RealComparison compared = compare_reals(
      expected.y, got, max_shown,
      [&](uint64_t i) {
        return relative_tolerance * expected.magnitude[i] + kSpmvAbsoluteTolerance;
      },
      rule);
  return every_entry_verdict(compared, got.size(), "are off by more than allowed");
}

Verdict compare_relative(const std::vector<double>& expected, const std::vector<double>& got,
                         double tolerance, uint64_t max_shown) {
  RealRule rule;
  rule.nonnegative = true;
  RealComparison compared = compare_reals(
      expected, got, max_shown,
      [&](uint64_t v) {  // an infinite value (unreached) must be matched exactly
        return std::isfinite(expected[v]) ? tolerance * std::max(1.0, std::fabs(expected[v])) : 0;
      },
      rule);
  return every_entry_verdict(
      compared, got.size(),
      "are off by more than " + format_error(tolerance) + " * max(1, |expected|)");
}

}  // namespace irgl::check
