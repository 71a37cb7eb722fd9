#include "core/modules.hpp"

#include <shmemx.h>

#include "core/detail/runtime.hpp"
#include "mem/device_state.hpp"

namespace gshmem::core {

int module_init(const char* call, void* handle, bool library) {
  Runtime& r = rt(call);
  const char* what = library ? "library" : "module";
  if (!handle) {
    report_error(call, "the %s is NULL", what);
    return SHMEMX_ERROR_INVALID_VALUE;
  }
#if GSHMEM_HAVE_CUDA
  if (!r.gpu) {
    report_error(call, "this is a CPU PE: kernels have no device state here");
    return SHMEMX_ERROR_NOT_SUPPORTED;
  }
  mem::gpu_make_current(*r.gpu);
  const cu::Driver& d = *r.gpu->drv;
  CUdeviceptr p = 0;
  size_t n = 0;
  CUresult res = CUDA_ERROR_NOT_FOUND;
  // A unit's copy is internal to it: "gshmemi_dstate" in whole-program compilation (what nvcc does
  // without -rdc), the mangled name otherwise.
  for (const char* name : {"gshmemi_dstate", "_ZL14gshmemi_dstate"}) {
    res = library ? d.cuLibraryGetGlobal(&p, &n, static_cast<CUlibrary>(handle), name)
                  : d.cuModuleGetGlobal(&p, &n, static_cast<CUmodule>(handle), name);
    if (res == CUDA_SUCCESS) break;
  }
  if (res != CUDA_SUCCESS) {
    report_error(call,
                 "%s %p has no gshmem device state (gshmemi_dstate: %s); compile it with shmem.h or nvshmem.h "
                 "included",
                 what, handle, cu::error_string(res));
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  if (n != sizeof(gshmem_device_state)) {
    report_error(call,
                 "the device state in %s %p is %zu bytes, this library's %zu: it was built against another "
                 "gshmem version",
                 what, handle, n, sizeof(gshmem_device_state));
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  if (mem::add_module_state(&d, r.gpu->ctx, handle, p) != Status::ok) {
    report_error(call, "copying the device state into %s %p failed (see above)", what, handle);
    return SHMEMX_ERROR_INTERNAL;
  }
  return SHMEMX_SUCCESS;
#else
  (void)r;
  report_error(call, "this gshmem was built without CUDA");
  return SHMEMX_ERROR_NOT_SUPPORTED;
#endif
}

int module_finalize(const char* call, void* handle) {
  (void)rt(call);
#if GSHMEM_HAVE_CUDA
  if (mem::remove_module_state(handle)) return SHMEMX_SUCCESS;
#endif
  report_error(call, "%p was not initialised (shmemx_cumodule_init / shmemx_culibrary_init)", handle);
  return SHMEMX_ERROR_INVALID_VALUE;
}

}  // namespace gshmem::core
