// Library setup, exit and query; the deprecated setup and allocation names. Each entry point checks
// its arguments and makes one call into core.
#include <shmem.h>
#include <shmemx.h>

#include <cstdio>
#include <cstdlib>

#include "core/alloc.hpp"
#include "core/modules.hpp"
#include "core/rma.hpp"
#include "core/runtime.hpp"

using namespace gshmem;

extern "C" {

void shmem_init(void) { core::init("shmem_init", SHMEM_THREAD_SINGLE, nullptr); }

int shmemx_cumodule_init(struct CUmod_st* m) { return core::module_init("shmemx_cumodule_init", m, false); }
int shmemx_cumodule_finalize(struct CUmod_st* m) { return core::module_finalize("shmemx_cumodule_finalize", m); }
int shmemx_culibrary_init(struct CUlib_st* l) { return core::module_init("shmemx_culibrary_init", l, true); }
int shmemx_culibrary_finalize(struct CUlib_st* l) { return core::module_finalize("shmemx_culibrary_finalize", l); }

int shmem_init_thread(int requested, int* provided) {
  if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
    report_error("shmem_init_thread", "requested %d is not a SHMEM_THREAD_* level", requested);
    return 1;
  }
  // Every level is provided: RMA, AMO and waits take no locks; collectives and allocation
  // serialise internally.
  core::init("shmem_init_thread", requested, provided);
  return 0;
}

void shmem_query_thread(int* provided) {
  if (!provided) fatal("shmem_query_thread", "provided is NULL");
  *provided = core::thread_level("shmem_query_thread");
}

void shmem_query_initialized(int* initialized) {
  if (!initialized) fatal("shmem_query_initialized", "initialized is NULL");
  *initialized = core::running();
}

void shmem_finalize(void) { core::finalize(); }
void shmem_global_exit(int status) { core::global_exit(status); }

int shmem_my_pe(void) { return core::my_pe(); }
int shmem_n_pes(void) { return core::n_pes(); }
int shmem_pe_accessible(int pe) { return core::pe_accessible(pe); }
int shmem_addr_accessible(const void* addr, int pe) { return core::addr_accessible(addr, pe); }
void* shmem_ptr(const void* dest, int pe) { return core::ptr(dest, pe); }

void shmem_info_get_version(int* major, int* minor) {
  if (major) *major = SHMEM_MAJOR_VERSION;
  if (minor) *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char* name) {
  if (!name) return;
  snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

// Profiling control: the library's own definition ignores level (a tool interposes shmem_pcontrol).
void shmem_pcontrol(int level, ...) { (void)level; }

void shmem_barrier_all(void) { core::barrier_all("shmem_barrier_all"); }
void shmem_sync_all(void) { core::sync_all("shmem_sync_all"); }
void shmem_fence(void) { core::fence("shmem_fence"); }
void shmem_quiet(void) { core::quiet("shmem_quiet"); }
void shmem_pe_quiet(const int* pes, size_t n) { core::pe_quiet("shmem_pe_quiet", pes, n, nullptr, nullptr); }

const char* shmemx_bootstrap_name(void) { return core::bootstrap_name("shmemx_bootstrap_name"); }
int shmemx_local_npes(void) { return core::local_npes("shmemx_local_npes"); }
int shmemx_local_pe(void) { return core::local_pe("shmemx_local_pe"); }
int shmemx_device(void) { return core::device_ordinal("shmemx_device"); }

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
