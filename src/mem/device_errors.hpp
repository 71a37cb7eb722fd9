// Device errors reported by kernels (device/gshmem/impl/core.cuh: a failing device check writes
// one gshmem_device_error and traps, instead of printing from the GPU). The record is host memory
// registered for the device, so the host can read it after the trap has made the CUDA context
// unusable, or after the program destroyed the context. The runtime prints it, once, from every place a failing PE
// passes on its way out: shmem_global_exit, the job-abort hook of a fatal error, the health monitor's period,
// shmem_finalize and exit (atexit). A second reporter waits until the first has written the message.
#pragma once
#include <cstdint>

#include "mem/gpu.hpp"

namespace gshmem::mem {

#if GSHMEM_HAVE_CUDA
// Makes this PE's record; returns its device address for the device state (0, after a warning,
// when the driver cannot map it: device checks then trap without a message).
uint64_t device_errors_create(GpuContext& g);
// A last report, then the record's device mapping goes (the host memory stays: exit may report).
void device_errors_destroy(GpuContext& g);
#endif
// Prints the record as "gshmem[pe N]: call: what (...)" if a kernel wrote it and it was not printed
// yet; true if it printed. Any thread, at any time; a no-op without a record.
bool device_errors_report() noexcept;

}  // namespace gshmem::mem
