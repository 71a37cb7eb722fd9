// Levelled, subsystem-filtered, PE-prefixed logging. Cheap when off: the level test is one
// load and compare before any formatting happens.
#pragma once
#include <cstdarg>
#include <cstdint>

#include "common/status.hpp"

namespace gshmem {

enum class LogLevel : int { none = 0, warn = 1, info = 2, debug = 3, trace = 4 };

enum class Subsys : uint32_t {
  init = 1u << 0,
  boot = 1u << 1,
  topo = 1u << 2,
  mem = 1u << 3,
  heap = 1u << 4,
  api = 1u << 5,
  coll = 1u << 6,
  proxy = 1u << 7,
  transport = 1u << 8,
  launch = 1u << 9,
  all = ~0u,
};

struct LogState {
  int level = static_cast<int>(LogLevel::warn);
  uint32_t mask = static_cast<uint32_t>(Subsys::all);
  int pe = -1;
};
extern LogState g_log;

void log_configure(const char* level, const char* subsys_list);
void log_set_pe(int pe) noexcept;
void log_write(LogLevel lvl, Subsys sub, const char* file, int line, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));

inline bool log_on(LogLevel lvl, Subsys sub) noexcept {
  return g_log.level >= static_cast<int>(lvl) && (g_log.mask & static_cast<uint32_t>(sub)) != 0;
}

}  // namespace gshmem

#define GSHMEM_LOG_(lvl, sub, ...)                                                                  \
  do {                                                                                              \
    if (::gshmem::log_on(lvl, sub)) ::gshmem::log_write(lvl, sub, __FILE__, __LINE__, __VA_ARGS__); \
  } while (0)
#define GSHMEM_WARN(sub, ...) GSHMEM_LOG_(::gshmem::LogLevel::warn, sub, __VA_ARGS__)
#define GSHMEM_INFO(sub, ...) GSHMEM_LOG_(::gshmem::LogLevel::info, sub, __VA_ARGS__)
#define GSHMEM_DEBUG(sub, ...) GSHMEM_LOG_(::gshmem::LogLevel::debug, sub, __VA_ARGS__)
#define GSHMEM_TRACE(sub, ...) GSHMEM_LOG_(::gshmem::LogLevel::trace, sub, __VA_ARGS__)
