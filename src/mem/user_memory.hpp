// Registrable memory for shmemx_mem_alloc (the user-buffer-registration allocator): on a GPU PE,
// cuMem VMM memory of the PE's GPU created exportable as a POSIX file descriptor, so it can be
// registered with a NIC (dma-buf) and mapped by same-node peers into the symmetric window
// (shmemx_buffer_register_symmetric); on a CPU PE, memfd-backed host memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "common/status.hpp"
#include "mem/gpu.hpp"

namespace gshmem::mem {

struct UserAlloc {
  uintptr_t base = 0;
  size_t bytes = 0;   // what the caller asked for
  size_t mapped = 0;  // rounded up to the VMM granularity (device) or the page size (host)
  bool device = false;
#if GSHMEM_HAVE_CUDA
  CUmemGenericAllocationHandle h{};
#endif
};

class UserAllocations {
 public:
  // g: the PE's GPU, or null for host memory. out_of_memory / system_error are logged.
  Status alloc(const GpuContext* g, size_t bytes, void** out);
  // invalid_argument when ptr is not the start of an allocation made here.
  Status free(void* ptr);
  // The allocation that contains [p, p + n), if any.
  bool find(const void* p, size_t n, UserAlloc* out) const;
  void release_all() noexcept;

 private:
  mutable std::mutex mu_;
  std::vector<UserAlloc> allocs_;
#if GSHMEM_HAVE_CUDA
  const cu::Driver* drv_ = nullptr;
#endif
};

}  // namespace gshmem::mem
