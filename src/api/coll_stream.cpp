// On-stream team collectives (shmemx_*_on_stream): one call each into coll/gpu_coll.hpp.
#include <shmem.h>
#include <shmemx.h>

#include "coll/gpu_coll.hpp"
#include "coll/team_coll.hpp"
#include "core/streams.hpp"

using namespace gshmem;

extern "C" {

void shmemx_team_sync_on_stream(shmem_team_t team, cudaStream_t stream) {
  coll::dev_team_sync("shmemx_team_sync_on_stream", team, core::collective_stream(stream));
}
void shmemx_sync_all_on_stream(cudaStream_t stream) { shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, stream); }
// The sync kernel is the barrier: the kernel boundary completes the stream's earlier stores, and
// its phase quiets what earlier kernels pushed to the proxy (docs/memory-model.md).
void shmemx_team_barrier_on_stream(shmem_team_t team, cudaStream_t stream) {
  coll::dev_team_sync("shmemx_team_barrier_on_stream", team, core::collective_stream(stream));
}

int shmemx_broadcastmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, int root, cudaStream_t stream) {
  coll::dev_broadcast("shmemx_broadcastmem_on_stream", team, d, s, n, root, core::collective_stream(stream));
  return 0;
}
int shmemx_fcollectmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, cudaStream_t stream) {
  coll::dev_fcollect("shmemx_fcollectmem_on_stream", team, d, s, n, core::collective_stream(stream));
  return 0;
}
int shmemx_alltoallmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, cudaStream_t stream) {
  coll::dev_alltoall("shmemx_alltoallmem_on_stream", team, d, s, n, core::collective_stream(stream));
  return 0;
}

int shmemx_collectmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, cudaStream_t stream) {
  coll::dev_collect("shmemx_collectmem_on_stream", team, d, s, n, core::collective_stream(stream));
  return 0;
}
int shmemx_alltoallsmem_on_stream(shmem_team_t team, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n,
                                  cudaStream_t stream) {
  coll::dev_alltoalls("shmemx_alltoallsmem_on_stream", team, d, s, dst, sst, n, 1, core::collective_stream(stream));
  return 0;
}

#define GSHMEM_DEF_COLL_STREAM(T, N)                                                                                \
  int shmemx_##N##_collect_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {              \
    const char* call = "shmemx_" #N "_collect_on_stream";                                                           \
    coll::dev_collect(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), core::collective_stream(st));           \
    return 0;                                                                                                       \
  }                                                                                                                 \
  int shmemx_##N##_alltoalls_on_stream(shmem_team_t team, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, \
                                       cudaStream_t st) {                                                           \
    coll::dev_alltoalls("shmemx_" #N "_alltoalls_on_stream", team, d, s, dst, sst, n, sizeof(T),                    \
                        core::collective_stream(st));                                                               \
    return 0;                                                                                                       \
  }                                                                                                                 \
  int shmemx_##N##_broadcast_on_stream(shmem_team_t team, T* d, const T* s, size_t n, int root, cudaStream_t st) {  \
    const char* call = "shmemx_" #N "_broadcast_on_stream";                                                         \
    coll::dev_broadcast(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), root, core::collective_stream(st));   \
    return 0;                                                                                                       \
  }                                                                                                                 \
  int shmemx_##N##_fcollect_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {             \
    const char* call = "shmemx_" #N "_fcollect_on_stream";                                                          \
    coll::dev_fcollect(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), core::collective_stream(st));          \
    return 0;                                                                                                       \
  }                                                                                                                 \
  int shmemx_##N##_alltoall_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {             \
    const char* call = "shmemx_" #N "_alltoall_on_stream";                                                          \
    coll::dev_alltoall(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), core::collective_stream(st));          \
    return 0;                                                                                                       \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_DEF_COLL_STREAM)
#undef GSHMEM_DEF_COLL_STREAM

// Reductions and reduce-scatter on a stream: FAM is the family's name (reduce, reducescatter), FN
// its launcher in coll/gpu_coll.hpp. half and bfloat16 are element kinds 'h' and 'b'.
#define GSHMEM_DEF_RED_STREAM(T, N, OP, F, FAM, FN, SIZE, KIND)                                                      \
  int shmemx_##N##_##OP##_##FAM##_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {        \
    coll::FN("shmemx_" #N "_" #OP "_" #FAM "_on_stream", team, d, s, n, SIZE, KIND, F, core::collective_stream(st)); \
    return 0;                                                                                                        \
  }
#define GSHMEM_DEF_RED_STREAM_BIT(T, N, FAM, FN)                                                   \
  GSHMEM_DEF_RED_STREAM(T, N, and, GSHMEM_REDUCE_AND, FAM, FN, sizeof(T), coll::element_kind<T>()) \
  GSHMEM_DEF_RED_STREAM(T, N, or, GSHMEM_REDUCE_OR, FAM, FN, sizeof(T), coll::element_kind<T>())   \
  GSHMEM_DEF_RED_STREAM(T, N, xor, GSHMEM_REDUCE_XOR, FAM, FN, sizeof(T), coll::element_kind<T>())
#define GSHMEM_DEF_RED_STREAM_ARITH(T, N, FAM, FN, SIZE, KIND)             \
  GSHMEM_DEF_RED_STREAM(T, N, max, GSHMEM_REDUCE_MAX, FAM, FN, SIZE, KIND) \
  GSHMEM_DEF_RED_STREAM(T, N, min, GSHMEM_REDUCE_MIN, FAM, FN, SIZE, KIND) \
  GSHMEM_DEF_RED_STREAM(T, N, sum, GSHMEM_REDUCE_SUM, FAM, FN, SIZE, KIND) \
  GSHMEM_DEF_RED_STREAM(T, N, prod, GSHMEM_REDUCE_PROD, FAM, FN, SIZE, KIND)
#define GSHMEM_DEF_RED_BIT_BOTH(T, N) \
  GSHMEM_DEF_RED_STREAM_BIT(T, N, reduce, dev_reduce) GSHMEM_DEF_RED_STREAM_BIT(T, N, reducescatter, dev_reducescatter)
#define GSHMEM_DEF_RED_ARITH_BOTH(T, N)                                                     \
  GSHMEM_DEF_RED_STREAM_ARITH(T, N, reduce, dev_reduce, sizeof(T), coll::element_kind<T>()) \
  GSHMEM_DEF_RED_STREAM_ARITH(T, N, reducescatter, dev_reducescatter, sizeof(T), coll::element_kind<T>())
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_RED_BIT_BOTH)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DEF_RED_ARITH_BOTH)
static_assert(sizeof(shmemx_half_t) == 2 && sizeof(shmemx_bfloat16_t) == 2, "16-bit floating types");
GSHMEM_DEF_RED_STREAM_ARITH(shmemx_half_t, half, reduce, dev_reduce, 2, 'h')
GSHMEM_DEF_RED_STREAM_ARITH(shmemx_half_t, half, reducescatter, dev_reducescatter, 2, 'h')
GSHMEM_DEF_RED_STREAM_ARITH(shmemx_bfloat16_t, bfloat16, reduce, dev_reduce, 2, 'b')
GSHMEM_DEF_RED_STREAM_ARITH(shmemx_bfloat16_t, bfloat16, reducescatter, dev_reducescatter, 2, 'b')

// OpenSHMEM 1.6 scans on a stream.
#define GSHMEM_DEF_SCAN_STREAM(T, N)                                                                               \
  int shmemx_##N##_sum_inscan_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {          \
    coll::dev_scan("shmemx_" #N "_sum_inscan_on_stream", team, d, s, n, sizeof(T), coll::element_kind<T>(), false, \
                   core::collective_stream(st));                                                                   \
    return 0;                                                                                                      \
  }                                                                                                                \
  int shmemx_##N##_sum_exscan_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {          \
    coll::dev_scan("shmemx_" #N "_sum_exscan_on_stream", team, d, s, n, sizeof(T), coll::element_kind<T>(), true,  \
                   core::collective_stream(st));                                                                   \
    return 0;                                                                                                      \
  }
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DEF_SCAN_STREAM)
#undef GSHMEM_DEF_SCAN_STREAM

}  // extern "C"
