// "a, b or c": the names of a vocabulary table's entries, for messages
// that list what an option or a query accepts. Host-only.
#pragma once

#include <iterator>
#include <string>

namespace irgl {

// Entries of `table` have a `name` member (const char*).
template <class Table>
std::string name_list(const Table& table) {
  std::string names;
  const size_t count = std::size(table);
  size_t i = 0;
  for (const auto& entry : table) {
    names += std::string(i == 0 ? "" : i + 1 == count ? " or " : ", ") + entry.name;
    ++i;
  }
  return names;
}

}  // namespace irgl
