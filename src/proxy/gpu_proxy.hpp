// The GPU proxy: the host side of the trigger FIFO GPU threads push into for PEs they do not reach
// by loads and stores (other nodes; every peer with GSHMEM_FORCE_PROXY). A pinned, device-mapped
// ring, the GPU-memory words producers reserve slots and poll completion with, and one thread per
// PE that runs the executor (executor.hpp) over the route table's transports (the copy engine for
// mapped peers, ucx or tcp for the others). Device side: device/gshmem/impl/proxy.cuh. Design
// notes: docs/transport.md.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.hpp"
#include "gshmem/device_host/state.h"
#include "mem/device_ops.hpp"
#include "transport/transport.hpp"

namespace gshmem::proxy {

#if GSHMEM_HAVE_CUDA
class GpuProxy {
 public:
  // Allocates the FIFO (fifo_slots rounded up to a power of two, 64..16M) and its words; the
  // thread starts with start().
  static Status create(mem::DeviceOps& ops, int npes, int64_t fifo_slots, std::unique_ptr<GpuProxy>* out);
  ~GpuProxy();  // stops the thread (after a final quiet) and frees the FIFO
  GpuProxy(const GpuProxy&) = delete;
  GpuProxy& operator=(const GpuProxy&) = delete;

  // The GPU-memory word producers poll for completion: a transport with completion marks (the
  // copy engine) writes each completed token there itself.
  CUdeviceptr completion_word() const;
  // via[pe]: the transport for triggers to pe (null: pe is reached by loads and stores). Starts the
  // proxy thread and its watchdog.
  Status start(std::vector<transport::Transport*> via);
  // The FIFO's addresses for the device state.
  void fill(gshmem_device_state* s) const;
  // Host side: waits until every trigger GPU threads have pushed so far has completed.
  void quiet();

  struct Impl;

 private:
  explicit GpuProxy(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};
#endif

}  // namespace gshmem::proxy
