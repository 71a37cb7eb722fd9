// User buffer registration (core/buffers.hpp).
#include <shmemx.h>

#include "core/buffers.hpp"

using namespace gshmem;

extern "C" {

void* shmemx_mem_alloc(size_t size) { return core::mem_alloc("shmemx_mem_alloc", size); }
int shmemx_mem_free(void* ptr) { return core::mem_free("shmemx_mem_free", ptr); }
int shmemx_buffer_register(void* addr, size_t length) {
  return core::buffer_register("shmemx_buffer_register", addr, length);
}
int shmemx_buffer_unregister(void* addr) { return core::buffer_unregister("shmemx_buffer_unregister", addr); }
void shmemx_buffer_unregister_all(void) { core::buffer_unregister_all("shmemx_buffer_unregister_all"); }
void* shmemx_buffer_register_symmetric(void* buf_ptr, size_t size, int flags) {
  return core::buffer_register_symmetric("shmemx_buffer_register_symmetric", buf_ptr, size, flags);
}
int shmemx_buffer_unregister_symmetric(void* mmap_ptr, size_t size) {
  return core::buffer_unregister_symmetric("shmemx_buffer_unregister_symmetric", mmap_ptr, size);
}

}  // extern "C"
