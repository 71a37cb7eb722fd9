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
// The device team phase's release flag stores order the stream's earlier stores (as in
// shmemx_barrier_all_on_stream), so the sync kernel is the barrier.
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

#define GSHMEM_DEF_COLL_STREAM(T, N)                                                                    \
  int shmemx_##N##_collect_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {  \
    const char* call = "shmemx_" #N "_collect_on_stream";                                               \
    coll::dev_collect(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), core::collective_stream(st));                                    \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_alltoalls_on_stream(shmem_team_t team, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, \
                                       cudaStream_t st) {                                               \
    coll::dev_alltoalls("shmemx_" #N "_alltoalls_on_stream", team, d, s, dst, sst, n, sizeof(T), core::collective_stream(st));         \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_broadcast_on_stream(shmem_team_t team, T* d, const T* s, size_t n, int root, cudaStream_t st) { \
    const char* call = "shmemx_" #N "_broadcast_on_stream";                                             \
    coll::dev_broadcast(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), root, core::collective_stream(st));                            \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_fcollect_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) { \
    const char* call = "shmemx_" #N "_fcollect_on_stream";                                              \
    coll::dev_fcollect(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), core::collective_stream(st));                                   \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_alltoall_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) { \
    const char* call = "shmemx_" #N "_alltoall_on_stream";                                              \
    coll::dev_alltoall(call, team, d, s, coll::bytes_of(call, n, sizeof(T)), core::collective_stream(st));                                   \
    return 0;                                                                                           \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_DEF_COLL_STREAM)
#undef GSHMEM_DEF_COLL_STREAM

#define GSHMEM_DEF_REDUCE_STREAM(T, N, OP, F)                                                            \
  int shmemx_##N##_##OP##_reduce_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) { \
    coll::dev_reduce("shmemx_" #N "_" #OP "_reduce_on_stream", team, d, s, n, sizeof(T), coll::element_kind<T>(), \
                     F, core::collective_stream(st));                                                   \
    return 0;                                                                                           \
  }
#define GSHMEM_DEF_REDUCE_STREAM_BIT(T, N) \
  GSHMEM_DEF_REDUCE_STREAM(T, N, and, GSHMEM_REDUCE_AND) GSHMEM_DEF_REDUCE_STREAM(T, N, or, GSHMEM_REDUCE_OR) GSHMEM_DEF_REDUCE_STREAM(T, N, xor, GSHMEM_REDUCE_XOR)
#define GSHMEM_DEF_REDUCE_STREAM_MINMAX(T, N) GSHMEM_DEF_REDUCE_STREAM(T, N, max, GSHMEM_REDUCE_MAX) GSHMEM_DEF_REDUCE_STREAM(T, N, min, GSHMEM_REDUCE_MIN)
#define GSHMEM_DEF_REDUCE_STREAM_ARITH(T, N) GSHMEM_DEF_REDUCE_STREAM(T, N, sum, GSHMEM_REDUCE_SUM) GSHMEM_DEF_REDUCE_STREAM(T, N, prod, GSHMEM_REDUCE_PROD)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_REDUCE_STREAM_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DEF_REDUCE_STREAM_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DEF_REDUCE_STREAM_ARITH)

// half and bfloat16: element kinds 'h' and 'b' (coll::dev_reduce)
#define GSHMEM_DEF_REDUCE_STREAM16(T, N, OP, F, KIND)                                                    \
  int shmemx_##N##_##OP##_reduce_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) { \
    static_assert(sizeof(T) == 2, "16-bit floating type");                                              \
    coll::dev_reduce("shmemx_" #N "_" #OP "_reduce_on_stream", team, d, s, n, 2, KIND, F,               \
                     core::collective_stream(st));                                                      \
    return 0;                                                                                           \
  }
#define GSHMEM_DEF_REDUCE_STREAM16_ALL(T, N, KIND)                   \
  GSHMEM_DEF_REDUCE_STREAM16(T, N, sum, GSHMEM_REDUCE_SUM, KIND)     \
  GSHMEM_DEF_REDUCE_STREAM16(T, N, prod, GSHMEM_REDUCE_PROD, KIND)   \
  GSHMEM_DEF_REDUCE_STREAM16(T, N, min, GSHMEM_REDUCE_MIN, KIND)     \
  GSHMEM_DEF_REDUCE_STREAM16(T, N, max, GSHMEM_REDUCE_MAX, KIND)
GSHMEM_DEF_REDUCE_STREAM16_ALL(shmemx_half_t, half, 'h')
GSHMEM_DEF_REDUCE_STREAM16_ALL(shmemx_bfloat16_t, bfloat16, 'b')

}  // extern "C"
