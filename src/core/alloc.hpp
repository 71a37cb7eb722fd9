// Symmetric memory management. Collective: every PE makes the same calls in the same order, so
// the deterministic allocator (heap/allocator.hpp) hands out the same offsets everywhere.
// Arguments are cross-checked between PEs (a mismatch is reported, never silently corrupts), and
// the spec's barriers are kept: on exit for malloc/calloc/align, on entry for free, on entry and
// exit for realloc. On the device heap kind a full heap grows (every PE together) when it can.
#pragma once
#include <cstddef>
#include <mutex>

namespace gshmem::core {

void* malloc(const char* call, size_t size);
void* calloc(const char* call, size_t count, size_t size);
void* align(const char* call, size_t alignment, size_t size);
void* realloc(const char* call, void* ptr, size_t size);
void free(const char* call, void* ptr);
// hints are advice (SHMEM_MALLOC_*); bits gshmem does not know are ignored.
void* malloc_with_hints(const char* call, size_t size, long hints);

bool heap_is_device(const char* call);
bool heap_growable(const char* call);
// Held while the heap's geometry changes (growth, symmetric registrations) and while allocating.
std::mutex& heap_mutex();
size_t heap_size(const char* call);
size_t heap_used(const char* call);

}  // namespace gshmem::core
