// Internal interface between load_graph() and the per-format readers.
#pragma once

#include <string>

#include "irgl/graph/csr_graph.h"
#include "irgl/graph/edge_list.h"

namespace irgl {

// A text input file, decompressed into memory. gzip and xz are recognised by
// their magic bytes whatever the file is called.
struct TextInput {
  std::string name;  // the path, as given (used in error messages)
  std::string data;
  bool show_progress = true;  // parsers report progress on long inputs
};

// Reads (and if needed decompresses) a whole file; throws InputError naming
// the file when it is missing, unreadable or a broken compressed stream.
TextInput read_text_input(const std::string& path, bool show_progress);

// The first bytes of a file after decompression (for format detection).
std::string peek_decompressed(const std::string& path, size_t bytes);

// Text parsers. Each returns the edges as they appear in the file (0-based
// ids; MatrixMarket symmetric storage already mirrored) and throws InputError
// at "file:line" on any malformed content.
EdgeList parse_matrix_market(const TextInput& input);

struct EdgeListOptions {
  // The first line that is not a comment names the columns and is skipped
  // (--header); without this, only files named .csv may have one.
  bool header = false;
  // The caller renumbers the ids: no warning about a sparse id space.
  bool renumbering = false;
};
// Also warns on stderr (unless `renumbering`) when the ids leave most of the
// vertex count unused (see kSparseIdsWarning in edge_list_format.cpp).
EdgeList parse_edge_list(const TextInput& input, const EdgeListOptions& options = {});
EdgeList parse_dimacs(const TextInput& input);

// Galois binary .gr (version 1; version 2 is reported as unsupported);
// errors name "file: byte N".
EdgeList read_galois_binary(const std::string& path, bool show_progress);

}  // namespace irgl
