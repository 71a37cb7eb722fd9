#include "mem/device_ops.hpp"

#include <cstring>

#include "common/fatal.hpp"
#include "common/log.hpp"

extern "C" const unsigned char gshmem_host_amo_fatbin[];

namespace gshmem::mem {

void store_local(LocalMemory* mem, void* dst, const void* src, size_t n) {
  if (mem && mem->is_device(dst)) mem->copy(dst, src, n);
  else memcpy(dst, src, n);
}

#if GSHMEM_HAVE_CUDA
namespace {
thread_local CUstream t_stream = nullptr;  // set while a context with its own stream calls in
}

DeviceOps::DeviceOps(GpuContext& g, size_t batch, size_t batch_bytes)
    : g_(g), batch_(batch), batch_bytes_(batch_bytes), batch_api_(g.drv->memcpy_batch != nullptr) {
  q_dst_.reserve(batch);
  q_src_.reserve(batch);
  q_n_.reserve(batch);
}

void DeviceOps::set_thread_stream(CUstream s) { t_stream = s; }
CUstream DeviceOps::op_stream() const { return t_stream ? t_stream : g_.stream; }

void DeviceOps::check(const char* call, CUresult r, const char* what) const {
  if (r != CUDA_SUCCESS) fatal(call, "%s failed: %s", what, cu::error_string(r));
}

CUstream DeviceOps::stream_create(const char* call) {
  gpu_make_current(g_);
  CUstream s = nullptr;
  check(call, g_.drv->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return s;
}
void DeviceOps::stream_quiet(const char* call, CUstream s) {
  flush(call);
  gpu_make_current(g_);
  check(call, g_.drv->cuStreamSynchronize(s), "cuStreamSynchronize");
}
void DeviceOps::stream_destroy(const char* call, CUstream s) {
  stream_quiet(call, s);
  g_.drv->cuStreamDestroy(s);
}

void DeviceOps::put_from_heap(const char* call, void* dst, const void* src, size_t bytes, bool blocking) {
  const CUstream s = op_stream();
  if (!blocking && batch_ != 0 && bytes <= batch_bytes_) {
    std::lock_guard<std::mutex> lock(q_mu_);
    if (!q_dst_.empty() && q_stream_ != s) flush_locked(call);
    q_stream_ = s;
    q_dst_.push_back(reinterpret_cast<CUdeviceptr>(dst));
    q_src_.push_back(reinterpret_cast<CUdeviceptr>(src));
    q_n_.push_back(bytes);
    queued_.store(true, std::memory_order_release);
    if (q_dst_.size() >= batch_) flush_locked(call);
    return;
  }
  copy(call, dst, src, bytes, blocking);
}

void DeviceOps::flush(const char* call) {
  if (!queued_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(q_mu_);
  flush_locked(call);
}

// queued_ goes false only once the copies are on the stream: a thread that finds it false may
// synchronize the stream at once (a quiet racing with another thread's flush).
void DeviceOps::flush_locked(const char* call) {
  const size_t n = q_dst_.size();
  if (n == 0) return;
  gpu_make_current(g_);
  bool batched = false;
#if CUDA_VERSION >= 12080  // CUmemcpyAttributes
  if (n > 1 && batch_api_) {
    CUmemcpyAttributes attr{};
    attr.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;  // device sources, read in stream order
    size_t first = 0;
    const CUresult r = g_.drv->memcpy_batch(q_dst_.data(), q_src_.data(), q_n_.data(), n, &attr, &first, 1, q_stream_);
    batched = r == CUDA_SUCCESS;
    if (!batched) {  // nothing was enqueued: issue them one by one, now and from here on
      GSHMEM_WARN(Subsys::mem,
                  "%s: cuMemcpyBatchAsync of %zu nbi puts failed (%s); host nbi puts are issued one by one", call, n,
                  cu::error_string(r));
      batch_api_ = false;
    }
  }
#endif
  for (size_t i = 0; i < n && !batched; ++i)
    check(call, g_.drv->cuMemcpyAsync(q_dst_[i], q_src_[i], q_n_[i], q_stream_), "cuMemcpyAsync(queued nbi put)");
  q_dst_.clear();
  q_src_.clear();
  q_n_.clear();
  queued_.store(false, std::memory_order_release);
}

void DeviceOps::copy(const char* call, void* dst, const void* src, size_t bytes, bool blocking) {
  flush(call);
  gpu_make_current(g_);
  const CUstream s = op_stream();
  check(call, g_.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), bytes, s),
        "cuMemcpyAsync");
  if (blocking) check(call, g_.drv->cuStreamSynchronize(s), "cuStreamSynchronize");
}

void DeviceOps::write64(const char* call, uint64_t* dst, uint64_t value) {
  flush(call);
  gpu_make_current(g_);
  // The default flag makes the write wait for a system-wide fence after the preceding copies.
  const CUstream s = op_stream();
  check(call, g_.drv->cuStreamWriteValue64(s, reinterpret_cast<CUdeviceptr>(dst), value, 0), "cuStreamWriteValue64");
  check(call, g_.drv->cuStreamSynchronize(s), "cuStreamSynchronize");
}

void DeviceOps::quiet(const char* call) {
  flush(call);
  gpu_make_current(g_);
  check(call, g_.drv->cuStreamSynchronize(g_.stream), "cuStreamSynchronize");
}

void DeviceOps::load_module(const char* call) {
  if (mod_) return;
  check(call, g_.drv->cuModuleLoadData(&mod_, gshmem_host_amo_fatbin), "cuModuleLoadData(host atomics)");
  check(call, g_.drv->cuModuleGetFunction(&fn_[0], mod_, "gshmem_amo32"), "cuModuleGetFunction");
  check(call, g_.drv->cuModuleGetFunction(&fn_[1], mod_, "gshmem_amo64"), "cuModuleGetFunction");
}

CUfunction DeviceOps::amo_kernel(const char* call, size_t size) {
  load_module(call);
  if (size != 4 && size != 8) fatal(call, "atomics on GPU memory need 4- or 8-byte objects (got %zu)", size);
  return fn_[size == 8];
}

namespace {
void launch_amo(const char* call, const cu::Driver& d, CUfunction f, size_t size, void* target, gshmem_amo_op op,
                uint64_t a, uint64_t b, void* out, CUstream s) {
  int iop = static_cast<int>(op);
  unsigned a32 = static_cast<unsigned>(a), b32 = static_cast<unsigned>(b);
  void* args64[] = {&target, &iop, &a, &b, &out};
  void* args32[] = {&target, &iop, &a32, &b32, &out};
  const CUresult r = d.cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, size == 8 ? args64 : args32, nullptr);
  if (r != CUDA_SUCCESS) fatal(call, "cuLaunchKernel(host atomic) failed: %s", cu::error_string(r));
}
}  // namespace

uint64_t DeviceOps::amo(const char* call, void* target, size_t size, gshmem_amo_op op, uint64_t a, uint64_t b) {
  flush(call);
  gpu_make_current(g_);
  std::lock_guard<std::mutex> lock(mu_);
  CUfunction f = amo_kernel(call, size);
  if (!scratch_) fatal(call, "internal: no scratch word for host atomics on GPU memory");
  const CUstream s = op_stream();
  launch_amo(call, *g_.drv, f, size, target, op, a, b, scratch_, s);
  uint64_t old = 0;
  check(call,
        g_.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(&old), reinterpret_cast<CUdeviceptr>(scratch_), size, s),
        "cuMemcpyAsync");
  check(call, g_.drv->cuStreamSynchronize(s), "cuStreamSynchronize");
  return old;
}

void DeviceOps::amo_async(const char* call, void* target, size_t size, gshmem_amo_op op, uint64_t a, uint64_t b,
                          void* out, CUstream stream) {
  flush(call);
  gpu_make_current(g_);
  CUfunction f;
  {
    std::lock_guard<std::mutex> lock(mu_);
    f = amo_kernel(call, size);
  }
  launch_amo(call, *g_.drv, f, size, target, op, a, b, out, stream);
}

void DeviceOps::preload(const char* call, void* word) {
  flush(call);
  gpu_make_current(g_);
  for (size_t size : {size_t{4}, size_t{8}}) {
    CUfunction f;
    {
      std::lock_guard<std::mutex> lock(mu_);
      f = amo_kernel(call, size);
    }
    launch_amo(call, *g_.drv, f, size, word, GSHMEM_AMO_FETCH, 0, 0, nullptr, g_.stream);
  }
  check(call, g_.drv->cuStreamSynchronize(g_.stream), "cuStreamSynchronize");
}

bool GpuLocalMemory::is_device(const void* p) const {
  GpuContext& g = ops_.gpu();
  gpu_make_current(g);
  unsigned int type = 0;
  return g.drv->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(p)) ==
             CUDA_SUCCESS &&
         type == CU_MEMORYTYPE_DEVICE;
}
void GpuLocalMemory::copy(void* dst, const void* src, size_t n) { ops_.copy("transport", dst, src, n, true); }
uint64_t GpuLocalMemory::amo(void* p, gshmem_amo_op op, size_t size, uint64_t a, uint64_t b) {
  return ops_.amo("transport", p, size, op, a, b);
}
#endif

}  // namespace gshmem::mem
