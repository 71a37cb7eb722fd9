// put/get/p/g/iput/iget (blocking and nbi) and put-with-signal. On CPU PEs every target is a
// mapped segment, so a transfer is a copy; nbi transfers complete before returning, which the
// spec allows (quiet then has nothing left to wait for).
// Ordering: put_signal issues a full fence between the data copy and the signal update, because
// large memcpy may use non-temporal stores that a release store alone does not order.
#include <shmem.h>

#include "api/access.hpp"
#include "api/device_ops.hpp"

namespace gshmem::api {
namespace {

inline void put_bytes(const char* call, void* dest, const void* src, size_t bytes, int pe, bool nbi = false) {
  if (bytes == 0) return;
  check_local(call, src, "source", bytes);
  if (!dest) fatal(call, "dest is NULL with %zu bytes (target pe %d)", bytes, pe);
  Target t = target(call, dest, bytes, pe);
  if (t.remote) tcp().put(pe, t.seg, t.off, src, bytes);
  else if (t.device) dev_copy(call, t.p, src, bytes, !nbi);
  else memcpy(t.p, src, bytes);
}

inline void get_bytes(const char* call, void* dest, const void* src, size_t bytes, int pe, bool nbi = false) {
  if (bytes == 0) return;
  check_local(call, dest, "dest", bytes);
  if (!src) fatal(call, "source is NULL with %zu bytes (source pe %d)", bytes, pe);
  Target t = target(call, src, bytes, pe, "source");
  if (t.remote) tcp().get(pe, t.seg, t.off, dest, bytes);
  else if (t.device) dev_copy(call, dest, t.p, bytes, !nbi);
  else memcpy(dest, t.p, bytes);
}

// Strided: element i goes from src[i*sst] to dest[i*dst].
template <size_t E>
void iput_elems(const char* call, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  if (n == 0) return;
  if (dst <= 0 || sst <= 0) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);
  check_local(call, src, "source", n);
  if (!dest) fatal(call, "dest is NULL with nelems %zu (target pe %d)", n, pe);
  const size_t span = bytes_of(call, (n - 1), static_cast<size_t>(dst) * E) + E;
  Target t = target(call, dest, span, pe);
  const char* s = static_cast<const char*>(src);
  for (size_t i = 0; i < n; ++i) {
    if (t.remote) tcp().put(pe, t.seg, t.off + i * dst * E, s + i * sst * E, E);
    else if (t.device) dev_copy(call, t.p + i * dst * E, s + i * sst * E, E, i + 1 == n);
    else memcpy(t.p + i * dst * E, s + i * sst * E, E);
  }
}

template <size_t E>
void iget_elems(const char* call, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  if (n == 0) return;
  if (dst <= 0 || sst <= 0) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);
  check_local(call, dest, "dest", n);
  if (!src) fatal(call, "source is NULL with nelems %zu (source pe %d)", n, pe);
  const size_t span = bytes_of(call, (n - 1), static_cast<size_t>(sst) * E) + E;
  Target t = target(call, src, span, pe, "source");
  char* d = static_cast<char*>(dest);
  for (size_t i = 0; i < n; ++i) {
    if (t.remote) tcp().get(pe, t.seg, t.off + i * sst * E, d + i * dst * E, E);
    else if (t.device) dev_copy(call, d + i * dst * E, t.p + i * sst * E, E, i + 1 == n);
    else memcpy(d + i * dst * E, t.p + i * sst * E, E);
  }
}

inline void signal_update(const char* call, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) {
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD (target pe %d)", sig_op, pe);
  Target t = target(call, sig_addr, sizeof(uint64_t), pe, "sig_addr");
  if (t.remote) {  // the same connection as the data, applied after it
    tcp().amo(pe, t.seg, t.off, sig_op == SHMEM_SIGNAL_SET ? transport::AmoOp::set : transport::AmoOp::add, 8, signal, 0);
    return;
  }
  if (t.device) {
    if (sig_op == SHMEM_SIGNAL_SET) dev_write64(call, reinterpret_cast<uint64_t*>(t.p), signal);
    else (void)dev_amo(call, t.p, sizeof(uint64_t), AmoOp::add, signal, 0);  // after the blocking data copy
    return;
  }
  uint64_t* s = amo_target(call, sig_addr, pe);
  memory_fence();
  if (sig_op == SHMEM_SIGNAL_SET) __atomic_store_n(s, signal, __ATOMIC_RELEASE);
  else __atomic_fetch_add(s, signal, __ATOMIC_RELEASE);
}

inline void put_signal_bytes(const char* call, void* dest, const void* src, size_t bytes, uint64_t* sig_addr,
                             uint64_t signal, int sig_op, int pe) {
  // Validate the signal before moving data so a bad signal never leaves a half-done operation.
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD (target pe %d)", sig_op, pe);
  if (!sig_addr) fatal(call, "sig_addr is NULL (target pe %d)", pe);
  (void)target(call, sig_addr, sizeof(uint64_t), pe, "sig_addr");
  put_bytes(call, dest, src, bytes, pe);
  signal_update(call, sig_addr, signal, sig_op, pe);
}

}  // namespace
}  // namespace gshmem::api

using namespace gshmem;
using namespace gshmem::api;

extern "C" {

#define GSHMEM_DEF_RMA(T, N)                                                                        \
  void shmem_##N##_put(T* d, const T* s, size_t n, int pe) {                                        \
    put_bytes("shmem_" #N "_put", d, s, bytes_of("shmem_" #N "_put", n, sizeof(T)), pe);            \
  }                                                                                                 \
  void shmem_##N##_put_nbi(T* d, const T* s, size_t n, int pe) {                                    \
    put_bytes("shmem_" #N "_put_nbi", d, s, bytes_of("shmem_" #N "_put_nbi", n, sizeof(T)), pe, true);    \
  }                                                                                                 \
  void shmem_##N##_get(T* d, const T* s, size_t n, int pe) {                                        \
    get_bytes("shmem_" #N "_get", d, s, bytes_of("shmem_" #N "_get", n, sizeof(T)), pe);            \
  }                                                                                                 \
  void shmem_##N##_get_nbi(T* d, const T* s, size_t n, int pe) {                                    \
    get_bytes("shmem_" #N "_get_nbi", d, s, bytes_of("shmem_" #N "_get_nbi", n, sizeof(T)), pe, true);    \
  }                                                                                                 \
  void shmem_##N##_p(T* d, T v, int pe) {                                                           \
    if (!d) fatal("shmem_" #N "_p", "dest is NULL (target pe %d)", pe);                         \
    Target t = target("shmem_" #N "_p", d, sizeof(T), pe);                                          \
    if (t.remote) tcp().put(pe, t.seg, t.off, &v, sizeof(T));                                       \
    else if (t.device) dev_copy("shmem_" #N "_p", t.p, &v, sizeof(T), true);                         \
    else *reinterpret_cast<T*>(t.p) = v;                                                            \
  }                                                                                                 \
  T shmem_##N##_g(const T* s, int pe) {                                                             \
    if (!s) fatal("shmem_" #N "_g", "source is NULL (source pe %d)", pe);                       \
    Target t = target("shmem_" #N "_g", s, sizeof(T), pe, "source");                                \
    if (!t.device && !t.remote) return *reinterpret_cast<const T*>(t.p);                            \
    T v;                                                                                            \
    if (t.remote) tcp().get(pe, t.seg, t.off, &v, sizeof(T));                                       \
    else dev_copy("shmem_" #N "_g", &v, t.p, sizeof(T), true);                                       \
    return v;                                                                                       \
  }                                                                                                 \
  void shmem_##N##_iput(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {         \
    iput_elems<sizeof(T)>("shmem_" #N "_iput", d, s, dst, sst, n, pe);                              \
  }                                                                                                 \
  void shmem_##N##_iget(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {         \
    iget_elems<sizeof(T)>("shmem_" #N "_iget", d, s, dst, sst, n, pe);                              \
  }                                                                                                 \
  void shmem_##N##_put_signal(T* d, const T* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) { \
    put_signal_bytes("shmem_" #N "_put_signal", d, s, bytes_of("shmem_" #N "_put_signal", n, sizeof(T)), sa, sv, \
                     op, pe);                                                                       \
  }                                                                                                 \
  void shmem_##N##_put_signal_nbi(T* d, const T* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) { \
    put_signal_bytes("shmem_" #N "_put_signal_nbi", d, s,                                           \
                     bytes_of("shmem_" #N "_put_signal_nbi", n, sizeof(T)), sa, sv, op, pe);        \
  }
GSHMEM_RMA_TYPES(GSHMEM_DEF_RMA)
#undef GSHMEM_DEF_RMA

#define GSHMEM_DEF_SIZED(B)                                                                          \
  void shmem_put##B(void* d, const void* s, size_t n, int pe) {                                      \
    put_bytes("shmem_put" #B, d, s, bytes_of("shmem_put" #B, n, B / 8), pe);                         \
  }                                                                                                  \
  void shmem_put##B##_nbi(void* d, const void* s, size_t n, int pe) {                                \
    put_bytes("shmem_put" #B "_nbi", d, s, bytes_of("shmem_put" #B "_nbi", n, B / 8), pe, true);           \
  }                                                                                                  \
  void shmem_get##B(void* d, const void* s, size_t n, int pe) {                                      \
    get_bytes("shmem_get" #B, d, s, bytes_of("shmem_get" #B, n, B / 8), pe);                         \
  }                                                                                                  \
  void shmem_get##B##_nbi(void* d, const void* s, size_t n, int pe) {                                \
    get_bytes("shmem_get" #B "_nbi", d, s, bytes_of("shmem_get" #B "_nbi", n, B / 8), pe, true);           \
  }                                                                                                  \
  void shmem_iput##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {       \
    iput_elems<B / 8>("shmem_iput" #B, d, s, dst, sst, n, pe);                                       \
  }                                                                                                  \
  void shmem_iget##B(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {       \
    iget_elems<B / 8>("shmem_iget" #B, d, s, dst, sst, n, pe);                                       \
  }                                                                                                  \
  void shmem_put##B##_signal(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) { \
    put_signal_bytes("shmem_put" #B "_signal", d, s, bytes_of("shmem_put" #B "_signal", n, B / 8), sa, sv, op, pe); \
  }                                                                                                  \
  void shmem_put##B##_signal_nbi(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) { \
    put_signal_bytes("shmem_put" #B "_signal_nbi", d, s, bytes_of("shmem_put" #B "_signal_nbi", n, B / 8), sa, sv, \
                     op, pe);                                                                        \
  }
GSHMEM_SIZES(GSHMEM_DEF_SIZED)
#undef GSHMEM_DEF_SIZED

void shmem_putmem(void* d, const void* s, size_t n, int pe) { put_bytes("shmem_putmem", d, s, n, pe); }
void shmem_putmem_nbi(void* d, const void* s, size_t n, int pe) { put_bytes("shmem_putmem_nbi", d, s, n, pe, true); }
void shmem_getmem(void* d, const void* s, size_t n, int pe) { get_bytes("shmem_getmem", d, s, n, pe); }
void shmem_getmem_nbi(void* d, const void* s, size_t n, int pe) { get_bytes("shmem_getmem_nbi", d, s, n, pe, true); }
void shmem_putmem_signal(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {
  put_signal_bytes("shmem_putmem_signal", d, s, n, sa, sv, op, pe);
}
void shmem_putmem_signal_nbi(void* d, const void* s, size_t n, uint64_t* sa, uint64_t sv, int op, int pe) {
  put_signal_bytes("shmem_putmem_signal_nbi", d, s, n, sa, sv, op, pe);
}

// Transport puts to one PE travel on one connection and are applied in order, so fence needs
// nothing from the transport; quiet waits for every one to be applied.
void shmem_fence(void) {
  dev_quiet();
  gshmem::memory_fence();
}
void shmem_quiet(void) {
  dev_quiet();
  transport_quiet();
  gshmem::memory_fence();
}

}  // extern "C"
