#include "core/streams.hpp"

#include "coll/gpu_coll.hpp"
#include "core/detail/access.hpp"
#include "gshmem/constants.h"
#include "gshmem/device_host/team.h"

namespace gshmem::core {

#if GSHMEM_HAVE_CUDA
namespace {
mem::GpuContext& stream_gpu(const char* call) {
  Runtime& r = rt(call);
  if (!r.ops) fatal(call, "needs a GPU PE (this PE has the host heap kind)");
  mem::gpu_make_current(*r.gpu);
  return *r.gpu;
}
// A user's stream 0 is the legacy default stream (CU_STREAM_LEGACY in the driver API).
CUstream as_cu(void* s) { return s ? static_cast<CUstream>(s) : CU_STREAM_LEGACY; }
void cu_check(const char* call, CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) fatal(call, "%s failed: %s", what, cu::error_string(r));
}
// On-stream operations address mapped device segments only.
char* mapped(const char* call, const void* addr, size_t n, int pe, const char* what) {
  const Target t = target(call, addr, n, pe, what);
  if (!t.p)
    fatal(call, "pe %d is reached through the %s transport; on-stream operations need a mapped peer", pe,
          t.via->name());
  return t.p;
}
}  // namespace

void putmem_on_stream(const char* call, void* dest, const void* src, size_t n, int pe, void* stream) {
  if (!n) return;
  mem::GpuContext& g = stream_gpu(call);
  if (!src) fatal(call, "source is NULL with nelems %zu", n);
  char* d = mapped(call, dest, n, pe, "dest");
  cu_check(call,
           g.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(d), reinterpret_cast<CUdeviceptr>(src), n, as_cu(stream)),
           "cuMemcpyAsync");
}

void getmem_on_stream(const char* call, void* dest, const void* src, size_t n, int pe, void* stream) {
  if (!n) return;
  mem::GpuContext& g = stream_gpu(call);
  if (!dest) fatal(call, "dest is NULL with nelems %zu", n);
  char* s = mapped(call, src, n, pe, "source");
  cu_check(
      call,
      g.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dest), reinterpret_cast<CUdeviceptr>(s), n, as_cu(stream)),
      "cuMemcpyAsync");
}

void putmem_signal_on_stream(const char* call, void* dest, const void* src, size_t n, uint64_t* sig_addr,
                             uint64_t signal, int sig_op, int pe, void* stream) {
  mem::GpuContext& g = stream_gpu(call);
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD (target pe %d)", sig_op, pe);
  if (!sig_addr) fatal(call, "sig_addr is NULL (target pe %d)", pe);
  char* s = mapped(call, sig_addr, sizeof(uint64_t), pe, "sig_addr");
  putmem_on_stream(call, dest, src, n, pe, stream);
  if (sig_op == SHMEM_SIGNAL_SET)
    cu_check(call, g.drv->cuStreamWriteValue64(as_cu(stream), reinterpret_cast<CUdeviceptr>(s), signal, 0),
             "cuStreamWriteValue64");
  else  // a one-thread kernel: system-scope fetch_add, ordered after the copy by the stream
    g_rt->ops->amo_async(call, s, sizeof(uint64_t), GSHMEM_AMO_ADD, signal, 0, nullptr, as_cu(stream));
}

void signal_wait_until_on_stream(const char* call, uint64_t* sig_addr, int cmp, uint64_t value, void* stream) {
  mem::GpuContext& g = stream_gpu(call);
  if (!sig_addr) fatal(call, "sig_addr is NULL");
  char* s = mapped(call, sig_addr, sizeof(uint64_t), g_rt->my_pe, "sig_addr");
  unsigned flags;
  switch (cmp) {
    case SHMEM_CMP_EQ:
      flags = CU_STREAM_WAIT_VALUE_EQ;
      break;
    case SHMEM_CMP_GE:
      flags = CU_STREAM_WAIT_VALUE_GEQ;
      break;
    case SHMEM_CMP_GT:
      flags = CU_STREAM_WAIT_VALUE_GEQ;
      if (value == UINT64_MAX) fatal(call, "SHMEM_CMP_GT %llu can never hold", (unsigned long long)value);
      ++value;
      break;
    default:
      fatal(call, "cmp %d: only SHMEM_CMP_EQ, SHMEM_CMP_GE and SHMEM_CMP_GT are supported on a stream", cmp);
  }
  cu_check(call, g.drv->cuStreamWaitValue64(as_cu(stream), reinterpret_cast<CUdeviceptr>(s), value, flags),
           "cuStreamWaitValue64");
}

// Stream order already completes every earlier on-stream copy before later stream work starts.
void quiet_on_stream(const char* call, void* stream) {
  (void)stream_gpu(call);
  (void)stream;
}

// A one-warp kernel: the device team phase on WORLD. The kernel boundary completes the earlier
// stream work's stores and the phase quiets the proxy, as the quiet in a barrier requires.
void barrier_all_on_stream(const char* call, void* stream) {
  (void)stream_gpu(call);
  coll::dev_team_sync(call, SHMEM_TEAM_WORLD, collective_stream(stream));
}

void* collective_stream(void* stream) { return stream ? stream : static_cast<void*>(CU_STREAM_LEGACY); }

void* context_stream_create(const char* call) {
  Runtime& r = rt(call);
  return r.ops ? static_cast<void*>(r.ops->stream_create(call)) : nullptr;
}
void context_stream_quiet(const char* call, void* s) {
  if (s) rt(call).ops->stream_quiet(call, static_cast<CUstream>(s));
}
void context_stream_destroy(const char* call, void* s) {
  if (s) rt(call).ops->stream_destroy(call, static_cast<CUstream>(s));
}
void context_stream_fence(const char* call, void* s) {
  if (s) rt(call).ops->flush(call);
}
void set_thread_stream(void* s) { mem::DeviceOps::set_thread_stream(static_cast<CUstream>(s)); }
#else
#define GSHMEM_NO_CUDA(call) fatal(call, "this gshmem was built without CUDA")
void putmem_on_stream(const char* call, void*, const void*, size_t, int, void*) { GSHMEM_NO_CUDA(call); }
void getmem_on_stream(const char* call, void*, const void*, size_t, int, void*) { GSHMEM_NO_CUDA(call); }
void putmem_signal_on_stream(const char* call, void*, const void*, size_t, uint64_t*, uint64_t, int, int, void*) {
  GSHMEM_NO_CUDA(call);
}
void signal_wait_until_on_stream(const char* call, uint64_t*, int, uint64_t, void*) { GSHMEM_NO_CUDA(call); }
void quiet_on_stream(const char* call, void*) { GSHMEM_NO_CUDA(call); }
void barrier_all_on_stream(const char* call, void*) { GSHMEM_NO_CUDA(call); }
void* collective_stream(void* stream) { return stream; }
void* context_stream_create(const char*) { return nullptr; }
void context_stream_quiet(const char*, void*) {}
void context_stream_destroy(const char*, void*) {}
void context_stream_fence(const char*, void*) {}
void set_thread_stream(void*) {}
#endif

}  // namespace gshmem::core
