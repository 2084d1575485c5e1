#include "irgl/gpu/energy.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <stdexcept>

namespace irgl::gpu {

// The few NVML entry points used, declared as NVML's C API defines them (the
// CUDA toolkit does not ship nvml.h); resolved from the driver's library.
struct EnergyMeter::Nvml {
  using Return = int;  // nvmlReturn_t; NVML_SUCCESS is 0
  using Device = void*;  // nvmlDevice_t
  void* library = nullptr;
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  Return (*by_pci_bus_id)(const char*, Device*) = nullptr;
  Return (*total_energy)(Device, unsigned long long*) = nullptr;
  Return (*power_usage)(Device, unsigned int*) = nullptr;
  Return (*clock_info)(Device, int, unsigned int*) = nullptr;   // NVML_CLOCK_SM = 1
  Return (*temperature)(Device, int, unsigned int*) = nullptr;  // NVML_TEMPERATURE_GPU = 0
  const char* (*error_string)(Return) = nullptr;
  Device device = nullptr;
  bool initialised = false;

  template <class F>
  bool resolve(F& function, const char* name) {
    function = reinterpret_cast<F>(dlsym(library, name));
    return function != nullptr;
  }
  std::string error(Return status) const {
    return error_string ? error_string(status) : "NVML error " + std::to_string(status);
  }
  ~Nvml() {
    if (initialised) shutdown();
    if (library) dlclose(library);
  }
};

EnergyMeter::EnergyMeter() : nvml_(std::make_unique<Nvml>()) {
  Nvml& nvml = *nvml_;
  int device = 0;
  char bus_id[32] = {};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess) {
    cudaGetLastError();  // clear it: energy is optional
    why_ = "no usable GPU";
    return;
  }
  nvml.library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml.library) {
    why_ = dlerror();
    return;
  }
  if (!nvml.resolve(nvml.init, "nvmlInit_v2") || !nvml.resolve(nvml.shutdown, "nvmlShutdown") ||
      !nvml.resolve(nvml.by_pci_bus_id, "nvmlDeviceGetHandleByPciBusId_v2") ||
      !nvml.resolve(nvml.power_usage, "nvmlDeviceGetPowerUsage") ||
      !nvml.resolve(nvml.error_string, "nvmlErrorString")) {
    why_ = "libnvidia-ml.so.1 lacks the NVML functions needed";
    return;
  }
  nvml.resolve(nvml.total_energy, "nvmlDeviceGetTotalEnergyConsumption");
  nvml.resolve(nvml.clock_info, "nvmlDeviceGetClockInfo");
  nvml.resolve(nvml.temperature, "nvmlDeviceGetTemperature");
  if (const Nvml::Return status = nvml.init(); status != 0) {
    why_ = "nvmlInit: " + nvml.error(status);
    return;
  }
  nvml.initialised = true;
  if (const Nvml::Return status = nvml.by_pci_bus_id(bus_id, &nvml.device); status != 0) {
    why_ = std::string("NVML has no device at PCI ") + bus_id + ": " + nvml.error(status);
    return;
  }
  unsigned long long mj = 0;
  counter_ = nvml.total_energy && nvml.total_energy(nvml.device, &mj) == 0;
  unsigned int mw = 0;
  if (!counter_ && nvml.power_usage(nvml.device, &mw) != 0) {
    why_ = "the GPU reports neither its energy nor its power";
    return;
  }
  available_ = true;
}

EnergyMeter::~EnergyMeter() {
  if (sampler_.joinable()) {
    sampling_ = false;
    sampler_.join();
  }
}

std::optional<unsigned> EnergyMeter::sm_clock_mhz() const {
  unsigned int mhz = 0;
  if (!available_ || !nvml_->clock_info || nvml_->clock_info(nvml_->device, 1, &mhz) != 0)
    return std::nullopt;
  return mhz;
}

std::optional<unsigned> EnergyMeter::temperature_c() const {
  unsigned int celsius = 0;
  if (!available_ || !nvml_->temperature || nvml_->temperature(nvml_->device, 0, &celsius) != 0)
    return std::nullopt;
  return celsius;
}

void EnergyMeter::start() {
  if (!available_) throw std::logic_error("EnergyMeter::start: unavailable: " + why_);
  if (sampler_.joinable()) {
    sampling_ = false;
    sampler_.join();
  }
  started_ = true;
  if (counter_) {
    nvml_->total_energy(nvml_->device, &start_mj_);
    return;
  }
  sampled_mj_ = 0;
  sampling_ = true;
  sampler_ = std::thread([this] { sample_power(); });
}

double EnergyMeter::stop() {
  if (!started_) throw std::logic_error("EnergyMeter::stop called before start");
  started_ = false;
  if (counter_) {
    unsigned long long now = start_mj_;
    nvml_->total_energy(nvml_->device, &now);
    return double(now - start_mj_);
  }
  sampling_ = false;
  sampler_.join();
  return sampled_mj_;
}

// Trapezoids of the power draw (mW) over the sampling steps (ms): mJ.
void EnergyMeter::sample_power() {
  using Clock = std::chrono::steady_clock;
  unsigned int last_mw = 0;
  nvml_->power_usage(nvml_->device, &last_mw);
  Clock::time_point last = Clock::now();
  while (sampling_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    unsigned int mw = last_mw;
    nvml_->power_usage(nvml_->device, &mw);
    const Clock::time_point now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - last).count();
    sampled_mj_ += 0.5 * (double(last_mw) + double(mw)) * seconds;
    last_mw = mw;
    last = now;
  }
}

}  // namespace irgl::gpu
