// Writing an output file the user named, so that nothing is destroyed that
// the user did not ask to replace and readers never see a partial file.
//
//   OutputFile::check(path, force);    // before the work: fails early
//   ...compute...
//   OutputFile file(path, /*overwrite=*/force);
//   file.write(header);
//   file.commit();
//
// Where the bytes go depends on what `path` is:
//   "-"                         standard output (see reserve_standard_output);
//   a character device, FIFO    opened and written directly (/dev/null,
//   or socket                   /dev/stdout, a named pipe): nothing is replaced;
//   a regular file, or nothing  a hidden temporary next to it, renamed into
//                               place by commit(); an existing file only with
//                               `overwrite`, and "not overwriting" holds even
//                               against another writer racing for the path;
//   a symbolic link             followed: its target is written as above, the
//                               link stays;
//   anything else (a directory) refused.
// A file destroyed before commit() removes its temporary and leaves the path
// untouched; so does SIGINT, SIGTERM, SIGHUP or SIGQUIT arriving mid-write.
// Every failure is an InputError naming the path and the reason.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace irgl {

class OutputFile {
 public:
  enum class Kind { standard_output, stream, regular };

  // Checks that `path` can be written as above, creating nothing: a missing
  // directory, an existing file without `overwrite`, a directory or a
  // symbolic-link loop throw. Returns what the path is.
  static Kind check(const std::string& path, bool overwrite);

  // Sends everything this process prints on standard output to standard
  // error from now on, keeping the original standard output for "-" files:
  // programs that write results to "-" call it so that their progress lines
  // cannot mix with the results.
  static void reserve_standard_output();

  OutputFile(std::string path, bool overwrite);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // The descriptor written to; positioned writes (pwrite, ftruncate) only
  // where seekable().
  int fd() const { return fd_; }
  bool seekable() const { return kind_ == Kind::regular; }
  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }

  void write(const char* data, size_t size);
  void write(std::string_view text) { write(text.data(), text.size()); }

  // Moves the data into place; with `durable`, first flushes it to disk.
  void commit(bool durable = false);
  // The first half of commit(): closes the file (with `durable`, after
  // flushing it to disk), reporting a late write error, but moves nothing.
  // Files published together finish all before any commits, so that such
  // an error leaves none of them in place.
  void finish(bool durable = false);

  // Throws the InputError for a failed operation (`error`: an errno value).
  [[noreturn]] void fail(const std::string& what, int error) const;

 private:
  static Kind inspect(const std::string& path, bool overwrite, std::string& destination);
  void open_temporary();
  void publish();

  std::string path_;         // as the user wrote it, for messages
  std::string destination_;  // the symbolic links resolved
  std::string temporary_;
  Kind kind_ = Kind::regular;
  bool overwrite_ = false;
  int fd_ = -1;
  int cleanup_slot_ = -1;
  bool committed_ = false;
  bool finished_ = false;
};

}  // namespace irgl
