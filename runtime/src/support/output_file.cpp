#include "irgl/support/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>

#include "irgl/support/error.h"

namespace irgl {
namespace {

// Temporaries that a fatal signal must remove. A signal handler may only
// call async-signal-safe functions, so the paths sit in fixed slots it can
// walk without locks: 0 free, 1 being filled, 2 holding a path.
constexpr int kCleanupSlots = 32;
struct CleanupSlot {
  std::atomic<int> state{0};
  char path[4096];
};
CleanupSlot cleanup_slots[kCleanupSlots];

void remove_temporaries_and_reraise(int signal_number) {
  for (CleanupSlot& slot : cleanup_slots)
    if (slot.state.load() == 2) ::unlink(slot.path);
  // SA_RESETHAND restored the default action; the signal is blocked until
  // this handler returns, then ends the process as it would have.
  ::raise(signal_number);
}

void install_cleanup_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
      struct sigaction current;
      if (::sigaction(signal_number, nullptr, &current) != 0) continue;
      // A handler of the program's own, or an ignored signal (nohup), stays.
      if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO)) continue;
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_reraise;
      action.sa_flags = SA_RESETHAND;
      sigemptyset(&action.sa_mask);
      ::sigaction(signal_number, &action, nullptr);
    }
  });
}

int register_temporary(const std::string& path) {
  if (path.size() >= sizeof cleanup_slots[0].path) return -1;
  install_cleanup_handlers();
  for (int i = 0; i < kCleanupSlots; ++i) {
    int expected = 0;
    if (!cleanup_slots[i].state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(cleanup_slots[i].path, path.c_str(), path.size() + 1);
    cleanup_slots[i].state.store(2);
    return i;
  }
  return -1;  // more temporaries at once than slots: only this one is unguarded
}

void unregister_temporary(int slot) {
  if (slot >= 0) cleanup_slots[slot].state.store(0);
}

// The descriptor "-" writes to (reserve_standard_output moves it).
std::atomic<int> standard_output_fd{STDOUT_FILENO};

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string error_text(int error) { return std::strerror(error); }

// `path` with symbolic links followed to the file they name (which may not
// exist yet: a dangling link names the file to create).
std::string resolve_links(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info;
    if (::lstat(current.c_str(), &info) != 0) {
      if (errno == ENOENT) return current;
      throw InputError::in(path, "cannot examine the output path: " + error_text(errno));
    }
    if (!S_ISLNK(info.st_mode)) return current;
    char target[4096];
    const ssize_t length = ::readlink(current.c_str(), target, sizeof target - 1);
    if (length < 0)
      throw InputError::in(path, "cannot read the symbolic link: " + error_text(errno));
    target[length] = '\0';
    current = target[0] == '/' ? std::string(target) : directory_of(current) + "/" + target;
  }
  throw InputError::in(path, "too many levels of symbolic links");
}

OutputFile::Kind check_destination(const std::string& path, const std::string& destination,
                                   bool overwrite) {
  struct stat info;
  if (::stat(destination.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) throw InputError::in(path, "is a directory");
    if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) return OutputFile::Kind::stream;
    if (!S_ISREG(info.st_mode))
      throw InputError::in(path, "is not a regular file, character device or FIFO; not "
                                 "writing to it");
    if (!overwrite)
      throw InputError::in(path, "file exists; not overwriting it (use --force to replace it)");
    return OutputFile::Kind::regular;
  }
  if (errno != ENOENT)
    throw InputError::in(path, "cannot examine the output path: " + error_text(errno));
  const std::string directory = directory_of(destination);
  if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw InputError::in(path, "directory '" + directory + "' does not exist");
  if (::access(directory.c_str(), W_OK | X_OK) != 0)
    throw InputError::in(path, "cannot create files in '" + directory + "': " + error_text(errno));
  return OutputFile::Kind::regular;
}

}  // namespace

OutputFile::Kind OutputFile::check(const std::string& path, bool overwrite) {
  std::string destination;
  return inspect(path, overwrite, destination);
}

// What `path` is, and in `destination` the file it names once its links are
// followed ("" for standard output).
OutputFile::Kind OutputFile::inspect(const std::string& path, bool overwrite,
                                     std::string& destination) {
  if (path == "-") return Kind::standard_output;
  if (path.empty()) throw InputError::in("output", "the output path is empty");
  destination = resolve_links(path);
  return check_destination(path, destination, overwrite);
}

void OutputFile::reserve_standard_output() {
  std::cout.flush();
  std::fflush(stdout);
  const int saved = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (saved < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    throw InputError::in("-", "cannot set standard output aside: " + error_text(errno));
  standard_output_fd.store(saved);
}

OutputFile::OutputFile(std::string path, bool overwrite)
    : path_(std::move(path)), overwrite_(overwrite) {
  kind_ = inspect(path_, overwrite_, destination_);
  switch (kind_) {
    case Kind::standard_output: fd_ = standard_output_fd.load(); break;
    case Kind::stream:
      fd_ = ::open(destination_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) fail("cannot open", errno);
      break;
    case Kind::regular: open_temporary(); break;
  }
}

void OutputFile::open_temporary() {
  static std::atomic<unsigned> counter{0};
  const std::string directory = directory_of(destination_);
  const auto slash = destination_.rfind('/');
  const std::string base =
      (slash == std::string::npos ? destination_ : destination_.substr(slash + 1)).substr(0, 200);
  for (;;) {
    temporary_ = directory + "/." + base + ".tmp." + std::to_string(::getpid()) + "." +
                 std::to_string(counter++);
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) break;
    if (errno != EEXIST)
      throw InputError::in(path_, "cannot create a temporary file in '" + directory +
                                      "': " + error_text(errno));
  }
  cleanup_slot_ = register_temporary(temporary_);
}

OutputFile::~OutputFile() {
  if (kind_ == Kind::standard_output) return;
  if (fd_ >= 0) ::close(fd_);
  if (kind_ == Kind::regular && !committed_) {
    unregister_temporary(cleanup_slot_);
    ::unlink(temporary_.c_str());
  }
}

void OutputFile::write(const char* data, size_t size) {
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

void OutputFile::finish(bool durable) {
  if (finished_ || kind_ == Kind::standard_output) return;
  if (durable && kind_ == Kind::regular && ::fsync(fd_) != 0) fail("cannot write", errno);
  const int result = ::close(fd_);
  fd_ = -1;
  finished_ = true;
  if (result != 0) fail("cannot write", errno);
}

void OutputFile::commit(bool durable) {
  finish(durable);
  if (kind_ == Kind::regular) publish();
  committed_ = true;
}

// Renames the temporary onto the destination; without `overwrite_`, in one
// step that fails if the destination appeared meanwhile (a check, then a
// rename, would let two writers started together both replace it).
void OutputFile::publish() {
  int result = 0;
  if (overwrite_) {
    result = ::rename(temporary_.c_str(), destination_.c_str());
  } else {
    result = ::renameat2(AT_FDCWD, temporary_.c_str(), AT_FDCWD, destination_.c_str(),
                         RENAME_NOREPLACE);
    if (result != 0 && (errno == EINVAL || errno == ENOSYS)) {
      // A file system without RENAME_NOREPLACE: link() never replaces either.
      result = ::link(temporary_.c_str(), destination_.c_str());
      if (result == 0) ::unlink(temporary_.c_str());
    }
  }
  if (result != 0) {
    const int error = errno;
    unregister_temporary(cleanup_slot_);
    ::unlink(temporary_.c_str());
    committed_ = true;  // nothing left to remove
    if (error == EEXIST)
      throw InputError::in(path_, "file exists (it appeared while this ran); not overwriting "
                                  "it (use --force to replace it)");
    fail("cannot move the temporary file into place", error);
  }
  unregister_temporary(cleanup_slot_);
}

void OutputFile::fail(const std::string& what, int error) const {
  throw InputError::in(path_, what + ": " + error_text(error));
}

}  // namespace irgl
