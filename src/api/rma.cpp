// put/get/p/g/iput/iget/ibput/ibget (blocking and nbi), put-with-signal and the signal alone
// (core/rma.hpp).
#include <shmem.h>

#include "core/rma.hpp"

using namespace gshmem;
using core::bytes_of;

extern "C" {

#define GSHMEM_DEF_RMA(T, N)                                                                                         \
  void shmem_##N##_put(T* d, const T* s, size_t n, int pe) {                                                         \
    core::put("shmem_" #N "_put", d, s, bytes_of("shmem_" #N "_put", n, sizeof(T)), pe, false);                      \
  }                                                                                                                  \
  void shmem_##N##_put_nbi(T* d, const T* s, size_t n, int pe) {                                                     \
    core::put("shmem_" #N "_put_nbi", d, s, bytes_of("shmem_" #N "_put_nbi", n, sizeof(T)), pe, true);               \
  }                                                                                                                  \
  void shmem_##N##_get(T* d, const T* s, size_t n, int pe) {                                                         \
    core::get("shmem_" #N "_get", d, s, bytes_of("shmem_" #N "_get", n, sizeof(T)), pe, false);                      \
  }                                                                                                                  \
  void shmem_##N##_get_nbi(T* d, const T* s, size_t n, int pe) {                                                     \
    core::get("shmem_" #N "_get_nbi", d, s, bytes_of("shmem_" #N "_get_nbi", n, sizeof(T)), pe, true);               \
  }                                                                                                                  \
  void shmem_##N##_p(T* d, T v, int pe) { core::put("shmem_" #N "_p", d, &v, sizeof(T), pe, false); }                \
  T shmem_##N##_g(const T* s, int pe) {                                                                              \
    T v;                                                                                                             \
    core::get("shmem_" #N "_g", &v, s, sizeof(T), pe, false);                                                        \
    return v;                                                                                                        \
  }                                                                                                                  \
  void shmem_##N##_iput(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                          \
    core::ibput("shmem_" #N "_iput", d, s, dst, sst, 1, n, sizeof(T), pe);                                           \
  }                                                                                                                  \
  void shmem_##N##_iget(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                          \
    core::ibget("shmem_" #N "_iget", d, s, dst, sst, 1, n, sizeof(T), pe);                                           \
  }                                                                                                                  \
  void shmem_##N##_ibput(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, int pe) {               \
    core::ibput("shmem_" #N "_ibput", d, s, dst, sst, b, n, sizeof(T), pe);                                          \
  }                                                                                                                  \
  void shmem_##N##_ibget(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, int pe) {               \
    core::ibget("shmem_" #N "_ibget", d, s, dst, sst, b, n, sizeof(T), pe);                                          \
  }                                                                                                                  \
  void shmem_##N##_put_signal(T* d, const T* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {               \
    core::put_signal("shmem_" #N "_put_signal", d, s, bytes_of("shmem_" #N "_put_signal", n, sizeof(T)), sa, sv, op, \
                     pe);                                                                                            \
  }                                                                                                                  \
  void shmem_##N##_put_signal_nbi(T* d, const T* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {           \
    core::put_signal("shmem_" #N "_put_signal_nbi", d, s, bytes_of("shmem_" #N "_put_signal_nbi", n, sizeof(T)), sa, \
                     sv, op, pe);                                                                                    \
  }
GSHMEM_RMA_TYPES(GSHMEM_DEF_RMA)
#undef GSHMEM_DEF_RMA

#define GSHMEM_DEF_SIZED(B)                                                                                            \
  void shmem_put##B(void* d, const void* s, size_t n, int pe) {                                                        \
    core::put("shmem_put" #B, d, s, bytes_of("shmem_put" #B, n, B / 8), pe, false);                                    \
  }                                                                                                                    \
  void shmem_put##B##_nbi(void* d, const void* s, size_t n, int pe) {                                                  \
    core::put("shmem_put" #B "_nbi", d, s, bytes_of("shmem_put" #B "_nbi", n, B / 8), pe, true);                       \
  }                                                                                                                    \
  void shmem_get##B(void* d, const void* s, size_t n, int pe) {                                                        \
    core::get("shmem_get" #B, d, s, bytes_of("shmem_get" #B, n, B / 8), pe, false);                                    \
  }                                                                                                                    \
  void shmem_get##B##_nbi(void* d, const void* s, size_t n, int pe) {                                                  \
    core::get("shmem_get" #B "_nbi", d, s, bytes_of("shmem_get" #B "_nbi", n, B / 8), pe, true);                       \
  }                                                                                                                    \
  void shmem_iput##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                         \
    core::ibput("shmem_iput" #B, d, s, dst, sst, 1, n, B / 8, pe);                                                     \
  }                                                                                                                    \
  void shmem_iget##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {                         \
    core::ibget("shmem_iget" #B, d, s, dst, sst, 1, n, B / 8, pe);                                                     \
  }                                                                                                                    \
  void shmem_ibput##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, int pe) {              \
    core::ibput("shmem_ibput" #B, d, s, dst, sst, b, n, B / 8, pe);                                                    \
  }                                                                                                                    \
  void shmem_ibget##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, int pe) {              \
    core::ibget("shmem_ibget" #B, d, s, dst, sst, b, n, B / 8, pe);                                                    \
  }                                                                                                                    \
  void shmem_put##B##_signal(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {            \
    core::put_signal("shmem_put" #B "_signal", d, s, bytes_of("shmem_put" #B "_signal", n, B / 8), sa, sv, op, pe);    \
  }                                                                                                                    \
  void shmem_put##B##_signal_nbi(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {        \
    core::put_signal("shmem_put" #B "_signal_nbi", d, s, bytes_of("shmem_put" #B "_signal_nbi", n, B / 8), sa, sv, op, \
                     pe);                                                                                              \
  }
GSHMEM_SIZES(GSHMEM_DEF_SIZED)
#undef GSHMEM_DEF_SIZED

void shmem_putmem(void* d, const void* s, size_t n, int pe) { core::put("shmem_putmem", d, s, n, pe, false); }
void shmem_putmem_nbi(void* d, const void* s, size_t n, int pe) { core::put("shmem_putmem_nbi", d, s, n, pe, true); }
void shmem_getmem(void* d, const void* s, size_t n, int pe) { core::get("shmem_getmem", d, s, n, pe, false); }
void shmem_getmem_nbi(void* d, const void* s, size_t n, int pe) { core::get("shmem_getmem_nbi", d, s, n, pe, true); }
void shmem_putmem_signal(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {
  core::put_signal("shmem_putmem_signal", d, s, n, sa, sv, op, pe);
}
void shmem_putmem_signal_nbi(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {
  core::put_signal("shmem_putmem_signal_nbi", d, s, n, sa, sv, op, pe);
}

void shmem_signal_add(uint64_t* sa, uint64_t sv, int pe) {
  core::signal_update("shmem_signal_add", sa, sv, SHMEM_SIGNAL_ADD, pe);
}
void shmem_signal_set(uint64_t* sa, uint64_t sv, int pe) {
  core::signal_update("shmem_signal_set", sa, sv, SHMEM_SIGNAL_SET, pe);
}

}  // extern "C"
