// Kernels behind host-initiated atomics on GPU memory (the host cannot issue NVLink atomics).
// Compiled to PTX at build time, embedded in libgshmem, JIT-loaded through the driver on first
// use. One thread performs one system-scope atomic; out (may be null) receives the old value.
enum { op_fetch, op_set, op_swap, op_cswap, op_add, op_and, op_or, op_xor };

template <typename T>
__device__ void amo(T* p, int op, T a, T b, T* out) {
  T old;
  switch (op) {
    case op_fetch: old = atomicAdd_system(p, T(0)); break;
    case op_set:
    case op_swap: old = atomicExch_system(p, a); break;
    case op_cswap: old = atomicCAS_system(p, a, b); break;
    case op_add: old = atomicAdd_system(p, a); break;
    case op_and: old = atomicAnd_system(p, a); break;
    case op_or: old = atomicOr_system(p, a); break;
    default: old = atomicXor_system(p, a); break;
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
