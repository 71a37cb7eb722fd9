// Kernels behind host-initiated atomics on GPU memory (the host cannot issue NVLink atomics).
// Compiled to a fatbin at build time (SASS for sm_90, PTX for other GPUs), embedded in libgshmem,
// loaded through the driver on first use. One thread performs one system-scope atomic; out (may
// be null) receives the old value. op: gshmem_amo_op; operands (a, b) as device_host/ops.h says
// (cswap: expected, new value).
#include "gshmem/device_host/ops.h"

template <typename T>
__device__ void amo(T* p, int op, T a, T b, T* out) {
  T old;
  switch (op) {
    case GSHMEM_AMO_FETCH:
      old = atomicAdd_system(p, T(0));
      break;
    case GSHMEM_AMO_SET:
    case GSHMEM_AMO_SWAP:
      old = atomicExch_system(p, a);
      break;
    case GSHMEM_AMO_CSWAP:
      old = atomicCAS_system(p, a, b);
      break;
    case GSHMEM_AMO_ADD:
      old = atomicAdd_system(p, a);
      break;
    case GSHMEM_AMO_AND:
      old = atomicAnd_system(p, a);
      break;
    case GSHMEM_AMO_OR:
      old = atomicOr_system(p, a);
      break;
    default:
      old = atomicXor_system(p, a);
      break;  // GSHMEM_AMO_XOR
  }
  __threadfence_system();
  if (out) *out = old;
}

extern "C" __global__ void gshmem_amo64(unsigned long long* p, int op, unsigned long long a, unsigned long long b,
                                        unsigned long long* out) {
  amo(p, op, a, b, out);
}
extern "C" __global__ void gshmem_amo32(unsigned int* p, int op, unsigned int a, unsigned int b, unsigned int* out) {
  amo(p, op, a, b, out);
}
