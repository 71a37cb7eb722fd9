#include "common/wait.hpp"

namespace gshmem {
void (*g_wait_health_hook)() = nullptr;
void (*g_wait_progress_hook)() = nullptr;
std::atomic<uint64_t> g_wait_driven{0};
std::atomic<void (*)()> g_wait_flush_hook{nullptr};
uint32_t g_wait_spin = 2000;
uint32_t g_wait_yield_us = 1000;
uint32_t g_health_ms = 200;
}  // namespace gshmem
