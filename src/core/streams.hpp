// Stream-ordered host operations (shmemx_*_on_stream, GPU PEs): enqueued on the caller's CUDA
// stream with driver copies and stream memory operations, so they order with the caller's
// kernels without a host synchronisation. The signal SET is a cuStreamWriteValue64, which the
// driver precedes by a system-wide fence; waits are cuStreamWaitValue64 on this PE's own memory.
// And the streams of communication contexts on GPU PEs (each context other than the default one
// owns a stream; its host-side operations on the device heap are enqueued there).
// A stream is the CUDA runtime's cudaStream_t passed as void* (null: the legacy default stream).
#pragma once
#include <cstddef>
#include <cstdint>

namespace gshmem::core {

void putmem_on_stream(const char* call, void* dest, const void* src, size_t n, int pe, void* stream);
void getmem_on_stream(const char* call, void* dest, const void* src, size_t n, int pe, void* stream);
void putmem_signal_on_stream(const char* call, void* dest, const void* src, size_t n, uint64_t* sig_addr,
                             uint64_t signal, int sig_op, int pe, void* stream);
void signal_wait_until_on_stream(const char* call, uint64_t* sig_addr, int cmp, uint64_t value, void* stream);
void quiet_on_stream(const char* call, void* stream);
void barrier_all_on_stream(const char* call, void* stream);
// A CUstream for the collectives (coll/gpu_coll.hpp): the user's stream, null mapped to the legacy
// default stream.
void* collective_stream(void* stream);

// Context streams (GPU PEs; null on CPU PEs).
void* context_stream_create(const char* call);
void context_stream_quiet(const char* call, void* stream);
// Issues the context's queued host nbi puts (mem::DeviceOps::put_from_heap), so later ones follow them.
void context_stream_fence(const char* call, void* stream);
void context_stream_destroy(const char* call, void* stream);
// While set on a thread, host operations on the device heap use this stream (null: the PE's).
void set_thread_stream(void* stream);

}  // namespace gshmem::core
