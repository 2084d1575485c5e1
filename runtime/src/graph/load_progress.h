// Progress lines for long loads and writes of graphs (internal to the graph
// layer: load_graph, the writers, and every phase they go through).
//
//   progress::Report report(source, options.show_progress);  // a load or a write
//   {
//     progress::Phase phase("sorting adjacency lists", m);    // phases nest
//     ... progress::advance(k) from any thread ...
//   }
//
// Once a report has run for a second, a line names its innermost phase and
// the share of it done, about once a second, whatever the phase does:
//   rmat:22: sorting adjacency lists:  37% (9.2 s)
// (on a terminal, one line rewritten in place). A phase that was shown ends
// with "rmat:22: sorting adjacency lists: done (2.1 s)" (its own time), and
// the report with "rmat:22: done (12.0 s)". So after the first second no
// more than about a second passes without a line, however the work is split
// into phases.
//
// IRGL_NO_PROGRESS (or `enabled` false, --quiet) turns all of it off.
// IRGL_PROGRESS=all also prints the done line of every phase, however short
// (tests use it; it also shows where a load's time goes).
//
// Without a current report, Phase and advance() do nothing, so the building
// blocks (build_csr, the binary reader, ...) report when called from a load
// and stay silent otherwise. One report is current at a time: a report made
// while another is current does nothing, and its phases join the current one.
// Lines go to stderr.
#pragma once

#include <cstdint>
#include <string>

namespace irgl::progress {

class Reporter;
struct PhaseState;

class Report {
 public:
  Report(const std::string& name, bool enabled);
  ~Report();
  Report(const Report&) = delete;
  Report& operator=(const Report&) = delete;

 private:
  Reporter* reporter_ = nullptr;  // owned; null when inactive
};

class Phase {
 public:
  // `total` is in the unit advance() counts (edges, bytes...); 0 when unknown
  // (the line then shows no percentage).
  Phase(const std::string& label, uint64_t total);
  ~Phase();
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;

 private:
  Reporter* reporter_ = nullptr;
  PhaseState* state_ = nullptr;  // owned
};

// Adds `amount` to the innermost phase of the current report. Cheap (one
// atomic load without a report, an atomic add with one); call it per block
// of work, or through Counter in per-item loops.
void advance(uint64_t amount);

// Batches per-item advances of one worker: add(1) per item costs an add and
// a compare; the phase is advanced every 65536 units and at destruction.
class Counter {
 public:
  Counter() = default;
  ~Counter() { flush(); }
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  void add(uint64_t amount = 1) {
    pending_ += amount;
    if (pending_ >= kBatch) flush();
  }
  void flush() {
    if (pending_ != 0) advance(pending_);
    pending_ = 0;
  }

 private:
  static constexpr uint64_t kBatch = uint64_t(1) << 16;
  uint64_t pending_ = 0;
};

}  // namespace irgl::progress
