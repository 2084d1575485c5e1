// irgl-serve GRAPH [--queries FILE | --listen PORT] [options]
//
// Loads a graph once and answers a stream of bfs, sssp and k-hop queries
// (query_protocol.h) as they arrive: from a file or standard input, or
// from TCP clients on 127.0.0.1:PORT (a client's `shutdown` line stops the
// server once every query it has is answered). `--mode resident` (the
// default) keeps one kernel on the GPU for the whole stream
// (gpu/tasks/query_server.cuh); `--mode launch` runs each query as its own
// launch of the bfs or sssp program (lang-examples/, library mode), one
// after the other: the baseline. `--rate Q` replays a file at Q queries
// per second (latency counts from each query's due time); `--gpus N`
// serves from an engine on each of N GPUs (each query to the one with the
// most free slots); `--make-queries N` writes N random queries instead.
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bfs.h"   // irglc_bfs::run_on_device: --mode launch
#include "sssp.h"  // irglc_sssp::run_on_device
#include "irgl/gpu/device_graph.h"
#include "irgl/gpu/device_info.h"
#include "irgl/gpu/launch.cuh"
#include "irgl/gpu/tasks/query_server.cuh"
#include "irgl/graph/load.h"
#include "irgl/graph/weight_summary.h"
#include "irgl/options/graph_options.h"
#include "irgl/options/unsigned_option.h"
#include "irgl/support/error.h"
#include "irgl/support/name_list.h"
#include "irgl/support/time_summary.h"
#include "query_protocol.h"
#include "query_reference.h"

namespace po = boost::program_options;

namespace irgl::serve {
namespace {

using Clock = std::chrono::steady_clock;
using gpu::tasks::kQueryTargets;
using gpu::tasks::kUnreached;
using gpu::tasks::QueryEngine;
using gpu::tasks::QueryKind;

constexpr const char* kTool = "irgl-serve";
constexpr int kExitNoGpu = 77;
constexpr int kStandardOutput = -1;  // the client id of a file or standard input

// Where answers go: standard output, or the client's socket. Lines from
// several threads never interleave.
class AnswerSink {
 public:
  void write(int client, const std::string& line) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (client == kStandardOutput) {
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fputc('\n', stdout);
      std::fflush(stdout);
      return;
    }
    const std::string text = line + "\n";
    // A client that left misses its answers; the server goes on.
    for (size_t sent = 0; sent < text.size();) {
      const ssize_t n = ::send(client, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return;
      sent += size_t(n);
    }
  }

 private:
  std::mutex mutex_;
};

// A query waiting for, or holding, the GPU.
struct Request {
  GraphQuery query;  // query.id: the line's number in its stream
  int client = kStandardOutput;
  Clock::time_point arrival;
};

// The requests the readers hand to the serving loop.
class Inbox {
 public:
  void put(const Request& request) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(request);
    }
    ready_.notify_one();
  }
  void close() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    ready_.notify_one();
  }
  // Moves every waiting request to `into`; waits up to `wait` for one when
  // there is none. Whether more may come.
  bool take(std::deque<Request>& into, std::chrono::microseconds wait) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (requests_.empty() && !closed_ && wait.count() > 0)
      ready_.wait_for(lock, wait, [&] { return !requests_.empty() || closed_; });
    for (Request& request : requests_) into.push_back(request);
    requests_.clear();
    return !closed_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Request> requests_;
  bool closed_ = false;
};

struct ServeOptions {
  std::string queries = "-";
  unsigned listen_port = 0;
  double rate = 0;  // queries per second when replaying a file; 0: as fast as read
  std::string mode = "resident";
  gpu::tasks::QueryEngineOptions engine;
  bool check = false;
  std::string stats;
};

// What a served stream measured.
struct Served {
  uint64_t answered = 0, refused = 0;
  std::vector<double> latencies_us;
  Clock::time_point first_arrival = Clock::time_point::max(), last_answer;
  std::vector<std::pair<GraphQuery, QueryAnswer>> answers;  // --check
  nlohmann::json gpus = nlohmann::json::array();  // resident mode: each GPU's share
};

// Reads `stream`'s lines into the inbox (parsing them; errors answered at
// once), pacing them at `rate` per second when it is not 0.
void read_queries(std::istream& stream, int client, double rate, uint64_t vertices,
                  const std::string& refused_sssp, Inbox& inbox, AnswerSink& sink,
                  Served& served, std::mutex& served_mutex,
                  const std::function<void()>& on_shutdown = nullptr) {
  const Clock::time_point start = Clock::now();
  uint64_t line_number = 0, due = 0;
  for (std::string line; std::getline(stream, line);) {
    ++line_number;
    std::string first_word;
    std::istringstream(line) >> first_word;
    if (on_shutdown && first_word == "shutdown") {  // "shutdowns" is a bad query
      on_shutdown();
      return;
    }
    const QueryLine parsed = parse_query_line(line, line_number, vertices, refused_sssp);
    if (parsed.kind == QueryLine::Kind::skip) continue;
    Clock::time_point arrival = Clock::now();
    if (rate > 0) {
      arrival = start + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(double(due++) / rate));
      std::this_thread::sleep_until(arrival);
    }
    if (parsed.kind == QueryLine::Kind::error) {
      sink.write(client, format_error(line_number, parsed.error));
      const std::lock_guard<std::mutex> lock(served_mutex);
      ++served.refused;
      continue;
    }
    inbox.put(Request{parsed.query, client, arrival});
  }
}

// Records an answer and sends it.
void deliver(const Request& request, const QueryAnswer& answer, bool keep, AnswerSink& sink,
             Served& served, std::mutex& served_mutex) {
  const Clock::time_point now = Clock::now();
  const double micros = std::chrono::duration<double, std::micro>(now - request.arrival).count();
  sink.write(request.client, format_answer(request.query, answer, micros));
  const std::lock_guard<std::mutex> lock(served_mutex);
  ++served.answered;
  served.latencies_us.push_back(micros);
  served.first_arrival = std::min(served.first_arrival, request.arrival);
  served.last_answer = now;
  if (keep) served.answers.push_back({request.query, answer});
}

// --mode launch: the answer from a distance array on the GPU.
__global__ void summarize_kernel(const uint32_t* dist, uint64_t n, uint32_t limit,
                                 unsigned long long* reached, unsigned* levels) {
  unsigned long long count = 0;
  unsigned deepest = 0;
  for (uint64_t v = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; v < n;
       v += uint64_t(gridDim.x) * blockDim.x)
    if (dist[v] <= limit) {
      ++count;
      deepest = max(deepest, dist[v]);
    }
  if (count) atomicAdd(reached, count);
  if (deepest) atomicMax(levels, deepest);
}

class LaunchRunner {
 public:
  explicit LaunchRunner(const gpu::DeviceGraph& graph) : graph_(graph), totals_(2) {}

  QueryAnswer run(const GraphQuery& query) {
    const gpu::DeviceBuffer<uint32_t> dist =
        query.kind == QueryKind::sssp ? std::move(irglc_sssp::run_on_device(graph_, query.source).dist)
                                      : std::move(irglc_bfs::run_on_device(graph_, query.source).level);
    const uint32_t limit = query.kind == QueryKind::khop ? query.hops : kUnreached - 1;
    totals_.zero();
    auto* reached = reinterpret_cast<unsigned long long*>(totals_.data());
    summarize_kernel<<<gpu::grid_blocks(dist.size()), gpu::kBlockThreads>>>(
        dist.data(), dist.size(), limit, reached, reinterpret_cast<unsigned*>(reached + 1));
    IRGL_CUDA_CHECK_LAUNCH();
    const std::vector<uint64_t> totals = totals_.download();
    QueryAnswer answer;
    answer.id = query.id;
    answer.reached = totals[0];
    answer.levels = query.kind == QueryKind::sssp ? 0 : uint32_t(totals[1]);
    answer.target_count = query.target_count;
    for (uint32_t t = 0; t < query.target_count; ++t) {
      uint32_t d = kUnreached;
      IRGL_CUDA_CHECK(cudaMemcpy(&d, dist.data() + query.targets[t], sizeof d,
                                 cudaMemcpyDeviceToHost));
      answer.distance[t] = d <= limit ? d : kUnreached;
    }
    return answer;
  }

 private:
  const gpu::DeviceGraph& graph_;
  gpu::DeviceBuffer<uint64_t> totals_;
};

// The serving loop: requests from the inbox to the GPU, answers to the sink.
// One GPU's engine and how long it had a query running.
struct EngineUse {
  std::unique_ptr<QueryEngine> engine;
  uint64_t answered = 0;
  double busy_seconds = 0;
  Clock::time_point busy_since;
};

// The serving loop: requests from the inbox to the GPUs (each query to
// the engine with the most free slots), answers to the sink.
void serve(const std::vector<std::unique_ptr<gpu::DeviceGraph>>& graphs,
           const ServeOptions& options, Inbox& inbox, AnswerSink& sink, Served& served,
           std::mutex& served_mutex) {
  std::deque<Request> pending;
  std::vector<EngineUse> engines(options.mode == "resident" ? graphs.size() : 0);
  for (size_t g = 0; g < engines.size(); ++g) {
    const gpu::ScopedDevice scope{int(g)};
    engines[g].engine = std::make_unique<QueryEngine>(*graphs[g], options.engine);
  }
  std::unique_ptr<LaunchRunner> launcher;
  if (engines.empty()) launcher = std::make_unique<LaunchRunner>(*graphs[0]);
  std::map<uint64_t, Request> running;  // by the id given to the engine
  uint64_t next_id = 0;
  std::vector<QueryAnswer> answers;
  for (bool open = true;;) {
    const bool idle = pending.empty() && running.empty();
    open = inbox.take(pending, std::chrono::microseconds(idle && open ? 20000 : 0)) && open;
    if (!open && pending.empty() && running.empty()) break;
    if (launcher) {
      if (pending.empty()) continue;
      const Request request = pending.front();
      pending.pop_front();
      deliver(request, launcher->run(request.query), options.check, sink, served, served_mutex);
      continue;
    }
    while (!pending.empty()) {
      const auto most_free = std::max_element(
          engines.begin(), engines.end(), [](const EngineUse& a, const EngineUse& b) {
            return a.engine->free_slots() < b.engine->free_slots();
          });
      if (most_free->engine->free_slots() == 0) break;
      if (most_free->engine->running() == 0) most_free->busy_since = Clock::now();
      GraphQuery query = pending.front().query;
      query.id = next_id;
      running.emplace(next_id++, pending.front());
      pending.pop_front();
      most_free->engine->submit(query);
    }
    bool any_answer = false;
    for (EngineUse& use : engines) {
      answers.clear();
      use.engine->poll(answers);
      for (const QueryAnswer& answer : answers) {
        const auto found = running.find(answer.id);
        QueryAnswer reply = answer;
        reply.id = found->second.query.id;
        deliver(found->second, reply, options.check, sink, served, served_mutex);
        running.erase(found);
      }
      use.answered += answers.size();
      any_answer |= !answers.empty();
      if (!answers.empty() && use.engine->running() == 0)
        use.busy_seconds += std::chrono::duration<double>(Clock::now() - use.busy_since).count();
    }
    if (!any_answer && !running.empty()) std::this_thread::yield();
  }
  for (size_t g = 0; g < engines.size(); ++g) {
    QueryEngine& engine = *engines[g].engine;
    std::fprintf(stderr, "%s: GPU %zu: %u query slots, %u blocks of %d threads; %llu answered, "
                 "busy %.3f s\n", kTool, g, engine.slots(), engine.blocks(),
                 QueryEngine::kBlockThreads, (unsigned long long)engines[g].answered,
                 engines[g].busy_seconds);
    served.gpus.push_back({{"gpu", g},
                           {"answered", engines[g].answered},
                           {"busy_seconds", engines[g].busy_seconds}});
    engine.finish();
  }
}

// A socket's bytes as an input stream, so that a client's lines take the
// same path as a file's.
class SocketReader : public std::streambuf {
 public:
  explicit SocketReader(int fd) : fd_(fd) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const ssize_t n = ::recv(fd_, buffer_, sizeof buffer_, 0);
    if (n <= 0) return traits_type::eof();
    setg(buffer_, buffer_, buffer_ + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  int fd_;
  char buffer_[4096];
};

// Listens on 127.0.0.1:PORT; each client's lines are a stream of queries,
// answered on its connection. A `shutdown` line closes the inbox.
class Listener {
 public:
  using ReadStream = std::function<void(std::istream&, int client)>;

  Listener(unsigned port, ReadStream read_stream) : read_stream_(std::move(read_stream)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("--listen: socket: " + std::string(strerror(errno)));
    const int yes = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(fd_, 16) != 0) {
      const std::string why = strerror(errno);
      ::close(fd_);
      throw InputError::in("--listen", "cannot listen on 127.0.0.1:" + std::to_string(port) +
                                           ": " + why);
    }
    acceptor_ = std::thread([this] { accept_clients(); });
  }
  ~Listener() {
    ::shutdown(fd_, SHUT_RDWR);
    acceptor_.join();
    ::close(fd_);
    for (auto& [client, reader] : clients_) {
      ::shutdown(client, SHUT_RDWR);
      reader.join();
      ::close(client);
    }
  }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

 private:
  void accept_clients() {
    for (;;) {
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) return;  // the listener closed
      clients_.emplace_back(client, std::thread([this, client] {
                              SocketReader bytes(client);
                              std::istream stream(&bytes);
                              read_stream_(stream, client);
                            }));
    }
  }

  ReadStream read_stream_;
  int fd_ = -1;
  std::thread acceptor_;
  std::vector<std::pair<int, std::thread>> clients_;
};

// Why sssp cannot run on `graph`, or "" when it can: it needs int32
// weights, none negative, whose path sums fit 32-bit distances.
std::string sssp_refusal(const CsrGraph& graph) {
  if (graph.weight_type != WeightType::int32)
    return "the graph has no int32 edge weights (load them with --weights, e.g. hash:100)";
  const WeightSummary weights = summarize_weights(graph);
  if (weights.first_negative != UINT64_MAX)
    return "edge " + std::to_string(weights.first_negative) + " has a negative weight";
  uint64_t with_out_edges = 0;
  for (uint64_t v = 0; v < graph.num_vertices(); ++v) with_out_edges += graph.out_degree(VertexId(v)) > 0;
  if (with_out_edges * uint64_t(weights.largest) >= kUnreached)
    return "weights up to " + std::to_string(weights.largest) + " on " +
           std::to_string(with_out_edges) +
           " vertices with out-edges could make a distance overflow 32 bits";
  return "";
}

// --make-queries: `count` queries of `kind` from random vertices with
// out-edges, each with `targets` random targets.
void make_queries(const CsrGraph& graph, uint64_t count, QueryKind kind, unsigned hops,
                  unsigned targets, unsigned seed) {
  std::vector<VertexId> sources;
  for (uint64_t v = 0; v < graph.num_vertices(); ++v)
    if (graph.out_degree(VertexId(v)) > 0) sources.push_back(VertexId(v));
  if (sources.empty()) throw InputError::in(graph.name, "no vertex has an out-edge");
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<size_t> source(0, sources.size() - 1);
  std::uniform_int_distribution<uint64_t> vertex(0, graph.num_vertices() - 1);
  for (uint64_t q = 0; q < count; ++q) {
    std::string line = std::string(gpu::tasks::to_string(kind)) + " " +
                       std::to_string(sources[source(random)]);
    if (kind == QueryKind::khop) line += " " + std::to_string(hops);
    for (unsigned t = 0; t < targets; ++t) line += " " + std::to_string(vertex(random));
    std::printf("%s\n", line.c_str());
  }
}

// Compares every answer with the host's; the number that differ.
uint64_t check_answers(const CsrGraph& graph, const Served& served) {
  uint64_t wrong = 0;
  for (const auto& [query, answer] : served.answers) {
    const std::string differences =
        compare_answers(query, answer_on_host(graph, query), answer);
    if (differences.empty()) continue;
    if (wrong++ < 10)
      std::fprintf(stderr, "%s: check: query %llu (%s %u): %s\n", kTool,
                   (unsigned long long)query.id, gpu::tasks::to_string(query.kind),
                   query.source, differences.c_str());
  }
  std::fprintf(stderr, "%s: check: %llu of %llu answers equal the host's\n", kTool,
               (unsigned long long)(served.answers.size() - wrong),
               (unsigned long long)served.answers.size());
  return wrong;
}

// One run's line on standard error and its JSON record.
nlohmann::json summarize_run(const ServeOptions& options, const Served& served) {
  std::vector<double> sorted = served.latencies_us;
  std::sort(sorted.begin(), sorted.end());
  const auto percentile = [&](double p) {
    return sorted.empty() ? 0.0 : sorted[std::min(sorted.size() - 1, size_t(p * sorted.size()))];
  };
  const double seconds =
      served.answered
          ? std::chrono::duration<double>(served.last_answer - served.first_arrival).count()
          : 0;
  const double throughput = seconds > 0 ? double(served.answered) / seconds : 0;
  const TimeSummary latency =
      sorted.empty() ? TimeSummary{} : summarize_times(served.latencies_us);
  std::fprintf(stderr,
               "%s: mode %s, rate %g: %llu answered, %llu refused in %.3f s: %.0f queries/s; "
               "latency median %.1f us, p99 %.1f us\n",
               kTool, options.mode.c_str(), options.rate, (unsigned long long)served.answered,
               (unsigned long long)served.refused, seconds, throughput, latency.median,
               percentile(0.99));
  return {{"mode", options.mode},
          {"rate", options.rate},
          {"answered", served.answered},
          {"refused", served.refused},
          {"seconds", seconds},
          {"queries_per_second", throughput},
          {"latency_us",
           {{"median", latency.median},
            {"p99", percentile(0.99)},
            {"min", latency.min},
            {"max", latency.max}}},
          {"gpus", served.gpus}};
}

void write_stats(const std::string& path, const CsrGraph& graph, const nlohmann::json& runs) {
  if (path.empty()) return;
  const nlohmann::json stats = {{"tool", kTool},
                                {"gpu", gpu::query_device().name},
                                {"graph", graph.name},
                                {"vertices", graph.num_vertices()},
                                {"edges", graph.num_edges()},
                                {"runs", runs}};
  std::ofstream file(path);
  file << stats.dump(1) << "\n";
  if (!file) throw InputError::in(path, "cannot write the statistics");
}

// A comma-separated list of option values.
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) items.push_back(item);
  return items;
}

int run(int argc, char** argv) {
  GraphOptionValues graph_values;
  std::string graph_source, placement = "device", make_kind = "bfs", modes = "resident",
              rates = "0";
  ServeOptions options;
  unsigned slots = 0, blocks = 0, make_hops = 2, make_targets = 0, seed = 1, gpus = 1;
  uint64_t make_count = 0;
  po::options_description description(
      "Usage: irgl-serve [options] GRAPH\nAnswers bfs, sssp and k-hop queries on GRAPH as they "
      "arrive (tools/serve/query_protocol.h; docs/tasks.md)\nOptions");
  description.add_options()("help,h", "show this help")(
      "graph", po::value(&graph_source), "graph file or generator spec")(
      "queries", po::value(&options.queries)->default_value("-"),
      "read queries from this file (-: standard input)")(
      "listen", unsigned_value(&options.listen_port, "--listen"),
      "serve TCP clients on 127.0.0.1:PORT instead (a `shutdown` line stops)")(
      "rate", po::value(&rates)->default_value("0"),
      "replay --queries at this many per second (0: as read); a list runs each in turn")(
      "mode", po::value(&modes)->default_value("resident"),
      "resident (one kernel for the stream) or launch (a launch per query); a list runs each")(
      "slots", unsigned_value(&slots, "--slots")->default_value("0"),
      "queries running at once (0: up to 32, as memory allows)")(
      "blocks", unsigned_value(&blocks, "--blocks")->default_value("0"),
      "resident blocks per GPU (0: as many as fit)")(
      "gpus", unsigned_value(&gpus, "--gpus")->default_value("1"),
      "resident mode: an engine on each of GPUs 0..N-1, the graph on each")(
      "placement", po::value(&placement)->default_value("device"),
      "where the intake ring lives: device or mapped")(
      "check", po::bool_switch(&options.check), "compare every answer with a host computation")(
      "stats", po::value(&options.stats), "write throughput and latency as JSON here")(
      "make-queries", po::value(&make_count), "print this many random queries and exit")(
      "kind", po::value(&make_kind)->default_value("bfs"), "--make-queries: bfs, sssp or khop")(
      "hops", unsigned_value(&make_hops, "--hops")->default_value("2"), "--make-queries: khop's K")(
      "targets", unsigned_value(&make_targets, "--targets")->default_value("0"),
      "--make-queries: targets per query")(
      "seed", unsigned_value(&seed, "--seed")->default_value("1"), "--make-queries: random seed");
  po::options_description graph_options("Graph loading");
  add_graph_options(graph_options, graph_values);
  description.add(graph_options);
  po::positional_options_description positional;
  positional.add("graph", 1);
  const po::variables_map values = parse_command_line(kTool, argc, argv, description, &positional);
  if (values.count("help")) {
    std::cout << description;
    return 0;
  }
  if (graph_source.empty()) throw InputError::in(kTool, "no graph given (see --help)");
  std::vector<std::string> mode_list = split_list(modes);
  for (const std::string& mode : mode_list)
    if (mode != "resident" && mode != "launch")
      throw InputError::in("--mode", "'" + mode + "' is not resident or launch");
  if (gpus == 0) throw InputError::in("--gpus", "must be at least 1");
  if (gpus > 1 && std::find(mode_list.begin(), mode_list.end(), "launch") != mode_list.end())
    throw InputError::in("--gpus", "several GPUs serve in resident mode only (--mode launch "
                                   "runs the programs on one)");
  if (placement != "device" && placement != "mapped")
    throw InputError::in("--placement", "'" + placement + "' is not device or mapped");
  std::vector<double> rate_list;
  for (const std::string& rate : split_list(rates)) {
    size_t end = 0;
    double value = -1;
    try {
      value = std::stod(rate, &end);
    } catch (const std::exception&) {
    }
    if (end != rate.size() || !(value >= 0))
      throw InputError::in("--rate", "'" + rate + "' is not a number of queries per second");
    rate_list.push_back(value);
  }
  const bool listen = values.count("listen") > 0;
  if (mode_list.empty() || rate_list.empty())
    throw InputError::in(mode_list.empty() ? "--mode" : "--rate", "is empty");
  const bool replays = rate_list.size() > 1 || rate_list[0] > 0;
  if ((replays || mode_list.size() > 1) && (listen || options.queries == "-"))
    throw InputError::in(replays ? "--rate" : "--mode", "several runs or a rate replay a --queries file");
  if (make_targets > kQueryTargets)
    throw InputError::in("--targets", "at most " + std::to_string(kQueryTargets));
  QueryKind kind = QueryKind::bfs;
  bool known_kind = false;
  for (const auto& entry : gpu::tasks::kQueryKinds)
    if (make_kind == entry.name) kind = entry.kind, known_kind = true;
  if (!known_kind)
    throw InputError::in("--kind",
                         "'" + make_kind + "' is not " + name_list(gpu::tasks::kQueryKinds));
  options.engine.slots = slots;
  options.engine.blocks = blocks;
  options.engine.placement =
      placement == "device" ? gpu::tasks::HostFedPlacement::device : gpu::tasks::HostFedPlacement::mapped;
  std::ifstream file;
  if (!listen && options.queries != "-") {
    file.open(options.queries);
    if (!file) throw InputError::in(options.queries, "cannot read the queries");
  }

  LoadOptions load_options = to_load_options(graph_values);
  const CsrGraph graph = load_graph(graph_source, load_options);
  if (make_count) {
    make_queries(graph, make_count, kind, make_hops, make_targets, seed);
    return 0;
  }
  std::string why;
  if (!gpu::gpu_available(&why)) {
    std::cerr << kTool << ": skipped: no usable GPU: " << why << '\n';
    return kExitNoGpu;
  }
  const std::string refused_sssp = sssp_refusal(graph);
  int device_count = 0;
  IRGL_CUDA_CHECK(cudaGetDeviceCount(&device_count));
  if (gpus > unsigned(device_count))
    throw InputError::in("--gpus", std::to_string(gpus) + " GPUs asked; this machine has " +
                                       std::to_string(device_count));
  std::vector<std::unique_ptr<gpu::DeviceGraph>> device_graphs;
  for (unsigned g = 0; g < gpus; ++g) {
    const gpu::ScopedDevice scope{int(g)};
    device_graphs.push_back(std::make_unique<gpu::DeviceGraph>(graph));
  }
  std::fprintf(stderr, "%s: %s (%llu vertices, %llu edges) on %s\n", kTool, graph.name.c_str(),
               (unsigned long long)graph.num_vertices(), (unsigned long long)graph.num_edges(),
               gpu::query_device().name.c_str());

  AnswerSink sink;
  nlohmann::json runs = nlohmann::json::array();
  uint64_t wrong = 0, refused = 0;
  for (const std::string& mode : mode_list) {
    for (double rate : rate_list) {
      options.mode = mode;
      options.rate = rate;
      Inbox inbox;
      Served served;
      std::mutex served_mutex;
      const auto read_stream = [&](std::istream& stream, int client,
                                   const std::function<void()>& on_shutdown) {
        read_queries(stream, client, rate, graph.num_vertices(), refused_sssp, inbox, sink,
                     served, served_mutex, on_shutdown);
      };
      if (listen) {
        Listener listener(options.listen_port, [&](std::istream& stream, int client) {
          read_stream(stream, client, [&] { inbox.close(); });
        });
        std::fprintf(stderr, "%s: listening on 127.0.0.1:%u\n", kTool, options.listen_port);
        serve(device_graphs, options, inbox, sink, served, served_mutex);
      } else {
        if (file.is_open()) {
          file.clear();
          file.seekg(0);
        }
        std::thread reader([&] {
          read_stream(file.is_open() ? file : std::cin, kStandardOutput, nullptr);
          inbox.close();
        });
        try {
          serve(device_graphs, options, inbox, sink, served, served_mutex);
        } catch (...) {
          reader.detach();  // it may be blocked on standard input
          throw;
        }
        reader.join();
      }
      runs.push_back(summarize_run(options, served));
      refused += served.refused;
      if (options.check) wrong += check_answers(graph, served);
    }
  }
  write_stats(options.stats, graph, runs);
  // A server answers a bad query with an error and goes on; a file with bad
  // lines is an input error.
  return wrong != 0 || (refused != 0 && !listen) ? 1 : 0;
}

}  // namespace
}  // namespace irgl::serve

int main(int argc, char** argv) {
  return irgl::run_tool_main(irgl::serve::kTool, irgl::serve::run, argc, argv);
}
