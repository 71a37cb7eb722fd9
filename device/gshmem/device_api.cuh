// The OpenSHMEM names for device code. Included by shmem.h when compiling with nvcc.
// In the device compilation pass the C names (shmem_putmem, shmem_int_p, ...) are defined here as
// inline __device__ functions; the host pass sees the library's host functions under the same
// names instead (see docs/design.md, "Device API"). The shmemx_*_warp/_block extensions are
// device-only and visible in both passes.
#pragma once
#include "gshmem/device_host/type_tables.h"
#include "gshmem/impl/amo.cuh"
#include "gshmem/impl/core.cuh"
#include "gshmem/impl/rma.cuh"
#include "gshmem/impl/sync.cuh"
#include "gshmem/state.cuh"

#ifdef __CUDA_ARCH__
/* ---- C names, thread scope ---- */
GSHMEM_D int shmem_my_pe(void) { return GSHMEM_DEV::st().my_pe; }
GSHMEM_D int shmem_n_pes(void) { return GSHMEM_DEV::st().npes; }
GSHMEM_D void *shmem_ptr(const void *dest, int pe) {
  void *p = GSHMEM_DEV::peer("shmem_ptr", dest, 1, pe);
  return GSHMEM_DEV::proxied(pe) ? nullptr : p;  // reached through the proxy: no load/store address
}
GSHMEM_D void shmem_fence(void) { GSHMEM_DEV::fence(); }
GSHMEM_D void shmem_quiet(void) { GSHMEM_DEV::quiet(); }

#define GSHMEM_DDEF_RMA(T, N)                                                                                       \
  GSHMEM_D void shmem_##N##_put(T *d, const T *s, size_t n, int pe) {                                               \
    GSHMEM_DEV::put<GSHMEM_DEV::Thread>("shmem_" #N "_put", d, s, n * sizeof(T), pe, false);                        \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_put_nbi(T *d, const T *s, size_t n, int pe) {                                           \
    GSHMEM_DEV::put<GSHMEM_DEV::Thread>("shmem_" #N "_put_nbi", d, s, n * sizeof(T), pe, true);                     \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_get(T *d, const T *s, size_t n, int pe) {                                               \
    GSHMEM_DEV::get<GSHMEM_DEV::Thread>("shmem_" #N "_get", d, s, n * sizeof(T), pe, false);                        \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_get_nbi(T *d, const T *s, size_t n, int pe) {                                           \
    GSHMEM_DEV::get<GSHMEM_DEV::Thread>("shmem_" #N "_get_nbi", d, s, n * sizeof(T), pe, true);                     \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_p(T *d, T v, int pe) { GSHMEM_DEV::p("shmem_" #N "_p", d, v, pe); }                     \
  GSHMEM_D T shmem_##N##_g(const T *s, int pe) { return GSHMEM_DEV::g("shmem_" #N "_g", s, pe); }                   \
  GSHMEM_D void shmem_##N##_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                \
    GSHMEM_DEV::iput<GSHMEM_DEV::Thread, sizeof(T)>("shmem_" #N "_iput", d, s, dst, sst, n, pe);                    \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                \
    GSHMEM_DEV::iget<GSHMEM_DEV::Thread, sizeof(T)>("shmem_" #N "_iget", d, s, dst, sst, n, pe);                    \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) {     \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::Thread>("shmem_" #N "_put_signal", d, s, n * sizeof(T), sa, sv, op, pe);     \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::Thread>("shmem_" #N "_put_signal_nbi", d, s, n * sizeof(T), sa, sv, op, pe,  \
                                               true);                                                               \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_DDEF_RMA)
#undef GSHMEM_DDEF_RMA

#define GSHMEM_DDEF_SIZED(B)                                                                                           \
  GSHMEM_D void shmem_put##B(void *d, const void *s, size_t n, int pe) {                                               \
    GSHMEM_DEV::put<GSHMEM_DEV::Thread>("shmem_put" #B, d, s, n * (B / 8), pe, false);                                 \
  }                                                                                                                    \
  GSHMEM_D void shmem_put##B##_nbi(void *d, const void *s, size_t n, int pe) {                                         \
    GSHMEM_DEV::put<GSHMEM_DEV::Thread>("shmem_put" #B "_nbi", d, s, n * (B / 8), pe, true);                           \
  }                                                                                                                    \
  GSHMEM_D void shmem_get##B(void *d, const void *s, size_t n, int pe) {                                               \
    GSHMEM_DEV::get<GSHMEM_DEV::Thread>("shmem_get" #B, d, s, n * (B / 8), pe, false);                                 \
  }                                                                                                                    \
  GSHMEM_D void shmem_get##B##_nbi(void *d, const void *s, size_t n, int pe) {                                         \
    GSHMEM_DEV::get<GSHMEM_DEV::Thread>("shmem_get" #B "_nbi", d, s, n * (B / 8), pe, true);                           \
  }                                                                                                                    \
  GSHMEM_D void shmem_iput##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                \
    GSHMEM_DEV::iput<GSHMEM_DEV::Thread, B / 8>("shmem_iput" #B, d, s, dst, sst, n, pe);                               \
  }                                                                                                                    \
  GSHMEM_D void shmem_iget##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                \
    GSHMEM_DEV::iget<GSHMEM_DEV::Thread, B / 8>("shmem_iget" #B, d, s, dst, sst, n, pe);                               \
  }                                                                                                                    \
  GSHMEM_D void shmem_put##B##_signal(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) {   \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::Thread>("shmem_put" #B "_signal", d, s, n * (B / 8), sa, sv, op, pe);           \
  }                                                                                                                    \
  GSHMEM_D void shmem_put##B##_signal_nbi(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op,         \
                                          int pe) {                                                                    \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::Thread>("shmem_put" #B "_signal_nbi", d, s, n * (B / 8), sa, sv, op, pe, true); \
  }
GSHMEM_SIZES(GSHMEM_DDEF_SIZED)
#undef GSHMEM_DDEF_SIZED

GSHMEM_D void shmem_putmem(void *d, const void *s, size_t n, int pe) {
  GSHMEM_DEV::put<GSHMEM_DEV::Thread>("shmem_putmem", d, s, n, pe, false);
}
GSHMEM_D void shmem_putmem_nbi(void *d, const void *s, size_t n, int pe) {
  GSHMEM_DEV::put<GSHMEM_DEV::Thread>("shmem_putmem_nbi", d, s, n, pe, true);
}
GSHMEM_D void shmem_getmem(void *d, const void *s, size_t n, int pe) {
  GSHMEM_DEV::get<GSHMEM_DEV::Thread>("shmem_getmem", d, s, n, pe, false);
}
GSHMEM_D void shmem_getmem_nbi(void *d, const void *s, size_t n, int pe) {
  GSHMEM_DEV::get<GSHMEM_DEV::Thread>("shmem_getmem_nbi", d, s, n, pe, true);
}
GSHMEM_D void shmem_putmem_signal(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) {
  GSHMEM_DEV::put_signal<GSHMEM_DEV::Thread>("shmem_putmem_signal", d, s, n, sa, sv, op, pe);
}
GSHMEM_D void shmem_putmem_signal_nbi(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) {
  GSHMEM_DEV::put_signal<GSHMEM_DEV::Thread>("shmem_putmem_signal_nbi", d, s, n, sa, sv, op, pe, true);
}
GSHMEM_D uint64_t shmem_signal_fetch(const uint64_t *sig) {
  return GSHMEM_DEV::load_acquire(GSHMEM_DEV::own("shmem_signal_fetch", sig, 1));
}
GSHMEM_D uint64_t shmem_signal_wait_until(uint64_t *sig, int cmp, uint64_t x) {
  return GSHMEM_DEV::wait_until("shmem_signal_wait_until", sig, cmp, x);
}

#define GSHMEM_DDEF_AMO_EXT(T, N)                                                                                   \
  GSHMEM_D T shmem_##N##_atomic_fetch(const T *s, int pe) {                                                         \
    return GSHMEM_DEV::fetch("shmem_" #N "_atomic_fetch", s, pe);                                                   \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_atomic_set(T *d, T v, int pe) { GSHMEM_DEV::set("shmem_" #N "_atomic_set", d, v, pe); } \
  GSHMEM_D T shmem_##N##_atomic_swap(T *d, T v, int pe) {                                                           \
    return GSHMEM_DEV::swap("shmem_" #N "_atomic_swap", d, v, pe);                                                  \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_atomic_fetch_nbi(T *f, const T *s, int pe) {                                            \
    *f = GSHMEM_DEV::fetch("shmem_" #N "_atomic_fetch_nbi", s, pe);                                                 \
  }                                                                                                                 \
  GSHMEM_D void shmem_##N##_atomic_swap_nbi(T *f, T *d, T v, int pe) {                                              \
    *f = GSHMEM_DEV::swap("shmem_" #N "_atomic_swap_nbi", d, v, pe);                                                \
  }
GSHMEM_AMO_EXT_TYPES(GSHMEM_DDEF_AMO_EXT)
#undef GSHMEM_DDEF_AMO_EXT

#define GSHMEM_DDEF_AMO_STD(T, N)                                                               \
  GSHMEM_D T shmem_##N##_atomic_compare_swap(T *d, T c, T v, int pe) {                          \
    return GSHMEM_DEV::cswap("shmem_" #N "_atomic_compare_swap", d, c, v, pe);                  \
  }                                                                                             \
  GSHMEM_D T shmem_##N##_atomic_fetch_inc(T *d, int pe) {                                       \
    return GSHMEM_DEV::fadd("shmem_" #N "_atomic_fetch_inc", d, static_cast<T>(1), pe);         \
  }                                                                                             \
  GSHMEM_D void shmem_##N##_atomic_inc(T *d, int pe) {                                          \
    GSHMEM_DEV::amo_nf<T, GSHMEM_AMO_ADD>("shmem_" #N "_atomic_inc", d, static_cast<T>(1), pe); \
  }                                                                                             \
  GSHMEM_D T shmem_##N##_atomic_fetch_add(T *d, T v, int pe) {                                  \
    return GSHMEM_DEV::fadd("shmem_" #N "_atomic_fetch_add", d, v, pe);                         \
  }                                                                                             \
  GSHMEM_D void shmem_##N##_atomic_add(T *d, T v, int pe) {                                     \
    GSHMEM_DEV::amo_nf<T, GSHMEM_AMO_ADD>("shmem_" #N "_atomic_add", d, v, pe);                 \
  }                                                                                             \
  GSHMEM_D void shmem_##N##_atomic_compare_swap_nbi(T *f, T *d, T c, T v, int pe) {             \
    *f = GSHMEM_DEV::cswap("shmem_" #N "_atomic_compare_swap_nbi", d, c, v, pe);                \
  }                                                                                             \
  GSHMEM_D void shmem_##N##_atomic_fetch_inc_nbi(T *f, T *d, int pe) {                          \
    *f = GSHMEM_DEV::fadd("shmem_" #N "_atomic_fetch_inc_nbi", d, static_cast<T>(1), pe);       \
  }                                                                                             \
  GSHMEM_D void shmem_##N##_atomic_fetch_add_nbi(T *f, T *d, T v, int pe) {                     \
    *f = GSHMEM_DEV::fadd("shmem_" #N "_atomic_fetch_add_nbi", d, v, pe);                       \
  }
GSHMEM_AMO_STD_TYPES(GSHMEM_DDEF_AMO_STD)
#undef GSHMEM_DDEF_AMO_STD

#define GSHMEM_DDEF_AMO_BIT_OP(T, N, NAME, FN, NF)                               \
  GSHMEM_D T shmem_##N##_atomic_fetch_##NAME(T *d, T v, int pe) {                \
    return GSHMEM_DEV::FN("shmem_" #N "_atomic_fetch_" #NAME, d, v, pe);         \
  }                                                                              \
  GSHMEM_D void shmem_##N##_atomic_##NAME(T *d, T v, int pe) {                   \
    GSHMEM_DEV::amo_nf<T, NF>("shmem_" #N "_atomic_" #NAME, d, v, pe);           \
  }                                                                              \
  GSHMEM_D void shmem_##N##_atomic_fetch_##NAME##_nbi(T *f, T *d, T v, int pe) { \
    *f = GSHMEM_DEV::FN("shmem_" #N "_atomic_fetch_" #NAME "_nbi", d, v, pe);    \
  }
#define GSHMEM_DDEF_AMO_BIT(T, N)                         \
  GSHMEM_DDEF_AMO_BIT_OP(T, N, and, fand, GSHMEM_AMO_AND) \
  GSHMEM_DDEF_AMO_BIT_OP(T, N, or, f_or, GSHMEM_AMO_OR)   \
  GSHMEM_DDEF_AMO_BIT_OP(T, N, xor, fxor, GSHMEM_AMO_XOR)
GSHMEM_AMO_BIT_TYPES(GSHMEM_DDEF_AMO_BIT)
#undef GSHMEM_DDEF_AMO_BIT
#undef GSHMEM_DDEF_AMO_BIT_OP

#define GSHMEM_DDEF_P2P(T, N)                                                                                          \
  GSHMEM_D void shmem_##N##_wait_until(T *v, int c, T x) {                                                             \
    GSHMEM_DEV::wait_until("shmem_" #N "_wait_until", v, c, x);                                                        \
  }                                                                                                                    \
  GSHMEM_D void shmem_##N##_wait_until_all(T *v, size_t n, const int *s, int c, T x) {                                 \
    GSHMEM_DEV::wait_all("shmem_" #N "_wait_until_all", v, n, s, c, x, (const T *)nullptr);                            \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_wait_until_any(T *v, size_t n, const int *s, int c, T x) {                               \
    return GSHMEM_DEV::wait_any("shmem_" #N "_wait_until_any", v, n, s, c, x, (const T *)nullptr);                     \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_wait_until_some(T *v, size_t n, size_t *ix, const int *s, int c, T x) {                  \
    return GSHMEM_DEV::wait_some("shmem_" #N "_wait_until_some", v, n, ix, s, c, x, (const T *)nullptr);               \
  }                                                                                                                    \
  GSHMEM_D void shmem_##N##_wait_until_all_vector(T *v, size_t n, const int *s, int c, const T *x) {                   \
    GSHMEM_DEV::wait_all("shmem_" #N "_wait_until_all_vector", v, n, s, c, static_cast<T>(0), (const T *)x);           \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_wait_until_any_vector(T *v, size_t n, const int *s, int c, const T *x) {                 \
    return GSHMEM_DEV::wait_any("shmem_" #N "_wait_until_any_vector", v, n, s, c, static_cast<T>(0), (const T *)x);    \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_wait_until_some_vector(T *v, size_t n, size_t *ix, const int *s, int c, const T *x) {    \
    return GSHMEM_DEV::wait_some("shmem_" #N "_wait_until_some_vector", v, n, ix, s, c, static_cast<T>(0),             \
                                 (const T *)x);                                                                        \
  }                                                                                                                    \
  GSHMEM_D int shmem_##N##_test(T *v, int c, T x) {                                                                    \
    return GSHMEM_DEV::compare(GSHMEM_DEV::load_acquire(GSHMEM_DEV::own("shmem_" #N "_test", v, 1)), c, x);            \
  }                                                                                                                    \
  GSHMEM_D int shmem_##N##_test_all(T *v, size_t n, const int *s, int c, T x) {                                        \
    return GSHMEM_DEV::test_all(GSHMEM_DEV::own("shmem_" #N "_test_all", v, n), n, s, c, x, (const T *)nullptr);       \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_test_any(T *v, size_t n, const int *s, int c, T x) {                                     \
    return GSHMEM_DEV::test_any(GSHMEM_DEV::own("shmem_" #N "_test_any", v, n), n, s, c, x, (const T *)nullptr);       \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_test_some(T *v, size_t n, size_t *ix, const int *s, int c, T x) {                        \
    return GSHMEM_DEV::test_some(GSHMEM_DEV::own("shmem_" #N "_test_some", v, n), n, ix, s, c, x, (const T *)nullptr); \
  }                                                                                                                    \
  GSHMEM_D int shmem_##N##_test_all_vector(T *v, size_t n, const int *s, int c, const T *x) {                          \
    return GSHMEM_DEV::test_all(GSHMEM_DEV::own("shmem_" #N "_test_all_vector", v, n), n, s, c, static_cast<T>(0),     \
                                (const T *)x);                                                                         \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_test_any_vector(T *v, size_t n, const int *s, int c, const T *x) {                       \
    return GSHMEM_DEV::test_any(GSHMEM_DEV::own("shmem_" #N "_test_any_vector", v, n), n, s, c, static_cast<T>(0),     \
                                (const T *)x);                                                                         \
  }                                                                                                                    \
  GSHMEM_D size_t shmem_##N##_test_some_vector(T *v, size_t n, size_t *ix, const int *s, int c, const T *x) {          \
    return GSHMEM_DEV::test_some(GSHMEM_DEV::own("shmem_" #N "_test_some_vector", v, n), n, ix, s, c,                  \
                                 static_cast<T>(0), (const T *)x);                                                     \
  }
GSHMEM_P2P_TYPES(GSHMEM_DDEF_P2P)
#undef GSHMEM_DDEF_P2P
GSHMEM_D void shmem_wait_until(long *v, int c, long x) { GSHMEM_DEV::wait_until("shmem_wait_until", v, c, x); }
GSHMEM_D void shmem_wait(long *v, long x) { GSHMEM_DEV::wait_until("shmem_wait", v, SHMEM_CMP_NE, x); }

/* ---- OpenSHMEM 1.6: blocked strided RMA, signal_add/set, pe_quiet (thread scope) ---- */
#define GSHMEM_DDEF_IB(T, N)                                                                                    \
  GSHMEM_D void shmem_##N##_ibput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                                  int pe) {                                                                     \
    GSHMEM_DEV::ibput<GSHMEM_DEV::Thread, sizeof(T)>("shmem_" #N "_ibput", d, s, dst, sst, bsize, nblocks, pe); \
  }                                                                                                             \
  GSHMEM_D void shmem_##N##_ibget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                                  int pe) {                                                                     \
    GSHMEM_DEV::ibget<GSHMEM_DEV::Thread, sizeof(T)>("shmem_" #N "_ibget", d, s, dst, sst, bsize, nblocks, pe); \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_DDEF_IB)
#undef GSHMEM_DDEF_IB
#define GSHMEM_DDEF_IB_SIZED(B)                                                                                    \
  GSHMEM_D void shmem_ibput##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                               int pe) {                                                                           \
    GSHMEM_DEV::ibput<GSHMEM_DEV::Thread, B / 8>("shmem_ibput" #B, d, s, dst, sst, bsize, nblocks, pe);            \
  }                                                                                                                \
  GSHMEM_D void shmem_ibget##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                               int pe) {                                                                           \
    GSHMEM_DEV::ibget<GSHMEM_DEV::Thread, B / 8>("shmem_ibget" #B, d, s, dst, sst, bsize, nblocks, pe);            \
  }
GSHMEM_SIZES(GSHMEM_DDEF_IB_SIZED)
#undef GSHMEM_DDEF_IB_SIZED
GSHMEM_D void shmem_signal_add(uint64_t *sig, uint64_t v, int pe) {
  GSHMEM_DEV::signal_scope<GSHMEM_DEV::Thread>("shmem_signal_add", sig, v, SHMEM_SIGNAL_ADD, pe);
}
GSHMEM_D void shmem_signal_set(uint64_t *sig, uint64_t v, int pe) {
  GSHMEM_DEV::signal_scope<GSHMEM_DEV::Thread>("shmem_signal_set", sig, v, SHMEM_SIGNAL_SET, pe);
}
GSHMEM_D void shmem_pe_quiet(const int *pes, size_t n) {
  GSHMEM_DEV::pe_quiet<GSHMEM_DEV::Thread>("shmem_pe_quiet", pes, n);
}
#endif /* __CUDA_ARCH__ */

/* Updates a signal on pe without data (SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD). An atomic like any
 * other: it orders nothing by itself; call shmem_fence before it to order earlier puts. */
GSHMEM_D void shmemx_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  GSHMEM_DEV::signal_op("shmemx_signal_op", sig_addr, signal, sig_op, pe, cuda::memory_order_relaxed);
}

/* ---- Warp and block scope extensions (device only; all threads of the scope call them) ---- */
#define GSHMEMX_DDEF_SCOPE(S, SC)                                                                                  \
  GSHMEM_D void shmemx_putmem_##SC(void *d, const void *s, size_t n, int pe) {                                     \
    GSHMEM_DEV::put<GSHMEM_DEV::S>("shmemx_putmem_" #SC, d, s, n, pe, false);                                      \
  }                                                                                                                \
  GSHMEM_D void shmemx_putmem_nbi_##SC(void *d, const void *s, size_t n, int pe) {                                 \
    GSHMEM_DEV::put<GSHMEM_DEV::S>("shmemx_putmem_nbi_" #SC, d, s, n, pe, true);                                   \
  }                                                                                                                \
  GSHMEM_D void shmemx_getmem_##SC(void *d, const void *s, size_t n, int pe) {                                     \
    GSHMEM_DEV::get<GSHMEM_DEV::S>("shmemx_getmem_" #SC, d, s, n, pe, false);                                      \
  }                                                                                                                \
  GSHMEM_D void shmemx_getmem_nbi_##SC(void *d, const void *s, size_t n, int pe) {                                 \
    GSHMEM_DEV::get<GSHMEM_DEV::S>("shmemx_getmem_nbi_" #SC, d, s, n, pe, true);                                   \
  }                                                                                                                \
  GSHMEM_D void shmemx_putmem_signal_##SC(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op,     \
                                          int pe) {                                                                \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::S>("shmemx_putmem_signal_" #SC, d, s, n, sa, sv, op, pe);                   \
  }                                                                                                                \
  GSHMEM_D void shmemx_putmem_signal_nbi_##SC(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                              int pe) {                                                            \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::S>("shmemx_putmem_signal_nbi_" #SC, d, s, n, sa, sv, op, pe, true);         \
  }
GSHMEMX_DDEF_SCOPE(Warp, warp)
GSHMEMX_DDEF_SCOPE(Block, block)
#undef GSHMEMX_DDEF_SCOPE

/* OpenSHMEM 1.6 signal_add/set and pe_quiet at warp and block scope */
#define GSHMEMX_DDEF_16_SCOPE(S, SC)                                                                 \
  GSHMEM_D void shmemx_signal_add_##SC(uint64_t *sig, uint64_t v, int pe) {                          \
    GSHMEM_DEV::signal_scope<GSHMEM_DEV::S>("shmemx_signal_add_" #SC, sig, v, SHMEM_SIGNAL_ADD, pe); \
  }                                                                                                  \
  GSHMEM_D void shmemx_signal_set_##SC(uint64_t *sig, uint64_t v, int pe) {                          \
    GSHMEM_DEV::signal_scope<GSHMEM_DEV::S>("shmemx_signal_set_" #SC, sig, v, SHMEM_SIGNAL_SET, pe); \
  }                                                                                                  \
  GSHMEM_D void shmemx_pe_quiet_##SC(const int *pes, size_t n) {                                     \
    GSHMEM_DEV::pe_quiet<GSHMEM_DEV::S>("shmemx_pe_quiet_" #SC, pes, n);                             \
  }
GSHMEMX_DDEF_16_SCOPE(Warp, warp)
GSHMEMX_DDEF_16_SCOPE(Block, block)
#undef GSHMEMX_DDEF_16_SCOPE

#define GSHMEMX_DDEF_TYPED_SCOPE(T, N, S, SC)                                                                         \
  GSHMEM_D void shmemx_##N##_put_##SC(T *d, const T *s, size_t n, int pe) {                                           \
    GSHMEM_DEV::put<GSHMEM_DEV::S>("shmemx_" #N "_put_" #SC, d, s, n * sizeof(T), pe, false);                         \
  }                                                                                                                   \
  GSHMEM_D void shmemx_##N##_put_nbi_##SC(T *d, const T *s, size_t n, int pe) {                                       \
    GSHMEM_DEV::put<GSHMEM_DEV::S>("shmemx_" #N "_put_nbi_" #SC, d, s, n * sizeof(T), pe, true);                      \
  }                                                                                                                   \
  GSHMEM_D void shmemx_##N##_get_##SC(T *d, const T *s, size_t n, int pe) {                                           \
    GSHMEM_DEV::get<GSHMEM_DEV::S>("shmemx_" #N "_get_" #SC, d, s, n * sizeof(T), pe, false);                         \
  }                                                                                                                   \
  GSHMEM_D void shmemx_##N##_get_nbi_##SC(T *d, const T *s, size_t n, int pe) {                                       \
    GSHMEM_DEV::get<GSHMEM_DEV::S>("shmemx_" #N "_get_nbi_" #SC, d, s, n * sizeof(T), pe, true);                      \
  }                                                                                                                   \
  GSHMEM_D void shmemx_##N##_put_signal_##SC(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::S>("shmemx_" #N "_put_signal_" #SC, d, s, n * sizeof(T), sa, sv, op, pe);      \
  }                                                                                                                   \
  GSHMEM_D void shmemx_##N##_put_signal_nbi_##SC(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op,       \
                                                 int pe) {                                                            \
    GSHMEM_DEV::put_signal<GSHMEM_DEV::S>("shmemx_" #N "_put_signal_nbi_" #SC, d, s, n * sizeof(T), sa, sv, op, pe,   \
                                          true);                                                                      \
  }                                                                                                                   \
  GSHMEM_D void shmemx_##N##_ibput_##SC(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                                        int pe) {                                                                     \
    GSHMEM_DEV::ibput<GSHMEM_DEV::S, sizeof(T)>("shmemx_" #N "_ibput_" #SC, d, s, dst, sst, bsize, nblocks, pe);      \
  }                                                                                                                   \
  GSHMEM_D void shmemx_##N##_ibget_##SC(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                                        int pe) {                                                                     \
    GSHMEM_DEV::ibget<GSHMEM_DEV::S, sizeof(T)>("shmemx_" #N "_ibget_" #SC, d, s, dst, sst, bsize, nblocks, pe);      \
  }
#define GSHMEMX_DDEF_TYPED(T, N) GSHMEMX_DDEF_TYPED_SCOPE(T, N, Warp, warp) GSHMEMX_DDEF_TYPED_SCOPE(T, N, Block, block)
GSHMEM_RMA_TYPES_DEVICE(GSHMEMX_DDEF_TYPED)
#undef GSHMEMX_DDEF_TYPED
#undef GSHMEMX_DDEF_TYPED_SCOPE

/* ---- Collective launch (host side; uses the application's CUDA runtime). Declared in both
 * passes because the device pass also parses host functions that call them. ---- */
/* Launches a kernel whose blocks may wait on each other or on peers: all blocks are co-resident
 * (cooperative launch), so device barriers and waits cannot deadlock on unscheduled blocks.
 * Returns 0, or the cudaError_t of the launch. */
static inline int shmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shmem_bytes,
                                           cudaStream_t stream) {
  return static_cast<int>(cudaLaunchCooperativeKernel(func, grid, block, args, shmem_bytes, stream));
}
/* The largest grid (blocks) that shmemx_collective_launch accepts for func with this block size. */
static inline int shmemx_collective_launch_query_gridsize(const void *func, dim3 block, void **args, size_t shmem_bytes,
                                                          int *gridsize) {
  (void)args;
  int dev = 0, sms = 0, per_sm = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess)
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, static_cast<int>(block.x * block.y * block.z),
                                                      shmem_bytes);
  *gridsize = e == cudaSuccess ? per_sm * sms : 0;
  return static_cast<int>(e);
}
