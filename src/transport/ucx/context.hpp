// The process's UCP context: made once (at the first probe), kept for the life of the process
// as the loaded library is, and shared by every worker the ucx transport makes (a program may
// call shmem_init again after shmem_finalize).
#pragma once
#include <cstdint>
#include <string>

#include "transport/ucx/ucp_api.hpp"

namespace gshmem::transport::ucx {

struct Context {
  ucp_context_h ctx = nullptr;
  uint64_t memory_types = 0;  // bit UCS_MEMORY_TYPE_x: UCX can reach memory of that type
};

// false with *why naming UCX, its version and the settings that choose its transports.
bool context(const Ucp& u, Context* out, std::string* why);

}  // namespace gshmem::transport::ucx
