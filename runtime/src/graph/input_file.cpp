// Reading whole input files into memory, decompressing gzip and xz streams
// recognised by their magic bytes.
#include <fcntl.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include "formats.h"
#include "load_progress.h"
#include "irgl/support/error.h"
#include "text_input.h"

namespace irgl {

Compression detect_compression(std::string_view first_bytes) {
  static constexpr std::string_view kGzipMagic("\x1f\x8b", 2);
  static constexpr std::string_view kXzMagic(
      "\xfd"
      "7zXZ\0",
      6);
  if (first_bytes.substr(0, kGzipMagic.size()) == kGzipMagic) return Compression::gzip;
  if (first_bytes.substr(0, kXzMagic.size()) == kXzMagic) return Compression::xz;
  return Compression::none;
}

InputFile::InputFile(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw InputError::in(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat info;
  if (::fstat(fd_, &info) == 0 && S_ISREG(info.st_mode)) {
    regular_ = true;
    size_ = static_cast<uint64_t>(info.st_size);
  }
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

uint64_t InputFile::read(void* buffer, uint64_t bytes, bool report) {
  // Large requests are split so that progress moves and no single read()
  // exceeds what the kernel accepts at once.
  constexpr uint64_t kMaxRead = uint64_t(64) << 20;
  char* out = static_cast<char*>(buffer);
  uint64_t done = 0;
  while (done < bytes) {
    const ssize_t got = ::read(fd_, out + done, std::min(bytes - done, kMaxRead));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError::in(path_, std::string("cannot read: ") + std::strerror(errno));
    }
    if (got == 0) break;
    done += static_cast<uint64_t>(got);
    if (report) progress::advance(static_cast<uint64_t>(got));
  }
  return done;
}

namespace {

constexpr uint64_t kReadBlock = uint64_t(1) << 20;

// A problem in a compressed stream. The decoder that throws it has consumed
// its input up to the point of the problem.
struct DecodeError {
  std::string problem;
};

enum class StepStatus { more, finished };

// A streaming decompressor. Each step consumes input from `in` and writes
// output to `out`, advancing both.
class Decoder {
 public:
  virtual ~Decoder() = default;
  // `last_input` says the input given is the end of the file. Returns
  // `finished` once every stream in the file has been decoded; throws
  // DecodeError on corrupt data, with `in` advanced to where it was found.
  virtual StepStatus step(std::string_view& in, char*& out, char* out_end, bool last_input) = 0;
  virtual const char* name() const = 0;
};

// gzip through zlib; concatenated members (as `cat a.gz b.gz`) are decoded
// one after the other, as gzip -d does.
class GzipDecoder final : public Decoder {
 public:
  GzipDecoder() {
    if (inflateInit2(&stream_, 15 + 16) != Z_OK) throw std::bad_alloc();
  }
  ~GzipDecoder() override { inflateEnd(&stream_); }

  StepStatus step(std::string_view& in, char*& out, char* out_end, bool last_input) override {
    while (!in.empty() || !member_done_) {
      if (member_done_) {
        // More input after a complete member must be another member.
        if (static_cast<unsigned char>(in.front()) != 0x1f)
          throw DecodeError{"unexpected data after the end of the gzip stream"};
        inflateReset(&stream_);
        member_done_ = false;
      }
      stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      stream_.avail_in = static_cast<uInt>(std::min<size_t>(in.size(), 1u << 30));
      stream_.next_out = reinterpret_cast<Bytef*>(out);
      stream_.avail_out = static_cast<uInt>(std::min<size_t>(out_end - out, 1u << 30));
      const int status = inflate(&stream_, Z_NO_FLUSH);
      const size_t consumed = reinterpret_cast<const char*>(stream_.next_in) - in.data();
      in.remove_prefix(consumed);
      out = reinterpret_cast<char*>(stream_.next_out);
      if (status == Z_STREAM_END) {
        member_done_ = true;
        continue;
      }
      if (status == Z_MEM_ERROR) throw std::bad_alloc();
      if (status == Z_DATA_ERROR || status == Z_NEED_DICT || status == Z_STREAM_ERROR)
        throw DecodeError{std::string("corrupt gzip stream: ") +
                          (stream_.msg ? stream_.msg : "invalid data")};
      break;  // Z_OK or Z_BUF_ERROR: wants more input or more output space.
    }
    return member_done_ && in.empty() && last_input ? StepStatus::finished : StepStatus::more;
  }

  const char* name() const override { return "gzip"; }

 private:
  z_stream stream_{};
  bool member_done_ = false;
};

// xz through liblzma; concatenated streams and stream padding are accepted.
class XzDecoder final : public Decoder {
 public:
  XzDecoder() {
    if (lzma_stream_decoder(&stream_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw std::bad_alloc();
  }
  ~XzDecoder() override { lzma_end(&stream_); }

  StepStatus step(std::string_view& in, char*& out, char* out_end, bool last_input) override {
    stream_.next_in = reinterpret_cast<const uint8_t*>(in.data());
    stream_.avail_in = in.size();
    stream_.next_out = reinterpret_cast<uint8_t*>(out);
    stream_.avail_out = out_end - out;
    const lzma_ret status = lzma_code(&stream_, last_input ? LZMA_FINISH : LZMA_RUN);
    in.remove_prefix(reinterpret_cast<const char*>(stream_.next_in) - in.data());
    out = reinterpret_cast<char*>(stream_.next_out);
    switch (status) {
      case LZMA_STREAM_END:
        return StepStatus::finished;
      case LZMA_OK:
      case LZMA_BUF_ERROR:  // no progress possible: the caller tells why
        return StepStatus::more;
      case LZMA_MEM_ERROR:
        throw std::bad_alloc();
      case LZMA_FORMAT_ERROR:
        throw DecodeError{"corrupt xz stream: not in the xz format"};
      case LZMA_OPTIONS_ERROR:
        throw DecodeError{"unsupported xz stream options"};
      case LZMA_DATA_ERROR:
        throw DecodeError{"corrupt xz stream: compressed data is corrupt"};
      default:
        throw DecodeError{"corrupt xz stream (liblzma error " +
                          std::to_string(static_cast<int>(status)) + ")"};
    }
  }

  const char* name() const override { return "xz"; }

 private:
  lzma_stream stream_ = LZMA_STREAM_INIT;
};

std::unique_ptr<Decoder> make_decoder(Compression compression) {
  if (compression == Compression::gzip) return std::make_unique<GzipDecoder>();
  return std::make_unique<XzDecoder>();
}

// Decompresses `file`, whose first bytes `head` were already read, into
// `out`, stopping once `limit` bytes are out. On an error `out` holds what was
// decompressed before it.
void decompress(InputFile& file, std::string_view head, Compression compression, uint64_t limit,
                bool report, std::string& out) {
  const std::unique_ptr<Decoder> decoder = make_decoder(compression);
  // Small files get small buffers (their size is known; a pipe's is not).
  std::vector<char> block(file.is_regular() ? std::clamp<uint64_t>(file.size(), 64, kReadBlock)
                                            : kReadBlock);
  std::string_view input = head;
  uint64_t read_total = head.size();  // compressed bytes taken from the file
  bool file_ended = file.is_regular() && read_total == file.size();
  uint64_t produced = 0;
  out.resize(std::min<uint64_t>(limit, std::max<uint64_t>(4096, 4 * file.size())));
  try {
    while (produced < limit) {
      if (input.empty() && !file_ended) {
        const uint64_t got = file.read(block.data(), block.size(), report);
        input = std::string_view(block.data(), got);
        read_total += got;
        file_ended = got < block.size() || (file.is_regular() && read_total == file.size());
      }
      if (produced == out.size())
        out.resize(std::min<uint64_t>(limit, out.size() + out.size() / 2 + 4096));
      const uint64_t input_before = input.size();
      char* cursor = out.data() + produced;
      char* const space_end = out.data() + out.size();
      const StepStatus status = decoder->step(input, cursor, space_end, file_ended);
      produced = cursor - out.data();
      if (status == StepStatus::finished) break;
      const bool stalled = input.size() == input_before && cursor < space_end;
      if (stalled && input.empty() && file_ended)
        throw DecodeError{std::string("truncated ") + decoder->name() + " stream"};
    }
  } catch (const DecodeError& error) {
    out.resize(produced);
    // Everything before the unconsumed input has been decoded.
    throw InputError::at_byte(file.path(), read_total - input.size(), error.problem);
  }
  out.resize(produced);
}

}  // namespace

TextInput read_text_input(const std::string& path, bool show_progress) {
  InputFile file(path);
  // For compressed files, counts the compressed bytes read.
  std::optional<progress::Phase> phase;
  if (show_progress) phase.emplace("reading", file.size());
  const bool meter = show_progress;

  TextInput input;
  input.name = path;
  input.show_progress = show_progress;
  char head[kMagicBytes];
  const uint64_t head_size = file.read(head, sizeof head, meter);
  const Compression compression = detect_compression(std::string_view(head, head_size));
  if (compression != Compression::none) {
    decompress(file, std::string_view(head, head_size), compression, UINT64_MAX, meter, input.data);
    return input;
  }
  // Plain text: one read of the whole file when its size is known, growing
  // reads for pipes.
  std::string& data = input.data;
  data.assign(head, head_size);
  if (file.is_regular()) {
    data.resize(std::max(file.size(), head_size));
    data.resize(head_size + file.read(data.data() + head_size, data.size() - head_size, meter));
    return input;
  }
  for (uint64_t got = kReadBlock; got == kReadBlock;) {
    const uint64_t size = data.size();
    data.resize(size + kReadBlock);
    got = file.read(data.data() + size, kReadBlock, meter);
    data.resize(size + got);
  }
  return input;
}

std::string peek_decompressed(const std::string& path, size_t bytes) {
  InputFile file(path);
  std::string head(kMagicBytes, '\0');
  head.resize(file.read(head.data(), head.size()));
  const Compression compression = detect_compression(head);
  std::string out;
  if (compression == Compression::none) {
    out = head.substr(0, bytes);
    if (out.size() < bytes) {
      out.resize(bytes);
      out.resize(head.size() + file.read(out.data() + head.size(), bytes - head.size()));
    }
    return out;
  }
  try {
    decompress(file, head, compression, bytes, false, out);
  } catch (const InputError&) {
    // A broken stream is reported by the full read; format detection only
    // needs what could be decoded.
  }
  return out;
}

}  // namespace irgl
