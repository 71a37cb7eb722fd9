#include "core/rma.hpp"

#include <cstring>

#include "core/detail/access.hpp"
#include "core/p2p.hpp"
#include "core/runtime.hpp"
#include "gshmem/constants.h"

namespace gshmem::core {

size_t bytes_of(const char* call, size_t nelems, size_t elem) {
  if (__builtin_expect(elem && nelems > SIZE_MAX / elem, 0))
    fatal(call, "nelems %zu overflows the address space (element size %zu)", nelems, elem);
  return nelems * elem;
}

void check_symmetric(const char* call, const void* addr, size_t bytes, int pe, const char* what) {
  if (!addr) fatal(call, "%s is NULL (target pe %d)", what, pe);
  (void)target(call, addr, bytes, pe, what);
}

namespace {
void check_local(const char* call, const void* p, const char* what, size_t nelems) {
  if (__builtin_expect(p == nullptr, 0)) fatal(call, "%s is NULL with nelems %zu", what, nelems);
}

// A mapped target in host memory (a CPU PE's heap, a GPU PE's globals): the local buffer may still
// be GPU memory on a GPU PE, which the CPU cannot copy.
void host_copy(const char* call, void* dst, const void* src, size_t n, const void* local, bool last) {
  mem::LocalMemory* m = rt(call).local_memory();
  if (m && m->is_device(local)) device_copy(call, dst, src, n, last);
  else memcpy(dst, src, n);
}
}  // namespace

void put(const char* call, void* dest, const void* src, size_t bytes, int pe, bool nbi) {
  if (bytes == 0) return;
  check_local(call, src, "source", bytes);
  if (!dest) fatal(call, "dest is NULL with %zu bytes (target pe %d)", bytes, pe);
  const Target t = target(call, dest, bytes, pe);
  if (t.via) check_transport(call, t.via->put(pe, t.seg, t.off, src, bytes));
  else if (t.device) device_put(call, t.p, src, bytes, !nbi);
  else host_copy(call, t.p, src, bytes, src, true);
}

void get(const char* call, void* dest, const void* src, size_t bytes, int pe, bool nbi) {
  if (bytes == 0) return;
  check_local(call, dest, "dest", bytes);
  if (!src) fatal(call, "source is NULL with %zu bytes (source pe %d)", bytes, pe);
  const Target t = target(call, src, bytes, pe, "source");
  if (t.via) check_transport(call, t.via->get(pe, t.seg, t.off, dest, bytes));
  else if (t.device) device_copy(call, dest, t.p, bytes, !nbi);
  else host_copy(call, dest, t.p, bytes, dest, true);
}

namespace {
// Strides of blocked transfers: at least the block (1.6 ibput/ibget), which keeps blocks disjoint.
void check_strides(const char* call, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, int pe) {
  const auto b = static_cast<ptrdiff_t>(bsize);
  if (bsize > static_cast<size_t>(PTRDIFF_MAX) || dst < b || sst < b)
    fatal(call, "strides must be at least the block size %zu elements (dst %td, sst %td, pe %d)", bsize, dst, sst, pe);
}
// Bytes from the first element of block 0 to the end of the last block.
size_t blocked_span(const char* call, ptrdiff_t stride, size_t bsize, size_t nblocks, size_t e) {
  return bytes_of(call, bytes_of(call, nblocks - 1, static_cast<size_t>(stride)) + bsize, e);
}
}  // namespace

void ibput(const char* call, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,
           size_t e, int pe) {
  if (nblocks == 0 || bsize == 0) return;
  check_strides(call, dst, sst, bsize, pe);
  check_local(call, src, "source", nblocks * bsize);
  if (!dest) fatal(call, "dest is NULL with %zu blocks (target pe %d)", nblocks, pe);
  if (static_cast<size_t>(dst) == bsize && static_cast<size_t>(sst) == bsize)  // contiguous: one transfer
    return put(call, dest, src, blocked_span(call, dst, bsize, nblocks, e), pe, false);
  const Target t = target(call, dest, blocked_span(call, dst, bsize, nblocks, e), pe);
  (void)blocked_span(call, sst, bsize, nblocks, e);  // the source span fits the address space too
  const char* s = static_cast<const char*>(src);
  const size_t block = bsize * e;
  for (size_t i = 0; i < nblocks; ++i) {
    const size_t to = i * static_cast<size_t>(dst) * e, from = i * static_cast<size_t>(sst) * e;
    if (t.via) check_transport(call, t.via->put(pe, t.seg, t.off + to, s + from, block));
    else if (t.device) device_copy(call, t.p + to, s + from, block, i + 1 == nblocks);
    else host_copy(call, t.p + to, s + from, block, s, i + 1 == nblocks);
  }
}

void ibget(const char* call, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,
           size_t e, int pe) {
  if (nblocks == 0 || bsize == 0) return;
  check_strides(call, dst, sst, bsize, pe);
  check_local(call, dest, "dest", nblocks * bsize);
  if (!src) fatal(call, "source is NULL with %zu blocks (source pe %d)", nblocks, pe);
  if (static_cast<size_t>(dst) == bsize && static_cast<size_t>(sst) == bsize)
    return get(call, dest, src, blocked_span(call, sst, bsize, nblocks, e), pe, false);
  const Target t = target(call, src, blocked_span(call, sst, bsize, nblocks, e), pe, "source");
  (void)blocked_span(call, dst, bsize, nblocks, e);
  char* d = static_cast<char*>(dest);
  const size_t block = bsize * e;
  for (size_t i = 0; i < nblocks; ++i) {
    const size_t to = i * static_cast<size_t>(dst) * e, from = i * static_cast<size_t>(sst) * e;
    if (t.via) check_transport(call, t.via->get(pe, t.seg, t.off + from, d + to, block));
    else if (t.device) device_copy(call, d + to, t.p + from, block, i + 1 == nblocks);
    else host_copy(call, d + to, t.p + from, block, d, i + 1 == nblocks);
  }
}

namespace {
void check_sig_op(const char* call, int sig_op, int pe) {
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD (target pe %d)", sig_op, pe);
}

}  // namespace

void signal_update(const char* call, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) {
  if (!sig_addr) fatal(call, "sig_addr is NULL (target pe %d)", pe);
  const Target t = target(call, sig_addr, sizeof(uint64_t), pe, "sig_addr");
  if (t.via) {  // the same transport as the data: performed after it
    check_transport(call, t.via->signal(pe, t.seg, t.off, signal, sig_op));
    return;
  }
  if (reinterpret_cast<uintptr_t>(sig_addr) % sizeof(uint64_t))
    fatal(call, "sig_addr %p is not 8-byte aligned (target pe %d)", static_cast<void*>(sig_addr), pe);
  if (t.device) {
    if (sig_op == SHMEM_SIGNAL_SET) device_write64(call, reinterpret_cast<uint64_t*>(t.p), signal);
    else (void)device_amo(call, t.p, sizeof(uint64_t), GSHMEM_AMO_ADD, signal, 0);  // after the blocking copy
    return;
  }
  uint64_t* s = reinterpret_cast<uint64_t*>(t.p);
  memory_fence();
  if (sig_op == SHMEM_SIGNAL_SET) __atomic_store_n(s, signal, __ATOMIC_RELEASE);
  else __atomic_fetch_add(s, signal, __ATOMIC_RELEASE);
}

void put_signal(const char* call, void* dest, const void* src, size_t bytes, uint64_t* sig_addr, uint64_t signal,
                int sig_op, int pe) {
  // Validate the signal before moving data so a bad signal never leaves a half-done operation.
  check_sig_op(call, sig_op, pe);
  if (!sig_addr) fatal(call, "sig_addr is NULL (target pe %d)", pe);
  (void)target(call, sig_addr, sizeof(uint64_t), pe, "sig_addr");
  if (reinterpret_cast<uintptr_t>(sig_addr) % sizeof(uint64_t))
    fatal(call, "sig_addr %p is not 8-byte aligned (target pe %d)", static_cast<void*>(sig_addr), pe);
  put(call, dest, src, bytes, pe, false);
  signal_update(call, sig_addr, signal, sig_op, pe);
}

void transport_quiet() {
  if (!running()) return;
  Runtime& r = *g_rt;
  for (Runtime::Held& h : r.transports)
    if (h.collective) check_transport("shmem_quiet", h.t->quiet());
}

// Each transport orders its own operations to a PE behind a fence; the device side: the PE's
// stream and its proxied operations complete.
void fence(const char* call) {
  Runtime& r = rt(call);
  device_quiet(call, r);
  for (Runtime::Held& h : r.transports)
    if (h.collective) check_transport(call, h.t->fence());
  memory_fence();
}

void quiet(const char* call) {
  Runtime& r = rt(call);
  device_quiet(call, r);
  transport_quiet();
  memory_fence();
}

void pe_quiet(const char* call, const int* pes, size_t n, int (*to_world)(const char*, int, void*), void* arg) {
  if (n == 0) return;
  Runtime& r = rt(call);
  if (!pes) fatal(call, "target_pes is NULL with npes %zu", n);
  device_quiet(call, r);  // one stream carries this PE's host copies to every mapped GPU
  for (size_t i = 0; i < n; ++i) {
    const int pe = to_world ? to_world(call, pes[i], arg) : pes[i];
    if (static_cast<unsigned>(pe) >= static_cast<unsigned>(r.npes))
      fatal(call, "target_pes[%zu] = %d is out of range [0, %d)", i, pes[i], r.npes);
    // Mapped targets were written by this thread's stores (complete once fenced below); a
    // transport completes what it carried to pe alone.
    if (transport::Transport* t = r.routes[static_cast<size_t>(pe)].transport) check_transport(call, t->quiet(pe));
  }
  memory_fence();
}

void sync_all(const char* call) {
  Runtime& r = rt(call);
  flush_queued(call);  // not a completion (sync is no quiet), but no queued put waits behind it
  r.teams.sync_serialized(*r.teams.get(team::kWorld));
}

void barrier_all(const char* call) {
  quiet(call);
  sync_all(call);
}

void* ptr(const void* dest, int pe) {
  Runtime& r = rt("shmem_ptr");
  if (pe < 0 || pe >= r.npes) return nullptr;
  const heap::Target t = r.heap.translate(dest, 1, pe);
  return t.error == heap::Target::Error::none ? t.p : nullptr;
}

// Accessible = reachable by the data transfer routines: mapped, or through a transport.
int pe_accessible(int pe) {
  Runtime& r = rt("shmem_pe_accessible");
  if (pe < 0 || pe >= r.npes) return 0;
  const transport::Route& x = r.routes[static_cast<size_t>(pe)];
  return x.kind == transport::Route::Kind::self || x.mapped || x.transport != nullptr;
}

int addr_accessible(const void* addr, int pe) {
  Runtime& r = rt("shmem_addr_accessible");
  if (pe < 0 || pe >= r.npes) return 0;
  const heap::Target t = r.heap.translate(addr, 1, pe);
  if (t.error != heap::Target::Error::none) return 0;
  return t.p != nullptr || r.routes[static_cast<size_t>(pe)].transport != nullptr;
}

}  // namespace gshmem::core
