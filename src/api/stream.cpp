// Stream-ordered host operations (shmemx_*_on_stream): enqueued on the caller's CUDA stream with
// driver copies and stream memory operations, so they order with the caller's kernels without a
// host synchronisation. The signal SET is a cuStreamWriteValue64, which the driver precedes by a
// system-wide fence; waits are cuStreamWaitValue64 on this PE's own memory.
#include <shmem.h>
#include <shmemx.h>

#include "api/access.hpp"
#include "api/coll_device.hpp"
#include "api/device_ops.hpp"

using namespace gshmem;
using namespace gshmem::api;

#if GSHMEM_HAVE_CUDA
namespace {
GpuContext& stream_gpu(const char* call) { return gpu_for(call); }
CUstream as_cu(cudaStream_t s) { return reinterpret_cast<CUstream>(s); }
}  // namespace

extern "C" {

void shmemx_putmem_on_stream(void* dest, const void* src, size_t n, int pe, cudaStream_t stream) {
  const char* call = "shmemx_putmem_on_stream";
  if (!n) return;
  GpuContext& g = stream_gpu(call);
  check_local(call, src, "source", n);
  Target t = target(call, dest, n, pe);
  cu_check(call, g.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(t.p), reinterpret_cast<CUdeviceptr>(src), n, as_cu(stream)),
           "cuMemcpyAsync");
}

void shmemx_getmem_on_stream(void* dest, const void* src, size_t n, int pe, cudaStream_t stream) {
  const char* call = "shmemx_getmem_on_stream";
  if (!n) return;
  GpuContext& g = stream_gpu(call);
  check_local(call, dest, "dest", n);
  Target t = target(call, src, n, pe, "source");
  cu_check(call, g.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dest), reinterpret_cast<CUdeviceptr>(t.p), n, as_cu(stream)),
           "cuMemcpyAsync");
}

void shmemx_putmem_signal_on_stream(void* dest, const void* src, size_t n, uint64_t* sig_addr, uint64_t signal,
                                    int sig_op, int pe, cudaStream_t stream) {
  const char* call = "shmemx_putmem_signal_on_stream";
  GpuContext& g = stream_gpu(call);
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD (target pe %d)", sig_op, pe);
  Target s = target(call, sig_addr, sizeof(uint64_t), pe, "sig_addr");
  shmemx_putmem_on_stream(dest, src, n, pe, stream);
  if (sig_op == SHMEM_SIGNAL_SET)
    cu_check(call, g.drv->cuStreamWriteValue64(as_cu(stream), reinterpret_cast<CUdeviceptr>(s.p), signal, 0),
             "cuStreamWriteValue64");
  else  // a one-thread kernel: system-scope fetch_add, ordered after the copy by the stream
    dev_amo_on_stream(call, s.p, sizeof(uint64_t), AmoOp::add, signal, stream);
}

void shmemx_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t value, cudaStream_t stream) {
  const char* call = "shmemx_signal_wait_until_on_stream";
  GpuContext& g = stream_gpu(call);
  Target s = target(call, sig_addr, sizeof(uint64_t), g_rt->my_pe, "sig_addr");
  unsigned flags;
  switch (cmp) {
    case SHMEM_CMP_EQ: flags = CU_STREAM_WAIT_VALUE_EQ; break;
    case SHMEM_CMP_GE: flags = CU_STREAM_WAIT_VALUE_GEQ; break;
    case SHMEM_CMP_GT:
      flags = CU_STREAM_WAIT_VALUE_GEQ;
      if (value == UINT64_MAX) fatal(call, "SHMEM_CMP_GT %llu can never hold", (unsigned long long)value);
      ++value;
      break;
    default:
      fatal(call, "cmp %d: only SHMEM_CMP_EQ, SHMEM_CMP_GE and SHMEM_CMP_GT are supported on a stream", cmp);
  }
  cu_check(call, g.drv->cuStreamWaitValue64(as_cu(stream), reinterpret_cast<CUdeviceptr>(s.p), value, flags),
           "cuStreamWaitValue64");
}

// Stream order already completes every earlier on-stream copy before later stream work starts.
void shmemx_quiet_on_stream(cudaStream_t stream) {
  (void)stream_gpu("shmemx_quiet_on_stream");
  (void)stream;
}

// A one-block kernel: the device team phase on WORLD (its release flag stores order the earlier
// stream work's stores, as the quiet in a barrier requires).
void shmemx_barrier_all_on_stream(cudaStream_t stream) {
  (void)stream_gpu("shmemx_barrier_all_on_stream");
  // stream 0 is the legacy default stream (CU_STREAM_LEGACY); null inside the library means internal
  dev_team_sync("shmemx_barrier_all_on_stream", SHMEM_TEAM_WORLD, stream ? static_cast<void*>(stream) : CU_STREAM_LEGACY);
}

}  // extern "C"
#else
extern "C" {
#define GSHMEM_NO_CUDA(call) fatal(call, "this gshmem was built without CUDA")
void shmemx_putmem_on_stream(void*, const void*, size_t, int, cudaStream_t) { GSHMEM_NO_CUDA("shmemx_putmem_on_stream"); }
void shmemx_getmem_on_stream(void*, const void*, size_t, int, cudaStream_t) { GSHMEM_NO_CUDA("shmemx_getmem_on_stream"); }
void shmemx_putmem_signal_on_stream(void*, const void*, size_t, uint64_t*, uint64_t, int, int, cudaStream_t) {
  GSHMEM_NO_CUDA("shmemx_putmem_signal_on_stream");
}
void shmemx_signal_wait_until_on_stream(uint64_t*, int, uint64_t, cudaStream_t) {
  GSHMEM_NO_CUDA("shmemx_signal_wait_until_on_stream");
}
void shmemx_quiet_on_stream(cudaStream_t) { GSHMEM_NO_CUDA("shmemx_quiet_on_stream"); }
void shmemx_barrier_all_on_stream(cudaStream_t) { GSHMEM_NO_CUDA("shmemx_barrier_all_on_stream"); }
}
#endif
