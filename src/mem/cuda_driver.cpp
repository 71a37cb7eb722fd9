#include "mem/cuda_driver.hpp"

#if GSHMEM_HAVE_CUDA
#include <dlfcn.h>

#include <mutex>

#include "common/log.hpp"

namespace gshmem::cu {
namespace {
Driver g_drv;
Status g_status = Status::not_available;
std::once_flag g_once;

void do_load() {
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    GSHMEM_INFO(Subsys::mem, "no CUDA driver (libcuda.so.1: %s)", dlerror());
    return;
  }
  using GetProc = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);
  auto get = reinterpret_cast<GetProc>(dlsym(h, "cuGetProcAddress_v2"));
  if (!get) {
    GSHMEM_WARN(Subsys::mem, "CUDA driver too old: no cuGetProcAddress_v2 (need a CUDA 12+ driver)");
    return;
  }
  bool ok = true;
#define GSHMEM_CU_LOAD(f)                                                                                      \
  {                                                                                                            \
    CUdriverProcAddressQueryResult q;                                                                          \
    if (get(#f, reinterpret_cast<void**>(&g_drv.f), 12000, CU_GET_PROC_ADDRESS_DEFAULT, &q) != CUDA_SUCCESS || \
        !g_drv.f) {                                                                                            \
      GSHMEM_WARN(Subsys::mem, "CUDA driver lacks %s", #f);                                                    \
      ok = false;                                                                                              \
    }                                                                                                          \
  }
  GSHMEM_CU_FUNCTIONS(GSHMEM_CU_LOAD)
#undef GSHMEM_CU_LOAD
  if (!ok) return;
  // cuMemcpyBatchAsync changed its signature in CUDA 13 (failIdx removed): taken only from a CUDA 13+
  // driver, asked for by that version.
  using DriverVersion = CUresult (*)(int*);
  int version = 0;
  auto driver_version = reinterpret_cast<DriverVersion>(dlsym(h, "cuDriverGetVersion"));
  if (driver_version && driver_version(&version) == CUDA_SUCCESS && version >= 13000) {
    CUdriverProcAddressQueryResult q;
    void* p = nullptr;
    if (get("cuMemcpyBatchAsync", &p, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &q) == CUDA_SUCCESS && p)
      g_drv.memcpy_batch = reinterpret_cast<decltype(g_drv.memcpy_batch)>(p);
  }
  CUresult r = g_drv.cuInit(0);
  if (r != CUDA_SUCCESS) {
    const char* s = nullptr;
    g_drv.cuGetErrorString(r, &s);
    GSHMEM_INFO(Subsys::mem, "cuInit: %s", s ? s : "unknown error");
    return;
  }
  g_status = Status::ok;
}
}  // namespace

Status load(const Driver** out) {
  std::call_once(g_once, do_load);
  *out = &g_drv;
  return g_status;
}

const char* error_string(CUresult r) {
  const char* s = nullptr;
  if (g_drv.cuGetErrorString) g_drv.cuGetErrorString(r, &s);
  return s ? s : "unknown CUDA error";
}

}  // namespace gshmem::cu
#endif
