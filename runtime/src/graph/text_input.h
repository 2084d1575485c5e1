// Reading input files, shared by the text parsers (through read_text_input()
// in formats.h) and the Galois binary reader, which reads uncompressed files
// straight into its arrays. Defined in input_file.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace irgl {

enum class Compression : uint8_t { none, gzip, xz };

// How many leading bytes detect_compression() looks at.
inline constexpr size_t kMagicBytes = 6;

// The compression announced by the first bytes of a file (gzip: 1f 8b; xz:
// fd 37 7a 58 5a 00), whatever the file is called.
Compression detect_compression(std::string_view first_bytes);

// A file open for sequential reading with few large reads. Works on regular
// files and on pipes (whose size is unknown). Throws InputError naming the
// file: "cannot open: <strerror>", "cannot read: <strerror>".
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  // Regular files have a known size; pipes and devices do not.
  bool is_regular() const { return regular_; }
  uint64_t size() const { return size_; }

  // Reads the next `bytes` bytes into `buffer`, fewer only at the end of the
  // file; returns the number read. With `report`, advances the current
  // progress phase (load_progress.h) by the bytes read, as it goes.
  uint64_t read(void* buffer, uint64_t bytes, bool report = false);

 private:
  std::string path_;
  int fd_ = -1;
  bool regular_ = false;
  uint64_t size_ = 0;
};

}  // namespace irgl
