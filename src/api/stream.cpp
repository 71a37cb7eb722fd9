// Stream-ordered host operations (shmemx_*_on_stream): core/streams.hpp.
#include <shmem.h>
#include <shmemx.h>

#include "core/streams.hpp"

using namespace gshmem;

extern "C" {

void shmemx_putmem_on_stream(void* dest, const void* src, size_t n, int pe, cudaStream_t stream) {
  core::putmem_on_stream("shmemx_putmem_on_stream", dest, src, n, pe, stream);
}
void shmemx_getmem_on_stream(void* dest, const void* src, size_t n, int pe, cudaStream_t stream) {
  core::getmem_on_stream("shmemx_getmem_on_stream", dest, src, n, pe, stream);
}
void shmemx_putmem_signal_on_stream(void* dest, const void* src, size_t n, uint64_t* sig_addr, uint64_t signal,
                                    int sig_op, int pe, cudaStream_t stream) {
  core::putmem_signal_on_stream("shmemx_putmem_signal_on_stream", dest, src, n, sig_addr, signal, sig_op, pe, stream);
}
void shmemx_signal_op_on_stream(uint64_t* sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t stream) {
  core::putmem_signal_on_stream("shmemx_signal_op_on_stream", nullptr, nullptr, 0, sig_addr, signal, sig_op, pe,
                                stream);
}
void shmemx_signal_add_on_stream(uint64_t* sig_addr, uint64_t signal, int pe, cudaStream_t stream) {
  core::putmem_signal_on_stream("shmemx_signal_add_on_stream", nullptr, nullptr, 0, sig_addr, signal, SHMEM_SIGNAL_ADD,
                                pe, stream);
}
void shmemx_signal_set_on_stream(uint64_t* sig_addr, uint64_t signal, int pe, cudaStream_t stream) {
  core::putmem_signal_on_stream("shmemx_signal_set_on_stream", nullptr, nullptr, 0, sig_addr, signal, SHMEM_SIGNAL_SET,
                                pe, stream);
}
void shmemx_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t value, cudaStream_t stream) {
  core::signal_wait_until_on_stream("shmemx_signal_wait_until_on_stream", sig_addr, cmp, value, stream);
}
void shmemx_quiet_on_stream(cudaStream_t stream) { core::quiet_on_stream("shmemx_quiet_on_stream", stream); }
void shmemx_barrier_all_on_stream(cudaStream_t stream) {
  core::barrier_all_on_stream("shmemx_barrier_all_on_stream", stream);
}

}  // extern "C"
