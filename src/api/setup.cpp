// Library setup, exit and query; the deprecated setup and allocation names.
#include <shmem.h>
#include <shmemx.h>

#include <cstdlib>

#include "api/access.hpp"
#include "api/device_ops.hpp"
#include "common/wait.hpp"

namespace gshmem::api {

void not_initialized(const char* call) {
  fatal(call, "called %s", g_rt_state.load() == static_cast<int>(RtState::finalized) ? "after shmem_finalize" : "before shmem_init");
}

void bad_address(const char* call, const char* what, const void* addr, size_t bytes, int pe) {
  Runtime& r = *g_rt;
  const heap::Region& h = r.heap.heap_region();
  const heap::Region& d = r.heap.data_region();
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const char* why = addr == nullptr                                  ? "is NULL"
                    : (a - h.lo < h.size || a - d.lo < d.size)       ? "extends past the end of its symmetric segment"
                                                                     : "is not a symmetric address";
  fatal(call, "%s %p (%zu bytes) %s (target pe %d, heap %p + %zu, data %p + %zu)", what, addr, bytes, why, pe,
            reinterpret_cast<void*>(h.lo), h.size, reinterpret_cast<void*>(d.lo), d.size);
}

}  // namespace gshmem::api

using namespace gshmem;
using namespace gshmem::api;

extern "C" {

void shmem_init(void) { runtime_init("shmem_init", SHMEM_THREAD_SINGLE, nullptr); }

int shmem_init_thread(int requested, int* provided) {
  if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
    report_error("shmem_init_thread", "requested %d is not a SHMEM_THREAD_* level", requested);
    return 1;
  }
  // Every level is provided: RMA, AMO and waits take no locks; collectives and allocation
  // serialise internally.
  runtime_init("shmem_init_thread", requested, provided);
  return 0;
}

void shmem_query_thread(int* provided) {
  Runtime& r = rt("shmem_query_thread");
  if (!provided) fatal("shmem_query_thread", "provided is NULL");
  *provided = r.thread_level;
}

void shmem_finalize(void) { runtime_finalize(); }

void shmem_global_exit(int status) {
  fflush(nullptr);
  if (g_rt_state.load() == static_cast<int>(RtState::running)) g_rt->boot->global_exit(status);
  gshmem::terminate(status);
}

int shmem_my_pe(void) { return g_rt_state.load() == static_cast<int>(RtState::running) ? g_rt->my_pe : -1; }
int shmem_n_pes(void) { return g_rt_state.load() == static_cast<int>(RtState::running) ? g_rt->npes : -1; }

// Accessible = reachable by the data transfer routines: mapped, or through the transport.
int shmem_pe_accessible(int pe) {
  Runtime& r = rt("shmem_pe_accessible");
  return pe >= 0 && pe < r.npes && (r.heap.heap_region().peer[static_cast<size_t>(pe)] != nullptr || r.tcp);
}

static char* translate_or_null(const void* addr, int pe) {
  Runtime& r = *g_rt;
  if (pe < 0 || pe >= r.npes) return nullptr;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  for (const heap::Region* reg : {&r.heap.heap_region(), &r.heap.data_region()})
    if (a - reg->lo < reg->size && reg->peer[static_cast<size_t>(pe)]) return reg->peer[static_cast<size_t>(pe)] + (a - reg->lo);
  return nullptr;
}

int shmem_addr_accessible(const void* addr, int pe) {
  Runtime& r = rt("shmem_addr_accessible");
  if (translate_or_null(addr, pe)) return 1;
  if (!r.tcp || pe < 0 || pe >= r.npes) return 0;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const heap::Region& h = r.heap.heap_region();
  const heap::Region& d = r.heap.data_region();
  return (!h.device && a - h.lo < h.size) || a - d.lo < d.size;  // symmetric, reached through the proxy
}

void* shmem_ptr(const void* dest, int pe) {
  rt("shmem_ptr");
  return translate_or_null(dest, pe);
}

void shmem_info_get_version(int* major, int* minor) {
  if (major) *major = SHMEM_MAJOR_VERSION;
  if (minor) *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char* name) {
  if (!name) return;
  snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

void shmem_barrier_all(void) {
  rt("shmem_barrier_all");
  dev_quiet();
  transport_quiet();
  memory_fence();
  sync_world();
}

void shmem_sync_all(void) {
  rt("shmem_sync_all");
  sync_world();
}

const char* shmemx_bootstrap_name(void) { return rt("shmemx_bootstrap_name").boot->name(); }
int shmemx_local_npes(void) { return rt("shmemx_local_npes").topo.local_size; }
int shmemx_local_pe(void) { return rt("shmemx_local_pe").topo.local_rank; }

// ---- Deprecated ----
static void finalize_at_exit() { shmem_finalize(); }

void start_pes(int) {
  // Programs written for start_pes never call shmem_finalize: finalize when main returns.
  static bool registered = false;
  shmem_init();
  if (!registered) {
    registered = true;
    atexit(finalize_at_exit);
  }
}
int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }
void* shmalloc(size_t size) { return shmem_malloc(size); }
void shfree(void* ptr) { shmem_free(ptr); }
void* shrealloc(void* ptr, size_t size) { return shmem_realloc(ptr, size); }
void* shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }

}  // extern "C"
