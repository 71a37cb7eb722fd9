// Team queries and collectives for device code (OpenSHMEM names at thread scope in the device
// pass; shmemx_*_warp / _block in both passes). Included by shmem.h after gshmem/teams.h.
// A collective is called by one thread (warp, block) per member PE, like NVSHMEM's; the team
// handle is the same small integer the host got from shmem_team_split_*. Algorithms and memory
// ordering: gshmem/impl/coll.cuh and docs/teams-collectives.md.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "gshmem/device_host/team.h"
#include "gshmem/device_host/type_tables.h"
#include "gshmem/impl/coll.cuh"

#ifdef __CUDA_ARCH__
GSHMEM_D int shmem_team_my_pe(shmem_team_t team) {
  if (static_cast<unsigned>(team) >= GSHMEM_DEV_MAX_TEAMS) return -1;
  const gshmem_device_team *d =
      reinterpret_cast<const gshmem_device_team *>(GSHMEM_DEV::ctrl(GSHMEM_DEV::st().my_pe, GSHMEM_DEV_CTRL_TEAMS)) +
      team;
  return d->valid ? d->my_index : -1;
}
GSHMEM_D int shmem_team_n_pes(shmem_team_t team) {
  if (static_cast<unsigned>(team) >= GSHMEM_DEV_MAX_TEAMS) return -1;
  const gshmem_device_team *d =
      reinterpret_cast<const gshmem_device_team *>(GSHMEM_DEV::ctrl(GSHMEM_DEV::st().my_pe, GSHMEM_DEV_CTRL_TEAMS)) +
      team;
  return d->valid ? d->size : -1;
}
// The world PE of src_pe in src_team, as its index in dest_team (-1 when not a member, or for an
// invalid team or index), from the teams' strided layouts.
GSHMEM_D int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  if (static_cast<unsigned>(src_team) >= GSHMEM_DEV_MAX_TEAMS ||
      static_cast<unsigned>(dest_team) >= GSHMEM_DEV_MAX_TEAMS)
    return -1;
  const gshmem_device_team *t =
      reinterpret_cast<const gshmem_device_team *>(GSHMEM_DEV::ctrl(GSHMEM_DEV::st().my_pe, GSHMEM_DEV_CTRL_TEAMS));
  const gshmem_device_team &s = t[src_team], &d = t[dest_team];
  if (s.valid != 1 || d.valid != 1 || src_pe < 0 || src_pe >= s.size) return -1;
  const int world = s.start + src_pe * s.stride;
  const int off = world - d.start;
  if (d.stride == 0) return off == 0 && d.size > 0 ? 0 : -1;
  if (off % d.stride != 0) return -1;
  const int idx = off / d.stride;
  return idx >= 0 && idx < d.size ? idx : -1;
}
GSHMEM_D int shmem_team_sync(shmem_team_t team) {
  GSHMEM_DEV::team_sync<GSHMEM_DEV::Thread>("shmem_team_sync", team);
  return 0;
}
GSHMEM_D int shmemx_team_barrier(shmem_team_t team) {
  GSHMEM_DEV::team_barrier<GSHMEM_DEV::Thread>("shmemx_team_barrier", team);
  return 0;
}
GSHMEM_D void shmem_barrier_all(void) {
  GSHMEM_DEV::team_barrier<GSHMEM_DEV::Thread>("shmem_barrier_all", SHMEM_TEAM_WORLD);
}
GSHMEM_D void shmem_sync_all(void) { GSHMEM_DEV::team_sync<GSHMEM_DEV::Thread>("shmem_sync_all", SHMEM_TEAM_WORLD); }
GSHMEM_D int shmem_broadcastmem(shmem_team_t team, void *d, const void *s, size_t n, int root) {
  GSHMEM_DEV::broadcast<GSHMEM_DEV::Thread>("shmem_broadcastmem", team, d, s, n, root);
  return 0;
}
GSHMEM_D int shmem_fcollectmem(shmem_team_t team, void *d, const void *s, size_t n) {
  GSHMEM_DEV::fcollect<GSHMEM_DEV::Thread>("shmem_fcollectmem", team, d, s, n);
  return 0;
}
GSHMEM_D int shmem_alltoallmem(shmem_team_t team, void *d, const void *s, size_t n) {
  GSHMEM_DEV::alltoall<GSHMEM_DEV::Thread>("shmem_alltoallmem", team, d, s, n);
  return 0;
}
GSHMEM_D int shmem_collectmem(shmem_team_t team, void *d, const void *s, size_t n) {
  GSHMEM_DEV::collect<GSHMEM_DEV::Thread>("shmem_collectmem", team, d, s, n);
  return 0;
}
GSHMEM_D int shmem_alltoallsmem(shmem_team_t team, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n) {
  GSHMEM_DEV::alltoalls<GSHMEM_DEV::Thread>("shmem_alltoallsmem", team, d, s, dst, sst, n, 1);
  return 0;
}
#define GSHMEM_DDEF_COLL(T, N)                                                                                      \
  GSHMEM_D int shmem_##N##_collect(shmem_team_t team, T *d, const T *s, size_t n) {                                 \
    GSHMEM_DEV::collect<GSHMEM_DEV::Thread>("shmem_" #N "_collect", team, d, s, n * sizeof(T));                     \
    return 0;                                                                                                       \
  }                                                                                                                 \
  GSHMEM_D int shmem_##N##_alltoalls(shmem_team_t team, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n) { \
    GSHMEM_DEV::alltoalls<GSHMEM_DEV::Thread>("shmem_" #N "_alltoalls", team, d, s, dst, sst, n, sizeof(T));        \
    return 0;                                                                                                       \
  }                                                                                                                 \
  GSHMEM_D int shmem_##N##_broadcast(shmem_team_t team, T *d, const T *s, size_t n, int root) {                     \
    GSHMEM_DEV::broadcast<GSHMEM_DEV::Thread>("shmem_" #N "_broadcast", team, d, s, n * sizeof(T), root);           \
    return 0;                                                                                                       \
  }                                                                                                                 \
  GSHMEM_D int shmem_##N##_fcollect(shmem_team_t team, T *d, const T *s, size_t n) {                                \
    GSHMEM_DEV::fcollect<GSHMEM_DEV::Thread>("shmem_" #N "_fcollect", team, d, s, n * sizeof(T));                   \
    return 0;                                                                                                       \
  }                                                                                                                 \
  GSHMEM_D int shmem_##N##_alltoall(shmem_team_t team, T *d, const T *s, size_t n) {                                \
    GSHMEM_DEV::alltoall<GSHMEM_DEV::Thread>("shmem_" #N "_alltoall", team, d, s, n * sizeof(T));                   \
    return 0;                                                                                                       \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_DDEF_COLL)
#undef GSHMEM_DDEF_COLL
#define GSHMEM_DDEF_REDUCE(T, N, OP, F)                                                                             \
  GSHMEM_D int shmem_##N##_##OP##_reduce(shmem_team_t team, T *d, const T *s, size_t n) {                           \
    GSHMEM_DEV::reduce<GSHMEM_DEV::Thread, T, GSHMEM_DEV::Reduce<F>>("shmem_" #N "_" #OP "_reduce", team, d, s, n); \
    return 0;                                                                                                       \
  }
#define GSHMEM_DDEF_REDUCE_BIT(T, N)               \
  GSHMEM_DDEF_REDUCE(T, N, and, GSHMEM_REDUCE_AND) \
  GSHMEM_DDEF_REDUCE(T, N, or, GSHMEM_REDUCE_OR) GSHMEM_DDEF_REDUCE(T, N, xor, GSHMEM_REDUCE_XOR)
#define GSHMEM_DDEF_REDUCE_MINMAX(T, N) \
  GSHMEM_DDEF_REDUCE(T, N, max, GSHMEM_REDUCE_MAX) GSHMEM_DDEF_REDUCE(T, N, min, GSHMEM_REDUCE_MIN)
#define GSHMEM_DDEF_REDUCE_ARITH(T, N) \
  GSHMEM_DDEF_REDUCE(T, N, sum, GSHMEM_REDUCE_SUM) GSHMEM_DDEF_REDUCE(T, N, prod, GSHMEM_REDUCE_PROD)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DDEF_REDUCE_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DDEF_REDUCE_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DDEF_REDUCE_ARITH)
/* OpenSHMEM 1.6 scans (prefix sums) over the SUM types that live on the device */
#define GSHMEM_DDEF_SCAN(T, N)                                                                              \
  GSHMEM_D int shmem_##N##_sum_inscan(shmem_team_t team, T *d, const T *s, size_t n) {                      \
    GSHMEM_DEV::scan<GSHMEM_DEV::Thread, T, GSHMEM_DEV::kInscan>("shmem_" #N "_sum_inscan", team, d, s, n); \
    return 0;                                                                                               \
  }                                                                                                         \
  GSHMEM_D int shmem_##N##_sum_exscan(shmem_team_t team, T *d, const T *s, size_t n) {                      \
    GSHMEM_DEV::scan<GSHMEM_DEV::Thread, T, GSHMEM_DEV::kExscan>("shmem_" #N "_sum_exscan", team, d, s, n); \
    return 0;                                                                                               \
  }
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DDEF_SCAN)
#undef GSHMEM_DDEF_SCAN
#endif /* __CUDA_ARCH__ */

/* ---- shmemx_ reduction families at every scope (thread scope in the device pass, _warp and _block
 * in both): reduce-scatter (shmemx.h) for every reduction type, and half and bfloat16 reductions
 * (sum, prod, min, max; each step rounds to the type, in team order on every PE, as the on-stream
 * ones). FAM is the algorithm in impl/coll.cuh and the name's suffix. ---- */
#define GSHMEMX_DDEF_FAM_SCOPE(FAM, T, N, OP, F, S, SFX)                                                         \
  GSHMEM_D int shmemx_##N##_##OP##_##FAM##SFX(shmem_team_t team, T *d, const T *s, size_t n) {                   \
    GSHMEM_DEV::FAM<GSHMEM_DEV::S, T, GSHMEM_DEV::Reduce<F>>("shmemx_" #N "_" #OP "_" #FAM #SFX, team, d, s, n); \
    return 0;                                                                                                    \
  }
#ifdef __CUDA_ARCH__
#define GSHMEMX_DDEF_FAM(FAM, T, N, OP, F)           \
  GSHMEMX_DDEF_FAM_SCOPE(FAM, T, N, OP, F, Thread, ) \
  GSHMEMX_DDEF_FAM_SCOPE(FAM, T, N, OP, F, Warp, _warp) GSHMEMX_DDEF_FAM_SCOPE(FAM, T, N, OP, F, Block, _block)
#else
#define GSHMEMX_DDEF_FAM(FAM, T, N, OP, F) \
  GSHMEMX_DDEF_FAM_SCOPE(FAM, T, N, OP, F, Warp, _warp) GSHMEMX_DDEF_FAM_SCOPE(FAM, T, N, OP, F, Block, _block)
#endif
#define GSHMEMX_DDEF_FAM_ARITH(FAM, T, N)             \
  GSHMEMX_DDEF_FAM(FAM, T, N, max, GSHMEM_REDUCE_MAX) \
  GSHMEMX_DDEF_FAM(FAM, T, N, min, GSHMEM_REDUCE_MIN) \
  GSHMEMX_DDEF_FAM(FAM, T, N, sum, GSHMEM_REDUCE_SUM) GSHMEMX_DDEF_FAM(FAM, T, N, prod, GSHMEM_REDUCE_PROD)
#define GSHMEMX_DDEF_RS_BIT(T, N)                               \
  GSHMEMX_DDEF_FAM(reducescatter, T, N, and, GSHMEM_REDUCE_AND) \
  GSHMEMX_DDEF_FAM(reducescatter, T, N, or, GSHMEM_REDUCE_OR)   \
  GSHMEMX_DDEF_FAM(reducescatter, T, N, xor, GSHMEM_REDUCE_XOR)
#define GSHMEMX_DDEF_RS_ARITH(T, N) GSHMEMX_DDEF_FAM_ARITH(reducescatter, T, N)
GSHMEM_REDUCE_BIT_TYPES(GSHMEMX_DDEF_RS_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DDEF_RS_ARITH)
GSHMEMX_DDEF_FAM_ARITH(reducescatter, __half, half)
GSHMEMX_DDEF_FAM_ARITH(reducescatter, __nv_bfloat16, bfloat16)
GSHMEMX_DDEF_FAM_ARITH(reduce, __half, half)
GSHMEMX_DDEF_FAM_ARITH(reduce, __nv_bfloat16, bfloat16)
#undef GSHMEMX_DDEF_RS_BIT
#undef GSHMEMX_DDEF_RS_ARITH
#undef GSHMEMX_DDEF_FAM_ARITH
#undef GSHMEMX_DDEF_FAM
#undef GSHMEMX_DDEF_FAM_SCOPE

/* ---- Warp and block scope (every thread of the scope calls; one scope per member PE) ---- */
#define GSHMEMX_DDEF_COLL_SCOPE(S, SC)                                                                           \
  GSHMEM_D int shmemx_team_sync_##SC(shmem_team_t team) {                                                        \
    GSHMEM_DEV::team_sync<GSHMEM_DEV::S>("shmemx_team_sync_" #SC, team);                                         \
    return 0;                                                                                                    \
  }                                                                                                              \
  GSHMEM_D int shmemx_team_barrier_##SC(shmem_team_t team) {                                                     \
    GSHMEM_DEV::team_barrier<GSHMEM_DEV::S>("shmemx_team_barrier_" #SC, team);                                   \
    return 0;                                                                                                    \
  }                                                                                                              \
  GSHMEM_D void shmemx_barrier_all_##SC(void) {                                                                  \
    GSHMEM_DEV::team_barrier<GSHMEM_DEV::S>("shmemx_barrier_all_" #SC, SHMEM_TEAM_WORLD);                        \
  }                                                                                                              \
  GSHMEM_D void shmemx_sync_all_##SC(void) {                                                                     \
    GSHMEM_DEV::team_sync<GSHMEM_DEV::S>("shmemx_sync_all_" #SC, SHMEM_TEAM_WORLD);                              \
  }                                                                                                              \
  GSHMEM_D int shmemx_broadcastmem_##SC(shmem_team_t team, void *d, const void *s, size_t n, int root) {         \
    GSHMEM_DEV::broadcast<GSHMEM_DEV::S>("shmemx_broadcastmem_" #SC, team, d, s, n, root);                       \
    return 0;                                                                                                    \
  }                                                                                                              \
  GSHMEM_D int shmemx_fcollectmem_##SC(shmem_team_t team, void *d, const void *s, size_t n) {                    \
    GSHMEM_DEV::fcollect<GSHMEM_DEV::S>("shmemx_fcollectmem_" #SC, team, d, s, n);                               \
    return 0;                                                                                                    \
  }                                                                                                              \
  GSHMEM_D int shmemx_alltoallmem_##SC(shmem_team_t team, void *d, const void *s, size_t n) {                    \
    GSHMEM_DEV::alltoall<GSHMEM_DEV::S>("shmemx_alltoallmem_" #SC, team, d, s, n);                               \
    return 0;                                                                                                    \
  }                                                                                                              \
  GSHMEM_D int shmemx_collectmem_##SC(shmem_team_t team, void *d, const void *s, size_t n) {                     \
    GSHMEM_DEV::collect<GSHMEM_DEV::S>("shmemx_collectmem_" #SC, team, d, s, n);                                 \
    return 0;                                                                                                    \
  }                                                                                                              \
  GSHMEM_D int shmemx_alltoallsmem_##SC(shmem_team_t team, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, \
                                        size_t n) {                                                              \
    GSHMEM_DEV::alltoalls<GSHMEM_DEV::S>("shmemx_alltoallsmem_" #SC, team, d, s, dst, sst, n, 1);                \
    return 0;                                                                                                    \
  }
GSHMEMX_DDEF_COLL_SCOPE(Warp, warp)
GSHMEMX_DDEF_COLL_SCOPE(Block, block)
#undef GSHMEMX_DDEF_COLL_SCOPE

#define GSHMEMX_DDEF_COLL_TYPED_SCOPE(T, N, S, SC)                                                            \
  GSHMEM_D int shmemx_##N##_broadcast_##SC(shmem_team_t team, T *d, const T *s, size_t n, int root) {         \
    GSHMEM_DEV::broadcast<GSHMEM_DEV::S>("shmemx_" #N "_broadcast_" #SC, team, d, s, n * sizeof(T), root);    \
    return 0;                                                                                                 \
  }                                                                                                           \
  GSHMEM_D int shmemx_##N##_fcollect_##SC(shmem_team_t team, T *d, const T *s, size_t n) {                    \
    GSHMEM_DEV::fcollect<GSHMEM_DEV::S>("shmemx_" #N "_fcollect_" #SC, team, d, s, n * sizeof(T));            \
    return 0;                                                                                                 \
  }                                                                                                           \
  GSHMEM_D int shmemx_##N##_alltoall_##SC(shmem_team_t team, T *d, const T *s, size_t n) {                    \
    GSHMEM_DEV::alltoall<GSHMEM_DEV::S>("shmemx_" #N "_alltoall_" #SC, team, d, s, n * sizeof(T));            \
    return 0;                                                                                                 \
  }                                                                                                           \
  GSHMEM_D int shmemx_##N##_collect_##SC(shmem_team_t team, T *d, const T *s, size_t n) {                     \
    GSHMEM_DEV::collect<GSHMEM_DEV::S>("shmemx_" #N "_collect_" #SC, team, d, s, n * sizeof(T));              \
    return 0;                                                                                                 \
  }                                                                                                           \
  GSHMEM_D int shmemx_##N##_alltoalls_##SC(shmem_team_t team, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                                           size_t n) {                                                        \
    GSHMEM_DEV::alltoalls<GSHMEM_DEV::S>("shmemx_" #N "_alltoalls_" #SC, team, d, s, dst, sst, n, sizeof(T)); \
    return 0;                                                                                                 \
  }
#define GSHMEMX_DDEF_COLL_TYPED(T, N) \
  GSHMEMX_DDEF_COLL_TYPED_SCOPE(T, N, Warp, warp) GSHMEMX_DDEF_COLL_TYPED_SCOPE(T, N, Block, block)
GSHMEM_RMA_TYPES_DEVICE(GSHMEMX_DDEF_COLL_TYPED)
#undef GSHMEMX_DDEF_COLL_TYPED
#undef GSHMEMX_DDEF_COLL_TYPED_SCOPE

#define GSHMEMX_DDEF_REDUCE_SCOPE(T, N, OP, F, S, SC)                                                                \
  GSHMEM_D int shmemx_##N##_##OP##_reduce_##SC(shmem_team_t team, T *d, const T *s, size_t n) {                      \
    GSHMEM_DEV::reduce<GSHMEM_DEV::S, T, GSHMEM_DEV::Reduce<F>>("shmemx_" #N "_" #OP "_reduce_" #SC, team, d, s, n); \
    return 0;                                                                                                        \
  }
#define GSHMEMX_DDEF_REDUCE(T, N, OP, F) \
  GSHMEMX_DDEF_REDUCE_SCOPE(T, N, OP, F, Warp, warp) GSHMEMX_DDEF_REDUCE_SCOPE(T, N, OP, F, Block, block)
#define GSHMEMX_DDEF_REDUCE_BIT(T, N)               \
  GSHMEMX_DDEF_REDUCE(T, N, and, GSHMEM_REDUCE_AND) \
  GSHMEMX_DDEF_REDUCE(T, N, or, GSHMEM_REDUCE_OR) GSHMEMX_DDEF_REDUCE(T, N, xor, GSHMEM_REDUCE_XOR)
#define GSHMEMX_DDEF_REDUCE_MINMAX(T, N) \
  GSHMEMX_DDEF_REDUCE(T, N, max, GSHMEM_REDUCE_MAX) GSHMEMX_DDEF_REDUCE(T, N, min, GSHMEM_REDUCE_MIN)
#define GSHMEMX_DDEF_REDUCE_ARITH(T, N) \
  GSHMEMX_DDEF_REDUCE(T, N, sum, GSHMEM_REDUCE_SUM) GSHMEMX_DDEF_REDUCE(T, N, prod, GSHMEM_REDUCE_PROD)
GSHMEM_REDUCE_BIT_TYPES(GSHMEMX_DDEF_REDUCE_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DDEF_REDUCE_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DDEF_REDUCE_ARITH)
#define GSHMEMX_DDEF_SCAN_SCOPE(T, N, S, SC)                                                                 \
  GSHMEM_D int shmemx_##N##_sum_inscan_##SC(shmem_team_t team, T *d, const T *s, size_t n) {                 \
    GSHMEM_DEV::scan<GSHMEM_DEV::S, T, GSHMEM_DEV::kInscan>("shmemx_" #N "_sum_inscan_" #SC, team, d, s, n); \
    return 0;                                                                                                \
  }                                                                                                          \
  GSHMEM_D int shmemx_##N##_sum_exscan_##SC(shmem_team_t team, T *d, const T *s, size_t n) {                 \
    GSHMEM_DEV::scan<GSHMEM_DEV::S, T, GSHMEM_DEV::kExscan>("shmemx_" #N "_sum_exscan_" #SC, team, d, s, n); \
    return 0;                                                                                                \
  }
#define GSHMEMX_DDEF_SCAN(T, N) GSHMEMX_DDEF_SCAN_SCOPE(T, N, Warp, warp) GSHMEMX_DDEF_SCAN_SCOPE(T, N, Block, block)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DDEF_SCAN)
#undef GSHMEMX_DDEF_SCAN
#undef GSHMEMX_DDEF_SCAN_SCOPE
#undef GSHMEMX_DDEF_REDUCE_BIT
#undef GSHMEMX_DDEF_REDUCE_MINMAX
#undef GSHMEMX_DDEF_REDUCE_ARITH
#undef GSHMEMX_DDEF_REDUCE
#undef GSHMEMX_DDEF_REDUCE_SCOPE
#ifdef __CUDA_ARCH__
#undef GSHMEM_DDEF_REDUCE_BIT
#undef GSHMEM_DDEF_REDUCE_MINMAX
#undef GSHMEM_DDEF_REDUCE_ARITH
#undef GSHMEM_DDEF_REDUCE
#endif

/* ---- max with location (NVSHMEM's double2 maxloc): x the value, y its location; the largest x,
 * the smallest y among equal x. Warp and block scope. ---- */
GSHMEM_D int shmemx_double2_maxloc_reduce_warp(shmem_team_t team, double2 *d, const double2 *s, size_t n) {
  GSHMEM_DEV::reduce<GSHMEM_DEV::Warp, double2, GSHMEM_DEV::MaxLoc>("shmemx_double2_maxloc_reduce_warp", team, d, s, n);
  return 0;
}
GSHMEM_D int shmemx_double2_maxloc_reduce_block(shmem_team_t team, double2 *d, const double2 *s, size_t n) {
  GSHMEM_DEV::reduce<GSHMEM_DEV::Block, double2, GSHMEM_DEV::MaxLoc>("shmemx_double2_maxloc_reduce_block", team, d, s,
                                                                     n);
  return 0;
}
