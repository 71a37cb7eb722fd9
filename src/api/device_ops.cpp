#include "api/device_ops.hpp"

#include "api/access.hpp"

namespace gshmem::api {

#if GSHMEM_HAVE_CUDA
namespace {
GpuContext& gpu(const char* call) {
  Runtime& r = rt(call);
  if (!r.gpu) api_error(call, "internal: device heap without a GPU context");
  gpu_make_current(*r.gpu);
  return *r.gpu;
}
void check(const char* call, CUresult res, const char* what) {
  if (res != CUDA_SUCCESS) api_error(call, "%s failed: %s", what, cu::error_string(res));
}
}  // namespace

void dev_copy(const char* call, void* dst, const void* src, size_t bytes, bool blocking) {
  GpuContext& g = gpu(call);
  check(call, g.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), bytes,
                                   g.stream),
        "cuMemcpyAsync");
  if (blocking) check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}

void dev_write64(const char* call, uint64_t* dst, uint64_t value) {
  GpuContext& g = gpu(call);
  // The default flag makes the write wait for a system-wide fence after the preceding copies.
  check(call, g.drv->cuStreamWriteValue64(g.stream, reinterpret_cast<CUdeviceptr>(dst), value, 0),
        "cuStreamWriteValue64");
  check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}

void dev_quiet() {
  if (!g_rt || !g_rt->gpu) return;
  GpuContext& g = gpu("shmem_quiet");
  check("shmem_quiet", g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}

bool dev_active() { return g_rt && g_rt->gpu != nullptr; }
#else
void dev_copy(const char* call, void*, const void*, size_t, bool) { api_error(call, "built without CUDA"); }
void dev_write64(const char* call, uint64_t*, uint64_t) { api_error(call, "built without CUDA"); }
void dev_quiet() {}
bool dev_active() { return false; }
#endif

}  // namespace gshmem::api
