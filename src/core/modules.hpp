// Device state for kernels the program loads through the driver (shmemx_cumodule_init,
// shmemx_culibrary_init): their gshmemi_dstate is found by name and kept current.
#pragma once

namespace gshmem::core {

// handle: a CUmodule (library false) or CUlibrary (library true). SHMEMX_* return codes.
int module_init(const char* call, void* handle, bool library);
int module_finalize(const char* call, void* handle);

}  // namespace gshmem::core
