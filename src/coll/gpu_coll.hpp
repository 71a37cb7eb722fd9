// Team collectives on the device heap: the shmemx_*_on_stream collectives, and host collectives
// whose buffers are GPU memory (run on the PE's internal stream, then waited for). Both launch the
// kernels of dev_coll.cu (embedded as a fatbin: sm_90 SASS and PTX), one block per row of the
// data, cooperatively when there are several rows (every block resident: blocks wait for their
// peers' blocks), and no more rows than every PE sharing a GPU can keep resident beside the others
// (mem::resident_blocks). The module's copy of the device state is refreshed whenever the runtime
// publishes a new one (heap growth). Errors end the job with a message naming call.
#pragma once
#include <cstddef>

#include "gshmem/device_host/ops.h"

namespace gshmem::coll {

// True when the collective's buffers are on the device heap (both must be; a mix is reported).
bool device_buffers(const char* call, const void* dest, const void* src);

// stream == nullptr: the PE's internal stream, and the call returns when the collective is done;
// else a CUstream (the legacy default stream is CU_STREAM_LEGACY).
void dev_broadcast(const char* call, int team, void* dest, const void* src, size_t bytes, int root, void* stream);
void dev_fcollect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream);
void dev_alltoall(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream);
void dev_team_sync(const char* call, int team, void* stream);
// Loads the module and every collective kernel now. The first load of a kernel holds the CUDA
// context lock until the device's running work ends; with the proxy on, a user kernel waiting for
// proxied operations would wait for the proxy's CUDA calls behind that lock (docs/gpu.md), so
// shmem_init loads them all before any user kernel runs.
void dev_preload(const char* call);
// Drops the module and kernel handles: called by the last shmem_finalize, before the GPU context
// they belong to is released (a later shmem_init loads them again).
void dev_forget();
void dev_collect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream);
void dev_alltoalls(const char* call, int team, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                   size_t elem, void* stream);
// kind: 'i' signed integer, 'u' unsigned integer, 'f' floating point ('c': reported).
void dev_reduce(const char* call, int team, void* dest, const void* src, size_t nelems, size_t elem, char kind,
                gshmem_reduce_op op, void* stream);
// Reduce-scatter: src holds team-size * nelems elements, dest nelems (teams of up to 8 PEs).
void dev_reducescatter(const char* call, int team, void* dest, const void* src, size_t nelems, size_t elem, char kind,
                       gshmem_reduce_op op, void* stream);
// Inclusive or exclusive prefix sums (OpenSHMEM 1.6 scans) of nelems elements (teams of up to 8 PEs).
void dev_scan(const char* call, int team, void* dest, const void* src, size_t nelems, size_t elem, char kind,
              bool exclusive, void* stream);

}  // namespace gshmem::coll
