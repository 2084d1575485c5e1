#include "result_summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>

#include "irgl/results/result_format.h"

namespace irgl::lang {
namespace {

std::string number_text(double value) {
  std::ostringstream text;
  text.precision(9);
  text << value;
  return text.str();
}

// bfs, sssp: how many vertices were reached and how far.
template <class T>
void summarize_distances(const std::vector<T>& values, uint64_t vertices, std::string& line,
                         nlohmann::ordered_json& json) {
  uint64_t reached = 0;
  T farthest = 0;
  for (T value : values)
    if (value != std::numeric_limits<T>::max()) {
      ++reached;
      farthest = std::max(farthest, value);
    }
  line = std::to_string(reached) + " of " + std::to_string(vertices) +
         " vertices reached, largest distance " + std::to_string(farthest);
  json["reached"] = reached;
  json["largest_distance"] = farthest;
}

// cc: how many components and the largest (coloring: colours, the
// `group` of its result format).
template <class T>
void summarize_labels(std::vector<T> labels, std::string_view group, std::string& line,
                      nlohmann::ordered_json& json) {
  std::sort(labels.begin(), labels.end());
  uint64_t components = 0, largest = 0;
  for (size_t i = 0; i < labels.size();) {
    size_t j = i;
    while (j < labels.size() && labels[j] == labels[i]) ++j;
    ++components;
    largest = std::max<uint64_t>(largest, j - i);
    i = j;
  }
  const std::string noun(group);
  const std::string nouns =
      noun.back() == 'y' ? noun.substr(0, noun.size() - 1) + "ies" : noun + "s";
  line = std::to_string(components) + " " + (components == 1 ? noun : nouns) +
         ", the largest of " + std::to_string(largest) + " vertices";
  json[nouns] = components;
  json["largest_" + noun] = largest;
}

// pr, spmv and anything real: the sum and the largest value.
template <class T>
void summarize_reals(const std::vector<T>& values, std::string& line, nlohmann::ordered_json& json) {
  double sum = 0;
  size_t at = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    sum += values[i];
    if (values[i] > values[at]) at = i;
  }
  const double largest = values.empty() ? 0.0 : double(values[at]);
  line = "sum " + number_text(sum) + ", largest " + number_text(largest) + " at vertex " +
         std::to_string(at);
  json["sum"] = sum;
  json["largest"] = largest;
  json["largest_at"] = at;
}

// kcore: how many vertices are members.
template <class T>
void summarize_members(const std::vector<T>& values, std::string& line,
                       nlohmann::ordered_json& json) {
  const auto members = std::count_if(values.begin(), values.end(), [](T v) { return v != 0; });
  line = std::to_string(members) + " of " + std::to_string(values.size()) + " vertices are members";
  json["members"] = members;
}

// Integer data of unknown meaning: how many are non-zero, and the sum.
template <class T>
void summarize_counts(const std::vector<T>& values, std::string& line,
                      nlohmann::ordered_json& json) {
  uint64_t nonzero = 0;
  long double sum = 0;
  for (T value : values) {
    nonzero += value != 0;
    sum += value;
  }
  line = std::to_string(nonzero) + " of " + std::to_string(values.size()) +
         " vertices non-zero, sum " + number_text(static_cast<double>(sum));
  json["nonzero"] = nonzero;
  json["sum"] = static_cast<double>(sum);
}

}  // namespace

template <class T>
void ResultSummary::values(const std::string& name, const std::vector<T>& values) {
  const ResultFormat* format = find_result_format(algorithm_);
  const ValueSyntax syntax = format ? format->syntax
                             : std::is_floating_point_v<T> ? ValueSyntax::real
                                                           : ValueSyntax::count;
  nlohmann::ordered_json entry = {{"name", name}};
  std::string line;
  if constexpr (std::is_floating_point_v<T>) {
    summarize_reals(values, line, entry);
  } else {
    switch (syntax) {
      case ValueSyntax::distance: summarize_distances(values, vertices_, line, entry); break;
      case ValueSyntax::label:
        summarize_labels(values, format ? format->label_group : "component", line, entry);
        break;
      case ValueSyntax::membership: summarize_members(values, line, entry); break;
      case ValueSyntax::count:
      case ValueSyntax::real: summarize_counts(values, line, entry); break;
    }
  }
  entry["summary"] = line;
  lines_.push_back("result " + name + ": " + line);
  json_.push_back(std::move(entry));
}

void ResultSummary::scalar(const std::string& name, uint64_t value) {
  lines_.push_back("result " + name + ": " + std::to_string(value));
  json_.push_back({{"name", name}, {"value", value}, {"summary", std::to_string(value)}});
}

void ResultSummary::real_scalar(const std::string& name, double value) {
  char text[32];
  const char* end = std::to_chars(text, text + sizeof text, value).ptr;  // reads back exactly
  const std::string shown(static_cast<const char*>(text), end);
  lines_.push_back("result " + name + ": " + shown);
  json_.push_back({{"name", name}, {"value", value}, {"summary", shown}});
}

void ResultSummary::signed_scalar(const std::string& name, int64_t value) {
  lines_.push_back("result " + name + ": " + std::to_string(value));
  json_.push_back({{"name", name}, {"value", value}, {"summary", std::to_string(value)}});
}

}  // namespace irgl::lang
