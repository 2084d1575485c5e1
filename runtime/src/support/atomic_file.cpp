#include "irgl/support/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "irgl/support/error.h"

namespace irgl {

AtomicFile::AtomicFile(std::string path, bool overwrite) : path_(std::move(path)) {
  struct stat info;
  if (!overwrite && ::stat(path_.c_str(), &info) == 0)
    throw InputError::in(path_, "file exists; not overwriting it (use --force to replace it)");
  static std::atomic<unsigned> counter{0};
  const auto slash = path_.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path_.substr(0, slash + 1);
  const std::string base =
      (slash == std::string::npos ? path_ : path_.substr(slash + 1)).substr(0, 200);
  for (;;) {
    temporary_ = dir + (dir.back() == '/' ? "" : "/") + "." + base + ".tmp." +
                 std::to_string(::getpid()) + "." + std::to_string(counter++);
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) return;
    if (errno != EEXIST)
      throw InputError::in(path_, "cannot create a temporary file in '" + dir +
                                      "': " + std::strerror(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temporary_.c_str());
}

void AtomicFile::write(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", errno);
    }
    data += written;
    size -= static_cast<size_t>(written);
  }
}

void AtomicFile::commit(bool durable) {
  if (durable && ::fsync(fd_) != 0) fail("cannot write", errno);
  const int result = ::close(fd_);
  fd_ = -1;
  if (result != 0) fail("cannot write", errno);
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) fail("cannot rename the temporary file", errno);
  committed_ = true;
}

void AtomicFile::fail(const std::string& what, int error) const {
  throw InputError::in(path_, what + ": " + std::strerror(error));
}

}  // namespace irgl
