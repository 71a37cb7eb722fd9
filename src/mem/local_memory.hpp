// How code that moves bytes for peers (the transports, the proxy) touches this process's memory,
// which may be GPU memory on a GPU PE: stage bytes through host buffers and apply atomics with the
// GPU's own atomics. Host memory needs none of it (plain copies and CPU atomics).
#pragma once
#include <cstddef>
#include <cstdint>

#include "gshmem/device_host/ops.h"

namespace gshmem::mem {

class LocalMemory {
 public:
  virtual ~LocalMemory() = default;
  virtual bool is_device(const void* p) const = 0;
  virtual void copy(void* dst, const void* src, size_t n) = 0;  // either side may be GPU memory
  // A system-scope atomic on GPU memory p (size 4 or 8); returns the old value (zero-extended).
  virtual uint64_t amo(void* p, gshmem_amo_op op, size_t size, uint64_t a, uint64_t b) = 0;
};

// Stores n bytes at dst, which may be GPU memory (mem may be null: host memory only).
void store_local(LocalMemory* mem, void* dst, const void* src, size_t n);

}  // namespace gshmem::mem
