// The CUDA driver API, reached without linking libcuda: dlopen("libcuda.so.1") and
// cuGetProcAddress for every entry point, so libgshmem starts on machines without a GPU.
#pragma once
#include "common/status.hpp"

#if GSHMEM_HAVE_CUDA
#include <cuda.h>

namespace gshmem::cu {

// clang-format off
#define GSHMEM_CU_FUNCTIONS(X)                                                                             \
  X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetAttribute) X(cuDeviceGetName)                  \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxSetCurrent) X(cuCtxGetCurrent)           \
  X(cuCtxGetDevice) X(cuCtxSynchronize) X(cuMemGetInfo) X(cuMemGetAllocationGranularity) X(cuMemCreate)    \
  X(cuMemRelease) X(cuMemExportToShareableHandle) X(cuMemImportFromShareableHandle) X(cuMemAddressReserve) \
  X(cuMemAddressFree) X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess) X(cuMemcpyAsync) X(cuMemsetD8Async)       \
  X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) X(cuStreamWriteValue64) X(cuStreamWaitValue64) \
  X(cuGetErrorString) X(cuPointerGetAttribute) X(cuModuleLoadData) X(cuModuleGetFunction) X(cuLaunchKernel) \
  X(cuModuleGetGlobal) X(cuLaunchCooperativeKernel) X(cuFuncSetAttribute) X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
  X(cuMemAlloc) X(cuMemFree) X(cuIpcGetMemHandle) X(cuIpcOpenMemHandle) X(cuIpcCloseMemHandle)          \
  X(cuMemHostAlloc) X(cuMemFreeHost) X(cuMemHostGetDevicePointer) X(cuStreamBatchMemOp) X(cuEventCreate)   \
  X(cuEventRecord) X(cuEventQuery) X(cuEventDestroy) X(cuStreamWaitEvent) X(cuMemGetHandleForAddressRange) \
  X(cuMemRetainAllocationHandle) X(cuMemGetAddressRange) X(cuMemcpyHtoD) X(cuLibraryGetGlobal)       \
  X(cuMemHostRegister) X(cuMemHostUnregister)
// clang-format on

struct Driver {
#define GSHMEM_CU_MEMBER(f) decltype(&::f) f = nullptr;
  GSHMEM_CU_FUNCTIONS(GSHMEM_CU_MEMBER)
#undef GSHMEM_CU_MEMBER
  // Optional: cuMemcpyBatchAsync as CUDA 13 declares it (no failIdx; attrs is a CUmemcpyAttributes*,
  // a type older headers lack); null where the driver is older than CUDA 13.
  using MemcpyBatch = CUresult (*)(CUdeviceptr*, CUdeviceptr*, size_t*, size_t, void*, size_t*, size_t, CUstream);
  MemcpyBatch memcpy_batch = nullptr;
};

// Loads once. not_available (with the reason logged at INFO) when there is no driver.
Status load(const Driver** out);
const char* error_string(CUresult r);

}  // namespace gshmem::cu

// Calls a driver function; on failure logs "<call> failed: <error>" and returns system_error.
#define GSHMEM_CU(drv, call, ...)                                                                           \
  do {                                                                                                      \
    CUresult gshmem_cu_r_ = (drv).call(__VA_ARGS__);                                                        \
    if (gshmem_cu_r_ != CUDA_SUCCESS) {                                                                     \
      GSHMEM_WARN(::gshmem::Subsys::mem, "%s failed: %s", #call, ::gshmem::cu::error_string(gshmem_cu_r_)); \
      return ::gshmem::Status::system_error;                                                                \
    }                                                                                                       \
  } while (0)
#endif
