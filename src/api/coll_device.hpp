// Team collectives on the device heap: the shmemx_*_on_stream collectives, and host collectives
// whose buffers are GPU memory (run on the PE's internal stream, then waited for). Both launch
// the kernels of src/coll/dev_coll.cu.
#pragma once
#include <cstddef>
#include <type_traits>

namespace gshmem::api {

// True when the collective's buffers are on the device heap (both must be; a mix is reported).
bool dev_coll_buffers(const char* call, const void* dest, const void* src);

// stream == nullptr: the PE's internal stream, and the call returns when the collective is done.
void dev_broadcast(const char* call, int team, void* dest, const void* src, size_t bytes, int root, void* stream);
void dev_fcollect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream);
void dev_alltoall(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream);
void dev_team_sync(const char* call, int team, void* stream);
void dev_collect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream);
void dev_alltoalls(const char* call, int team, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst,
                   size_t nelems, size_t elem, void* stream);
// kind: 'i' signed integer, 'u' unsigned integer, 'f' floating point; op: and, or, xor, min, max, sum, prod.
void dev_reduce(const char* call, int team, void* dest, const void* src, size_t nelems, size_t elem, char kind,
                const char* op, void* stream);

// 'c' (complex): not supported on GPU memory.
template <typename T>
constexpr char reduce_kind() {
  return std::is_floating_point_v<T> ? 'f' : std::is_integral_v<T> ? (std::is_signed_v<T> ? 'i' : 'u') : 'c';
}

}  // namespace gshmem::api
