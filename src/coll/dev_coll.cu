// Kernels behind the shmemx_*_on_stream collectives (and host collectives on the device heap).
// Built into a fatbin (sm_90 SASS + compute_90 PTX), embedded in libgshmem and loaded through the
// driver on first use; they run the same code as the in-kernel collectives
// (device/gshmem/impl/coll.cuh) with one block per row. The host validated every argument, so the
// per-call device checks are off; team handles are still checked.
// This module's copy of the device state is an external symbol the library fills from the
// published state (cuModuleGetGlobal): see gshmem/state.cuh.
#define GSHMEM_DEVICE_STATE_MODULE
#define GSHMEM_DEVICE_CHECKS 0
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "gshmem/impl/coll.cuh"

using namespace gshmem::dev;

#define K extern "C" __global__ void __launch_bounds__(1024)

// Barrier and sync are the same phase. The kernel boundary orders the stream's earlier and later
// work (phase's BOUNDARY form: relaxed flags); one warp is enough for the flags of up to 8 peers.
K gshmem_k_sync(int team) {
  phase<Block, true>("shmemx_team_sync_on_stream", gshmem::dev::team("shmemx_team_sync_on_stream", team), 0);
}
K gshmem_k_broadcast(int team, void* d, const void* s, size_t bytes, int root, int scatter) {
  broadcast<Block>("shmemx_broadcastmem_on_stream", team, d, s, bytes, root, blockIdx.x, gridDim.x, scatter != 0);
}
K gshmem_k_fcollect(int team, void* d, const void* s, size_t bytes) {
  fcollect<Block>("shmemx_fcollectmem_on_stream", team, d, s, bytes, blockIdx.x, gridDim.x);
}
K gshmem_k_alltoall(int team, void* d, const void* s, size_t bytes) {
  alltoall<Block>("shmemx_alltoallmem_on_stream", team, d, s, bytes, blockIdx.x, gridDim.x);
}

K gshmem_k_collect(int team, void* d, const void* s, size_t bytes) {
  collect<Block>("shmemx_collectmem_on_stream", team, d, s, bytes);
}
K gshmem_k_alltoalls(int team, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem) {
  alltoalls<Block>("shmemx_alltoallsmem_on_stream", team, d, s, dst, sst, nelems, elem, blockIdx.x, gridDim.x);
}

// One kernel per (operation, representation): signed and unsigned integers share sum, prod and
// the bitwise operations; min and max need the signedness.
// Each (operation, representation) also has its reduce-scatter kernel.
#define KR(OPN, OP, TN, T)                                                                                       \
  K gshmem_k_reduce_##OPN##_##TN(int team, T* d, const T* s, size_t n) {                                         \
    reduce<Block, T, Reduce<OP>>("shmemx_reduce_on_stream", team, d, s, n, blockIdx.x, gridDim.x);               \
  }                                                                                                              \
  K gshmem_k_rs_##OPN##_##TN(int team, T* d, const T* s, size_t n) {                                             \
    reducescatter<Block, T, Reduce<OP>>("shmemx_reducescatter_on_stream", team, d, s, n, blockIdx.x, gridDim.x); \
  }
#define KR_INT(OPN, OP) \
  KR(OPN, OP, u8, uint8_t) KR(OPN, OP, u16, uint16_t) KR(OPN, OP, u32, uint32_t) KR(OPN, OP, u64, uint64_t)
#define KR_SIGNED(OPN, OP) \
  KR(OPN, OP, i8, int8_t) KR(OPN, OP, i16, int16_t) KR(OPN, OP, i32, int32_t) KR(OPN, OP, i64, int64_t)
#define KR_FLOAT(OPN, OP) \
  KR(OPN, OP, f32, float) KR(OPN, OP, f64, double) KR(OPN, OP, f16, __half) KR(OPN, OP, bf16, __nv_bfloat16)
KR_INT(and, GSHMEM_REDUCE_AND)
KR_INT(or, GSHMEM_REDUCE_OR)
KR_INT(xor, GSHMEM_REDUCE_XOR)
KR_INT(sum, GSHMEM_REDUCE_SUM)
KR_FLOAT(sum, GSHMEM_REDUCE_SUM)
KR_INT(prod, GSHMEM_REDUCE_PROD)
KR_FLOAT(prod, GSHMEM_REDUCE_PROD)
KR_INT(min, GSHMEM_REDUCE_MIN)
KR_SIGNED(min, GSHMEM_REDUCE_MIN)
KR_FLOAT(min, GSHMEM_REDUCE_MIN)
KR_INT(max, GSHMEM_REDUCE_MAX)
KR_SIGNED(max, GSHMEM_REDUCE_MAX)
KR_FLOAT(max, GSHMEM_REDUCE_MAX)

// OpenSHMEM 1.6 scans (sum): signed and unsigned integers share the kernels.
#define KS(TN, T)                                                                                 \
  K gshmem_k_inscan_##TN(int team, T* d, const T* s, size_t n) {                                  \
    scan<Block, T, kInscan>("shmemx_sum_inscan_on_stream", team, d, s, n, blockIdx.x, gridDim.x); \
  }                                                                                               \
  K gshmem_k_exscan_##TN(int team, T* d, const T* s, size_t n) {                                  \
    scan<Block, T, kExscan>("shmemx_sum_exscan_on_stream", team, d, s, n, blockIdx.x, gridDim.x); \
  }
KS(u8, uint8_t)
KS(u16, uint16_t)
KS(u32, uint32_t)
KS(u64, uint64_t)
KS(f32, float)
KS(f64, double)
