// Writing a file so that readers never see a partial one: the data goes to a
// hidden temporary file next to the destination, and commit() renames it
// into place. A file destroyed before commit() (an exception, an early
// return) removes its temporary and leaves the destination untouched.
//
//   AtomicFile file(path, /*overwrite=*/force);   // InputError if it exists
//   file.write(header);
//   file.commit();
//
// Every failure is an InputError naming the destination and the reason.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace irgl {

class AtomicFile {
 public:
  // Creates the temporary; refuses when `path` exists and !overwrite.
  AtomicFile(std::string path, bool overwrite);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // The temporary's descriptor, for positioned or parallel writes (pwrite).
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

  void write(const char* data, size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }

  // Moves the data into place; with `durable`, first flushes it to disk.
  void commit(bool durable = false);

  // Throws the InputError for a failed operation (`error`: an errno value).
  [[noreturn]] void fail(const std::string& what, int error) const;

 private:
  std::string path_;
  std::string temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace irgl
