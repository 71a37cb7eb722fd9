// Host-side operations on the device heap: copies on the PE's non-blocking stream (or the calling
// context's own stream) through the
// driver (UVA: the peer segments are mapped in this process), so host RMA never waits for user
// kernels (which may themselves be waiting for this RMA).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/runtime.hpp"

namespace gshmem::api {

#if GSHMEM_HAVE_CUDA
// This PE's GPU context, made current on the calling thread; reports call on a CPU PE.
GpuContext& gpu_for(const char* call);
// Reports "<call>: <what> failed: <CUDA error>" and ends the job when r is not CUDA_SUCCESS.
void cu_check(const char* call, CUresult r, const char* what);
// Loads the atomic kernels and runs each once on word (GPU memory, read only): a kernel loaded
// for the first time while another kernel runs may wait for that kernel (lazy loading), which
// would deadlock a kernel waiting for a proxied atomic. The proxy calls this at start.
void dev_amo_preload(const char* call, GpuContext& g, void* word);
#endif

// Blocking: returns when the source may be reused (put) or the data has arrived (get).
void dev_copy(const char* call, void* dst, const void* src, size_t bytes, bool blocking);
// Atomic 64-bit write, ordered after every earlier copy on the stream (signal SET).
void dev_write64(const char* call, uint64_t* dst, uint64_t value);
// Waits for every host-issued device-heap operation (quiet).
void dev_quiet();
bool dev_active();  // this PE has a device heap

// Contexts with their own stream (GPU PEs): while set on a thread, the operations above use s
// instead of the PE's stream, so shmem_ctx_quiet on one context waits only for its own copies.
void set_ctx_stream(void* s);
void* dev_stream_create(const char* call);
void dev_stream_quiet(const char* call, void* s);
void dev_stream_destroy(const char* call, void* s);

// Host-initiated atomics on GPU memory (4- or 8-byte targets), run as a one-thread kernel.
enum class AmoOp : int { fetch, set, swap, cswap, add, band, bor, bxor };
// On the PE's host stream; returns the old value (in the low bytes for 4-byte targets).
uint64_t dev_amo(const char* call, void* target, size_t size, AmoOp op, uint64_t a, uint64_t b);
// Enqueued on a caller's stream (CUstream passed as void*), no result (e.g. signal ADD).
void dev_amo_on_stream(const char* call, void* target, size_t size, AmoOp op, uint64_t a, void* stream);
// Enqueued on stream; the old value goes to out (GPU memory, may be null). cswap: a = expected,
// b = new value.
void dev_amo_async(const char* call, void* target, size_t size, AmoOp op, uint64_t a, uint64_t b, void* out,
                   void* stream);

}  // namespace gshmem::api
