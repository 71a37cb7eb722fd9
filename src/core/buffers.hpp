// User buffer registration (docs/buffers.md): the registrable-memory allocator
// (shmemx_mem_alloc/free), local registration of a buffer as the local side of RMA
// (shmemx_buffer_register/unregister[_all]) and symmetric registration of one buffer per PE as a
// region of the symmetric heap (shmemx_buffer_register_symmetric/unregister_symmetric). Errors are
// returned (SHMEMX_ERROR_*) with a message naming the call, the PE and the address.
#pragma once
#include <cstddef>

namespace gshmem::core {

void* mem_alloc(const char* call, size_t size);
int mem_free(const char* call, void* ptr);
int buffer_register(const char* call, void* ptr, size_t size);
int buffer_unregister(const char* call, void* ptr);
void buffer_unregister_all(const char* call);
void* buffer_register_symmetric(const char* call, void* ptr, size_t size, int flags);
int buffer_unregister_symmetric(const char* call, void* ptr, size_t size);
// shmem_finalize: forgets every registration and frees what shmemx_mem_alloc allocated.
void release_buffers() noexcept;

}  // namespace gshmem::core
