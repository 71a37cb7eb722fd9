// Symmetric memory management (core/alloc.hpp).
#include <shmem.h>
#include <shmemx.h>

#include "core/alloc.hpp"

using namespace gshmem;

extern "C" {

void* shmem_malloc(size_t size) { return core::malloc("shmem_malloc", size); }
void* shmem_malloc_with_hints(size_t size, long hints) {
  return core::malloc_with_hints("shmem_malloc_with_hints", size, hints);
}
void* shmem_calloc(size_t count, size_t size) { return core::calloc("shmem_calloc", count, size); }
void* shmem_align(size_t alignment, size_t size) { return core::align("shmem_align", alignment, size); }
void shmem_free(void* ptr) { core::free("shmem_free", ptr); }
void* shmem_realloc(void* ptr, size_t size) { return core::realloc("shmem_realloc", ptr, size); }

int shmemx_heap_kind(void) {
  return core::heap_is_device("shmemx_heap_kind") ? SHMEMX_HEAP_KIND_DEVICE : SHMEMX_HEAP_KIND_HOST;
}
int shmemx_heap_growable(void) { return core::heap_growable("shmemx_heap_growable") ? 1 : 0; }
size_t shmemx_heap_size(void) { return core::heap_size("shmemx_heap_size"); }
size_t shmemx_heap_used(void) { return core::heap_used("shmemx_heap_used"); }

}  // extern "C"
