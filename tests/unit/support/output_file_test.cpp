// OutputFile: nothing is replaced that the user did not ask to replace,
// devices and FIFOs are written in place, links are followed, and no
// temporary outlives a failed write or a fatal signal.
#include "irgl/support/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iterator>
#include <thread>

#include "input_error.h"
#include "scratch_dir.h"

namespace irgl {
namespace {

using testing::input_error_of;
using testing::ScratchDir;

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const std::string& path, const std::string& text, bool overwrite) {
  OutputFile file(path, overwrite);
  file.write(text);
  file.commit();
}

TEST(OutputFile, WritesANewFileAndRefusesToReplaceIt) {
  ScratchDir dir;
  write_text(dir.file("out"), "one", false);
  EXPECT_EQ(input_error_of([&] { write_text(dir.file("out"), "two", false); }),
            dir.file("out") + ": error: file exists; not overwriting it (use --force to replace it)");
  EXPECT_EQ(contents(dir.file("out")), "one");
  write_text(dir.file("out"), "three", true);
  EXPECT_EQ(contents(dir.file("out")), "three");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out"});
}

TEST(OutputFile, AFileThatAppearsDuringTheWriteIsNotReplaced) {
  ScratchDir dir;
  const std::string path = dir.file("out");
  OutputFile file(path, false);
  file.write("late");
  write_text(path, "first", false);  // another writer wins the race
  EXPECT_EQ(input_error_of([&] { file.commit(); }),
            path + ": error: file exists (it appeared while this ran); not overwriting it "
                   "(use --force to replace it)");
  EXPECT_EQ(contents(path), "first");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out"});
}

TEST(OutputFile, OfWritersRacingForOnePathExactlyOneWins) {
  for (int trial = 0; trial < 20; ++trial) {
    ScratchDir dir;
    std::atomic<int> wins{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w)
      writers.emplace_back([&, w] {
        if (input_error_of([&] { write_text(dir.file("out"), std::to_string(w), false); })
                .empty())
          ++wins;
      });
    for (std::thread& writer : writers) writer.join();
    EXPECT_EQ(wins.load(), 1);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"out"});
  }
}

TEST(OutputFile, CharacterDevicesAndFifosAreWrittenInPlace) {
  EXPECT_EQ(OutputFile::check("/dev/null", false), OutputFile::Kind::stream);
  write_text("/dev/null", "discarded", false);
  struct stat info;
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  EXPECT_EQ(input_error_of([] { write_text("/dev/full", "x", true); }),
            "/dev/full: error: cannot write: No space left on device");
  ASSERT_EQ(::stat("/dev/full", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));

  ScratchDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string read_back;
  std::thread reader([&] { read_back = contents(fifo); });
  write_text(fifo, "through the pipe", false);
  reader.join();
  EXPECT_EQ(read_back, "through the pipe");
  ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
}

TEST(OutputFile, SymbolicLinksAreFollowedAndKept) {
  ScratchDir dir;
  write_text(dir.file("target"), "old", false);
  ASSERT_EQ(::symlink("target", dir.file("link").c_str()), 0);
  EXPECT_NE(input_error_of([&] { write_text(dir.file("link"), "new", false); }), "");
  write_text(dir.file("link"), "new", true);
  EXPECT_EQ(contents(dir.file("target")), "new");
  struct stat info;
  ASSERT_EQ(::lstat(dir.file("link").c_str(), &info), 0);
  EXPECT_TRUE(S_ISLNK(info.st_mode));
  // A dangling link names the file to create.
  ASSERT_EQ(::symlink("created", dir.file("dangling").c_str()), 0);
  write_text(dir.file("dangling"), "made", false);
  EXPECT_EQ(contents(dir.file("created")), "made");
  ASSERT_EQ(::symlink("loop", dir.file("loop").c_str()), 0);
  EXPECT_EQ(input_error_of([&] { OutputFile::check(dir.file("loop"), true); }),
            dir.file("loop") + ": error: too many levels of symbolic links");
}

TEST(OutputFile, BadPathsAreReportedByTheCheck) {
  ScratchDir dir;
  EXPECT_EQ(input_error_of([&] { OutputFile::check(dir.path(), true); }),
            dir.path() + ": error: is a directory");
  EXPECT_EQ(input_error_of([&] { OutputFile::check(dir.file("no/out"), true); }),
            dir.file("no/out") + ": error: directory '" + dir.file("no") + "' does not exist");
  EXPECT_EQ(OutputFile::check("-", false), OutputFile::Kind::standard_output);
  EXPECT_EQ(OutputFile::check(dir.file("new"), false), OutputFile::Kind::regular);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(OutputFile, AnUncommittedFileLeavesNothing) {
  ScratchDir dir;
  { OutputFile file(dir.file("out"), false); file.write("partial"); }
  EXPECT_TRUE(dir.entries().empty());
}

// A process killed while writing removes its temporary and still dies by
// the signal (its parent sees the usual status).
TEST(OutputFile, AFatalSignalRemovesTheTemporary) {
  for (int signal_number : {SIGTERM, SIGINT}) {
    ScratchDir dir;
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      OutputFile file(dir.file("out"), false);
      file.write("partial");
      ::raise(signal_number);
      ::_exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), signal_number);
    EXPECT_TRUE(dir.entries().empty());
  }
}

}  // namespace
}  // namespace irgl
