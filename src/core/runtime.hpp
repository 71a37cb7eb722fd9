// The runtime's lifetime and the facts every API call may ask for. shmem_init builds the runtime
// in phases (runtime.cpp); everything it owns is behind core's functions (src/core/*.hpp), never
// reached directly from the API layer.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "common/config.hpp"
#include "common/fatal.hpp"

namespace gshmem::core {

// Initialises once; later calls while running are no-ops (provided gets the level in force). The
// bootstrap is chosen from the environment (core/uniqueid.hpp: from a unique id). Ends the job
// with a message on failure.
void init(const char* call, int requested_thread, int* provided);
void finalize();
bool running() noexcept;

// -1 before shmem_init and after shmem_finalize.
int my_pe() noexcept;
int n_pes() noexcept;
int thread_level(const char* call);
const char* bootstrap_name(const char* call);
int local_npes(const char* call);
int local_pe(const char* call);
int device_ordinal(const char* call);  // -1 on a CPU PE
const Config& config(const char* call);

// Every PE exits with status (stdio flushed); without a running job only this process.
[[noreturn]] void global_exit(int status);

inline void memory_fence() noexcept { std::atomic_thread_fence(std::memory_order_seq_cst); }

}  // namespace gshmem::core
