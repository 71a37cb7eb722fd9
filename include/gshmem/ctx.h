/* Communication contexts (OpenSHMEM 1.5) and sessions (1.6). Included by shmem.h. A context created from a team
 * (shmem_team_create_ctx) takes PE numbers relative to that team. */
#ifndef GSHMEM_CTX_H
#define GSHMEM_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "gshmem/device_host/team.h"
#include "gshmem/device_host/type_tables.h"
#include "gshmem/export.h"

GSHMEM_EXTERN_C_BEGIN

typedef struct gshmem_ctx *shmem_ctx_t;
extern shmem_ctx_t const SHMEM_CTX_DEFAULT;
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

/* Sessions (OpenSHMEM 1.6 sec. 9.6): hints for a phase of communication on one context. */
typedef struct {
  size_t total_ops;
} shmem_ctx_session_config_t;
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
                             long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

#define GSHMEM_DECL_CTX_RMA(T, N)                                                                  \
  void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);      \
  void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);  \
  void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);      \
  void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);  \
  void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                              \
  T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                                   \
  void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe);                                                \
  void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems, int pe);                                                \
  void shmem_ctx_##N##_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                             size_t bsize, size_t nblocks, int pe);                                \
  void shmem_ctx_##N##_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                             size_t bsize, size_t nblocks, int pe);                                \
  void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,        \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);        \
  void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,    \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
GSHMEM_RMA_TYPES(GSHMEM_DECL_CTX_RMA)
#undef GSHMEM_DECL_CTX_RMA

#define GSHMEM_DECL_CTX_SIZED(B)                                                                   \
  void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);   \
  void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);   \
  void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
  void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                         size_t nelems, int pe);                                                   \
  void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                         size_t nelems, int pe);                                                   \
  void shmem_ctx_ibput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                          size_t bsize, size_t nblocks, int pe);                                   \
  void shmem_ctx_ibget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                          size_t bsize, size_t nblocks, int pe);                                   \
  void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,   \
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);         \
  void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                     uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
GSHMEM_SIZES(GSHMEM_DECL_CTX_SIZED)
#undef GSHMEM_DECL_CTX_SIZED

void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);

#define GSHMEM_DECL_CTX_AMO_EXT(T, N)                                                              \
  T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);                        \
  void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);                      \
  T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);                        \
  void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe);       \
  void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
GSHMEM_AMO_EXT_TYPES(GSHMEM_DECL_CTX_AMO_EXT)
#undef GSHMEM_DECL_CTX_AMO_EXT
#define GSHMEM_DECL_CTX_AMO_STD(T, N)                                                              \
  T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe);        \
  T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                            \
  void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                               \
  T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);                   \
  void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);                      \
  void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe); \
  void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);           \
  void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
GSHMEM_AMO_STD_TYPES(GSHMEM_DECL_CTX_AMO_STD)
#undef GSHMEM_DECL_CTX_AMO_STD
#define GSHMEM_DECL_CTX_AMO_BIT_OP(T, N, OP)                                                       \
  T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);                  \
  void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);                     \
  void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
#define GSHMEM_DECL_CTX_AMO_BIT(T, N)                                                              \
  GSHMEM_DECL_CTX_AMO_BIT_OP(T, N, and) GSHMEM_DECL_CTX_AMO_BIT_OP(T, N, or) GSHMEM_DECL_CTX_AMO_BIT_OP(T, N, xor)
GSHMEM_AMO_BIT_TYPES(GSHMEM_DECL_CTX_AMO_BIT)
#undef GSHMEM_DECL_CTX_AMO_BIT
#undef GSHMEM_DECL_CTX_AMO_BIT_OP

GSHMEM_EXTERN_C_END
#endif
