// Collectives: team-based (OpenSHMEM 1.5) and the deprecated active-set forms, each one call into
// coll/team_coll.hpp.
#include <shmem.h>
#include <shmemx.h>

#include "coll/team_coll.hpp"

using namespace gshmem;

extern "C" {

int shmem_broadcastmem(shmem_team_t t, void* d, const void* s, size_t n, int root) {
  return coll::broadcast("shmem_broadcastmem", t, d, s, n, 1, root);
}
int shmem_collectmem(shmem_team_t t, void* d, const void* s, size_t n) {
  return coll::collect("shmem_collectmem", t, d, s, n, 1);
}
int shmem_fcollectmem(shmem_team_t t, void* d, const void* s, size_t n) {
  return coll::fcollect("shmem_fcollectmem", t, d, s, n, 1);
}
int shmem_alltoallmem(shmem_team_t t, void* d, const void* s, size_t n) {
  return coll::alltoall("shmem_alltoallmem", t, d, s, n, 1);
}
int shmem_alltoallsmem(shmem_team_t t, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n) {
  return coll::alltoalls("shmem_alltoallsmem", t, d, s, dst, sst, n, 1);
}

#define GSHMEM_DEF_TEAM_COLL(T, N)                                                                      \
  int shmem_##N##_broadcast(shmem_team_t t, T* d, const T* s, size_t n, int root) {                     \
    return coll::broadcast("shmem_" #N "_broadcast", t, d, s, n, sizeof(T), root);                      \
  }                                                                                                     \
  int shmem_##N##_collect(shmem_team_t t, T* d, const T* s, size_t n) {                                 \
    return coll::collect("shmem_" #N "_collect", t, d, s, n, sizeof(T));                                \
  }                                                                                                     \
  int shmem_##N##_fcollect(shmem_team_t t, T* d, const T* s, size_t n) {                                \
    return coll::fcollect("shmem_" #N "_fcollect", t, d, s, n, sizeof(T));                              \
  }                                                                                                     \
  int shmem_##N##_alltoall(shmem_team_t t, T* d, const T* s, size_t n) {                                \
    return coll::alltoall("shmem_" #N "_alltoall", t, d, s, n, sizeof(T));                              \
  }                                                                                                     \
  int shmem_##N##_alltoalls(shmem_team_t t, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n) { \
    return coll::alltoalls("shmem_" #N "_alltoalls", t, d, s, dst, sst, n, sizeof(T));                  \
  }
GSHMEM_RMA_TYPES(GSHMEM_DEF_TEAM_COLL)
#undef GSHMEM_DEF_TEAM_COLL

#define GSHMEM_DEF_REDUCE(T, N, OP, F)                                        \
  int shmem_##N##_##OP##_reduce(shmem_team_t t, T* d, const T* s, size_t n) { \
    return coll::reduce<T, F>("shmem_" #N "_" #OP "_reduce", t, d, s, n);     \
  }
#define GSHMEM_DEF_REDUCE_BIT(T, N)               \
  GSHMEM_DEF_REDUCE(T, N, and, GSHMEM_REDUCE_AND) \
  GSHMEM_DEF_REDUCE(T, N, or, GSHMEM_REDUCE_OR) GSHMEM_DEF_REDUCE(T, N, xor, GSHMEM_REDUCE_XOR)
#define GSHMEM_DEF_REDUCE_MINMAX(T, N) \
  GSHMEM_DEF_REDUCE(T, N, max, GSHMEM_REDUCE_MAX) GSHMEM_DEF_REDUCE(T, N, min, GSHMEM_REDUCE_MIN)
#define GSHMEM_DEF_REDUCE_ARITH(T, N) \
  GSHMEM_DEF_REDUCE(T, N, sum, GSHMEM_REDUCE_SUM) GSHMEM_DEF_REDUCE(T, N, prod, GSHMEM_REDUCE_PROD)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_REDUCE_BIT)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DEF_REDUCE_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DEF_REDUCE_ARITH)
GSHMEM_REDUCE_COMPLEX_TYPES(GSHMEM_DEF_REDUCE_ARITH)

// OpenSHMEM 1.6 scans over every SUM type.
#define GSHMEM_DEF_SCAN(T, N)                                              \
  int shmem_##N##_sum_inscan(shmem_team_t t, T* d, const T* s, size_t n) { \
    return coll::scan<T>("shmem_" #N "_sum_inscan", t, d, s, n, false);    \
  }                                                                        \
  int shmem_##N##_sum_exscan(shmem_team_t t, T* d, const T* s, size_t n) { \
    return coll::scan<T>("shmem_" #N "_sum_exscan", t, d, s, n, true);     \
  }
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DEF_SCAN)
GSHMEM_REDUCE_COMPLEX_TYPES(GSHMEM_DEF_SCAN)
#undef GSHMEM_DEF_SCAN

// Reduce-scatter (gshmem extension, NVSHMEM's nvshmem_TYPE_OP_reducescatter).
#define GSHMEM_DEF_RS(T, N, OP, F)                                                       \
  int shmemx_##N##_##OP##_reducescatter(shmem_team_t t, T* d, const T* s, size_t n) {    \
    return coll::reducescatter<T, F>("shmemx_" #N "_" #OP "_reducescatter", t, d, s, n); \
  }
#define GSHMEM_DEF_RS_BIT(T, N)               \
  GSHMEM_DEF_RS(T, N, and, GSHMEM_REDUCE_AND) \
  GSHMEM_DEF_RS(T, N, or, GSHMEM_REDUCE_OR) GSHMEM_DEF_RS(T, N, xor, GSHMEM_REDUCE_XOR)
#define GSHMEM_DEF_RS_ARITH(T, N)             \
  GSHMEM_DEF_RS(T, N, max, GSHMEM_REDUCE_MAX) \
  GSHMEM_DEF_RS(T, N, min, GSHMEM_REDUCE_MIN) \
  GSHMEM_DEF_RS(T, N, sum, GSHMEM_REDUCE_SUM) GSHMEM_DEF_RS(T, N, prod, GSHMEM_REDUCE_PROD)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_RS_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DEF_RS_ARITH)
#undef GSHMEM_DEF_RS_BIT
#undef GSHMEM_DEF_RS_ARITH
#undef GSHMEM_DEF_RS

// half and bfloat16 reductions and reduce-scatter from the host (gshmem extension).
#define GSHMEM_DEF_RED16(T, N, KIND, OP, F)                                                  \
  int shmemx_##N##_##OP##_reduce(shmem_team_t t, T* d, const T* s, size_t n) {               \
    return coll::reduce16<F, KIND>("shmemx_" #N "_" #OP "_reduce", t, d, s, n, false);       \
  }                                                                                          \
  int shmemx_##N##_##OP##_reducescatter(shmem_team_t t, T* d, const T* s, size_t n) {        \
    return coll::reduce16<F, KIND>("shmemx_" #N "_" #OP "_reducescatter", t, d, s, n, true); \
  }
#define GSHMEM_DEF_RED16_ALL(T, N, KIND)               \
  GSHMEM_DEF_RED16(T, N, KIND, max, GSHMEM_REDUCE_MAX) \
  GSHMEM_DEF_RED16(T, N, KIND, min, GSHMEM_REDUCE_MIN) \
  GSHMEM_DEF_RED16(T, N, KIND, sum, GSHMEM_REDUCE_SUM) GSHMEM_DEF_RED16(T, N, KIND, prod, GSHMEM_REDUCE_PROD)
GSHMEM_DEF_RED16_ALL(shmemx_half_t, half, 'h')
GSHMEM_DEF_RED16_ALL(shmemx_bfloat16_t, bfloat16, 'b')
#undef GSHMEM_DEF_RED16_ALL
#undef GSHMEM_DEF_RED16

// ---- Deprecated active-set forms ----
void shmem_barrier(int start, int ls, int size, long* pSync) {
  coll::active_sync("shmem_barrier", start, ls, size, pSync, /*quiet_first=*/true);
}
void shmem_sync(int start, int ls, int size, long* pSync) {
  coll::active_sync("shmem_sync", start, ls, size, pSync, /*quiet_first=*/false);
}

#define GSHMEM_DEF_ACTIVE_SIZED(B)                                                                                     \
  void shmem_broadcast##B(void* d, const void* s, size_t n, int root, int start, int ls, int size, long* pSync) {      \
    coll::active_broadcast("shmem_broadcast" #B, d, s, coll::bytes_of("shmem_broadcast" #B, n, B / 8), root, start,    \
                           ls, size, pSync);                                                                           \
  }                                                                                                                    \
  void shmem_collect##B(void* d, const void* s, size_t n, int start, int ls, int size, long* pSync) {                  \
    coll::active_collect("shmem_collect" #B, d, s, coll::bytes_of("shmem_collect" #B, n, B / 8), start, ls, size,      \
                         pSync);                                                                                       \
  }                                                                                                                    \
  void shmem_fcollect##B(void* d, const void* s, size_t n, int start, int ls, int size, long* pSync) {                 \
    coll::active_fcollect("shmem_fcollect" #B, d, s, coll::bytes_of("shmem_fcollect" #B, n, B / 8), start, ls, size,   \
                          pSync);                                                                                      \
  }                                                                                                                    \
  void shmem_alltoall##B(void* d, const void* s, size_t n, int start, int ls, int size, long* pSync) {                 \
    coll::active_alltoall("shmem_alltoall" #B, d, s, coll::bytes_of("shmem_alltoall" #B, n, B / 8), start, ls, size,   \
                          pSync);                                                                                      \
  }                                                                                                                    \
  void shmem_alltoalls##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int start, int ls, int size, \
                          long* pSync) {                                                                               \
    coll::active_alltoalls("shmem_alltoalls" #B, d, s, dst, sst, n, B / 8, start, ls, size, pSync);                    \
  }
GSHMEM_DEF_ACTIVE_SIZED(32)
GSHMEM_DEF_ACTIVE_SIZED(64)
#undef GSHMEM_DEF_ACTIVE_SIZED

#define GSHMEM_DEF_TO_ALL(T, N, OP, F)                                                                         \
  void shmem_##N##_##OP##_to_all(T* d, const T* s, int n, int start, int ls, int size, T* pWrk, long* pSync) { \
    (void)pWrk;                                                                                                \
    coll::active_reduce<T, F>("shmem_" #N "_" #OP "_to_all", d, s, n, start, ls, size, pSync);                 \
  }
#define GSHMEM_DEF_TO_ALL_BIT(T, N)               \
  GSHMEM_DEF_TO_ALL(T, N, and, GSHMEM_REDUCE_AND) \
  GSHMEM_DEF_TO_ALL(T, N, or, GSHMEM_REDUCE_OR) GSHMEM_DEF_TO_ALL(T, N, xor, GSHMEM_REDUCE_XOR)
#define GSHMEM_DEF_TO_ALL_ARITH(T, N)             \
  GSHMEM_DEF_TO_ALL(T, N, max, GSHMEM_REDUCE_MAX) \
  GSHMEM_DEF_TO_ALL(T, N, min, GSHMEM_REDUCE_MIN) \
  GSHMEM_DEF_TO_ALL(T, N, sum, GSHMEM_REDUCE_SUM) GSHMEM_DEF_TO_ALL(T, N, prod, GSHMEM_REDUCE_PROD)
GSHMEM_TO_ALL_BIT_TYPES(GSHMEM_DEF_TO_ALL_BIT)
GSHMEM_TO_ALL_ARITH_TYPES(GSHMEM_DEF_TO_ALL_ARITH)
GSHMEM_DEF_TO_ALL(double _Complex, complexd, sum, GSHMEM_REDUCE_SUM)
GSHMEM_DEF_TO_ALL(double _Complex, complexd, prod, GSHMEM_REDUCE_PROD)
GSHMEM_DEF_TO_ALL(float _Complex, complexf, sum, GSHMEM_REDUCE_SUM)
GSHMEM_DEF_TO_ALL(float _Complex, complexf, prod, GSHMEM_REDUCE_PROD)

}  // extern "C"
