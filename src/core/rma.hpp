// Host-initiated RMA, signals and ordering: one function per operation, dispatched per target PE
// to its route (transport/routes.hpp): a memcpy into a mapped host heap, a driver copy into a
// mapped GPU segment, or the PE's transport. Every call checks its PE and symmetric range and ends
// the job with a message naming the call, the PE and the address otherwise.
// Ordering on CPU PEs: put/get are memcpy; nbi transfers complete before returning (the spec
// allows it); put_signal issues a full fence between the data and the signal, because large
// memcpy may use non-temporal stores a release store alone does not order.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gshmem::core {

// [addr, addr + bytes) must be symmetric (heap or globals) and pe in range; ends the job otherwise.
void check_symmetric(const char* call, const void* addr, size_t bytes, int pe, const char* what);

void put(const char* call, void* dest, const void* src, size_t bytes, int pe, bool nbi);
void get(const char* call, void* dest, const void* src, size_t bytes, int pe, bool nbi);
// Strided blocks: block i (bsize elements of elem bytes) goes from src + i * sst elements to
// dest + i * dst elements; strides are at least bsize. iput/iget are the blocks of one element.
void ibput(const char* call, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,
           size_t elem, int pe);
void ibget(const char* call, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,
           size_t elem, int pe);
void put_signal(const char* call, void* dest, const void* src, size_t bytes, uint64_t* sig_addr, uint64_t signal,
                int sig_op, int pe);
// The signal alone (signal_add, signal_set): atomic on sig_addr at pe; sig_op is checked by the caller.
void signal_update(const char* call, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe);

void fence(const char* call);
void quiet(const char* call);
// Completes this PE's operations to the n PEs of pes (to_world, when given, maps a PE number of
// the context's team to its world number and ends the job on one out of range).
void pe_quiet(const char* call, const int* pes, size_t n, int (*to_world)(const char*, int, void*), void* arg);
// Completes every put sent through a transport (part of quiet and of every barrier).
void transport_quiet();
void barrier_all(const char* call);  // quiet, then sync_all
void sync_all(const char* call);

// shmem_ptr: pe's copy of dest mapped in this process, or null (not mapped, or GPU memory's host view).
void* ptr(const void* dest, int pe);
int pe_accessible(int pe);
int addr_accessible(const void* addr, int pe);

// nelems * elem, reporting overflow.
size_t bytes_of(const char* call, size_t nelems, size_t elem);

}  // namespace gshmem::core
