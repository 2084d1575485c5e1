// PLACEHOLDER: replaced by the device runtime's host-side sources.
namespace irgl { void gpu_runtime_placeholder() {} }
