// The energy a GPU draws over an interval, from NVML (the driver's
// management library, loaded at run time: a program runs without it).
//
//   EnergyMeter meter;                 // the current CUDA device
//   if (meter.available()) meter.start();
//   ... GPU work, synchronised ...
//   const double mj = meter.stop();    // millijoules since start()
//
// NVML's total-energy counter (millijoules since the driver loaded; Volta
// and later) is read at both ends. Where the device has no counter, a
// thread samples the power draw every millisecond and integrates it
// (source() says which). The counter is updated by the driver every few
// milliseconds, so an interval should be tens of milliseconds or more:
// measure many runs together and divide. Not thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace irgl::gpu {

class EnergyMeter {
 public:
  // NVML's view of the current CUDA device (matched by PCI bus id).
  EnergyMeter();
  ~EnergyMeter();
  EnergyMeter(const EnergyMeter&) = delete;
  EnergyMeter& operator=(const EnergyMeter&) = delete;

  // Whether energy can be measured; why not otherwise ("libnvidia-ml.so.1:
  // cannot open shared object file", "no usable GPU: ...").
  bool available() const { return available_; }
  const std::string& why_unavailable() const { return why_; }
  // "total-energy counter" or "power sampling".
  const char* source() const { return counter_ ? "total-energy counter" : "power sampling"; }

  // The GPU's state now, for a report beside the energy (paper 002 notes
  // them): the SM clock in MHz and the core temperature in degrees C;
  // nullopt where NVML cannot tell.
  std::optional<unsigned> sm_clock_mhz() const;
  std::optional<unsigned> temperature_c() const;

  // Starts an interval. Throws std::logic_error when unavailable.
  void start();
  // Millijoules since start(). Throws std::logic_error before start().
  double stop();

 private:
  struct Nvml;
  void sample_power();

  std::unique_ptr<Nvml> nvml_;
  bool available_ = false;
  bool counter_ = false;  // the device has the total-energy counter
  std::string why_;
  bool started_ = false;
  unsigned long long start_mj_ = 0;
  // Power sampling: the sampler thread and the energy it integrated.
  std::thread sampler_;
  std::atomic<bool> sampling_{false};
  double sampled_mj_ = 0;
};

}  // namespace irgl::gpu
