#include "api/device_ops.hpp"

#include <mutex>

#include "api/access.hpp"
#include "proxy/gpu_proxy.hpp"

namespace gshmem::api {

#if GSHMEM_HAVE_CUDA
GpuContext& gpu_for(const char* call) {
  Runtime& r = rt(call);
  if (!r.gpu) fatal(call, "needs a GPU PE (this PE has the host heap kind)");
  gpu_make_current(*r.gpu);
  return *r.gpu;
}

void cu_check(const char* call, CUresult res, const char* what) {
  if (res != CUDA_SUCCESS) fatal(call, "%s failed: %s", what, cu::error_string(res));
}

namespace {
GpuContext& gpu(const char* call) { return gpu_for(call); }
void check(const char* call, CUresult res, const char* what) { cu_check(call, res, what); }
thread_local CUstream t_ctx_stream = nullptr;  // set while a context with its own stream calls in
CUstream op_stream(const GpuContext& g) { return t_ctx_stream ? t_ctx_stream : g.stream; }
}  // namespace

void set_ctx_stream(void* s) { t_ctx_stream = static_cast<CUstream>(s); }

void* dev_stream_create(const char* call) {
  GpuContext& g = gpu(call);
  CUstream s = nullptr;
  check(call, g.drv->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return s;
}
void dev_stream_quiet(const char* call, void* s) {
  GpuContext& g = gpu(call);
  check(call, g.drv->cuStreamSynchronize(static_cast<CUstream>(s)), "cuStreamSynchronize");
}
void dev_stream_destroy(const char* call, void* s) {
  GpuContext& g = gpu(call);
  check(call, g.drv->cuStreamSynchronize(static_cast<CUstream>(s)), "cuStreamSynchronize");
  g.drv->cuStreamDestroy(static_cast<CUstream>(s));
}

void dev_copy(const char* call, void* dst, const void* src, size_t bytes, bool blocking) {
  GpuContext& g = gpu(call);
  const CUstream s = op_stream(g);
  check(call, g.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), bytes, s),
        "cuMemcpyAsync");
  if (blocking) check(call, g.drv->cuStreamSynchronize(s), "cuStreamSynchronize");
}

void dev_write64(const char* call, uint64_t* dst, uint64_t value) {
  GpuContext& g = gpu(call);
  // The default flag makes the write wait for a system-wide fence after the preceding copies.
  const CUstream s = op_stream(g);
  check(call, g.drv->cuStreamWriteValue64(s, reinterpret_cast<CUdeviceptr>(dst), value, 0), "cuStreamWriteValue64");
  check(call, g.drv->cuStreamSynchronize(s), "cuStreamSynchronize");
}

void dev_quiet() {
  if (!g_rt || !g_rt->gpu) return;
  GpuContext& g = gpu("shmem_quiet");
  check("shmem_quiet", g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
  // and what GPU threads pushed to the proxy so far (kernels that ended may leave some in flight)
  if (g_rt->gproxy) proxy::gpu_proxy_quiet(*g_rt->gproxy);
}

bool dev_active() { return g_rt && g_rt->gpu != nullptr; }

}  // namespace gshmem::api

extern "C" const char gshmem_host_amo_ptx[];

namespace gshmem::api {
namespace {
std::mutex g_amo_mu;  // serialises host AMOs: one scratch word per PE
CUmodule g_amo_mod = nullptr;
CUfunction g_amo_fn[2] = {nullptr, nullptr};  // 32-bit, 64-bit

CUfunction amo_kernel(const char* call, GpuContext& g, size_t size) {
  if (!g_amo_mod) {
    check(call, g.drv->cuModuleLoadData(&g_amo_mod, gshmem_host_amo_ptx), "cuModuleLoadData(host atomics PTX)");
    check(call, g.drv->cuModuleGetFunction(&g_amo_fn[0], g_amo_mod, "gshmem_amo32"), "cuModuleGetFunction");
    check(call, g.drv->cuModuleGetFunction(&g_amo_fn[1], g_amo_mod, "gshmem_amo64"), "cuModuleGetFunction");
  }
  if (size != 4 && size != 8) fatal(call, "atomics on GPU memory need 4- or 8-byte objects (got %zu)", size);
  return g_amo_fn[size == 8];
}

void launch_amo(const char* call, GpuContext& g, CUfunction f, size_t size, void* target, AmoOp op, uint64_t a,
                uint64_t b, void* out, CUstream s) {
  int iop = static_cast<int>(op);
  unsigned a32 = static_cast<unsigned>(a), b32 = static_cast<unsigned>(b);
  void* args64[] = {&target, &iop, &a, &b, &out};
  void* args32[] = {&target, &iop, &a32, &b32, &out};
  check(call, g.drv->cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, size == 8 ? args64 : args32, nullptr),
        "cuLaunchKernel(host atomic)");
}
}  // namespace

uint64_t dev_amo(const char* call, void* target, size_t size, AmoOp op, uint64_t a, uint64_t b) {
  GpuContext& g = gpu(call);
  std::lock_guard<std::mutex> lock(g_amo_mu);
  CUfunction f = amo_kernel(call, g, size);
  void* scratch = reinterpret_cast<void*>(g_rt->heap.device_segment(g_rt->my_pe) + GSHMEM_DEV_CTRL_SCRATCH);
  const CUstream s = op_stream(g);
  launch_amo(call, g, f, size, target, op, a, b, scratch, s);
  uint64_t old = 0;
  check(call, g.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(&old), reinterpret_cast<CUdeviceptr>(scratch), size, s),
        "cuMemcpyAsync");
  check(call, g.drv->cuStreamSynchronize(s), "cuStreamSynchronize");
  return old;
}

void dev_amo_async(const char* call, void* target, size_t size, AmoOp op, uint64_t a, uint64_t b, void* out,
                   void* stream) {
  GpuContext& g = gpu(call);
  CUfunction f;
  {
    std::lock_guard<std::mutex> lock(g_amo_mu);
    f = amo_kernel(call, g, size);
  }
  launch_amo(call, g, f, size, target, op, a, b, out, static_cast<CUstream>(stream));
}

void dev_amo_preload(const char* call, GpuContext& g, void* word) {
  gpu_make_current(g);
  for (size_t size : {size_t{4}, size_t{8}}) {
    CUfunction f;
    {
      std::lock_guard<std::mutex> lock(g_amo_mu);
      f = amo_kernel(call, g, size);
    }
    launch_amo(call, g, f, size, word, AmoOp::fetch, 0, 0, nullptr, g.stream);
  }
  check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}

void dev_amo_on_stream(const char* call, void* target, size_t size, AmoOp op, uint64_t a, void* stream) {
  dev_amo_async(call, target, size, op, a, 0, nullptr, stream);
}
#else
void set_ctx_stream(void*) {}
void* dev_stream_create(const char*) { return nullptr; }
void dev_stream_quiet(const char*, void*) {}
void dev_stream_destroy(const char*, void*) {}
void dev_copy(const char* call, void*, const void*, size_t, bool) { fatal(call, "built without CUDA"); }
void dev_write64(const char* call, uint64_t*, uint64_t) { fatal(call, "built without CUDA"); }
void dev_quiet() {}
bool dev_active() { return false; }
uint64_t dev_amo(const char* call, void*, size_t, AmoOp, uint64_t, uint64_t) { fatal(call, "built without CUDA"); }
void dev_amo_on_stream(const char* call, void*, size_t, AmoOp, uint64_t, void*) { fatal(call, "built without CUDA"); }
void dev_amo_async(const char* call, void*, size_t, AmoOp, uint64_t, uint64_t, void*, void*) {
  fatal(call, "built without CUDA");
}
#endif

}  // namespace gshmem::api
