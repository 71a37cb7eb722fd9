#include "common/fatal.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>

#include "common/log.hpp"

namespace gshmem {
namespace {
std::atomic<JobAbortHook> g_hook{nullptr};
std::atomic<bool> g_ending{false};

const char* vformat(char* buf, size_t size, const char* call, const char* fmt, va_list ap) {
  char what[1024];
  vsnprintf(what, sizeof what, fmt, ap);
  return format_error(buf, size, call, what);
}

[[noreturn]] void vfatal(int status, const char* call, const char* fmt, va_list ap) {
  char msg[1280];
  vformat(msg, sizeof msg, call, fmt, ap);
  fprintf(stderr, "%s\n", msg);
  // A second error while the first is being reported (a hook that fails, another thread) ends
  // the process at once.
  if (!g_ending.exchange(true))
    if (JobAbortHook h = g_hook.load()) h(status, msg);
  terminate(status);
}
}  // namespace

const char* format_error(char* buf, unsigned long size, const char* call, const char* what) {
  if (g_log.pe >= 0) snprintf(buf, size, "gshmem[pe %d]: %s: %s", g_log.pe, call, what);
  else snprintf(buf, size, "gshmem[pid %d]: %s: %s", static_cast<int>(getpid()), call, what);
  return buf;
}

void report_error(const char* call, const char* fmt, ...) {
  char msg[1280];
  va_list ap;
  va_start(ap, fmt);
  vformat(msg, sizeof msg, call, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s\n", msg);
}

void set_job_abort_hook(JobAbortHook hook) noexcept { g_hook.store(hook); }

void fatal(const char* call, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfatal(1, call, fmt, ap);
}

void fatal_status(int status, const char* call, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfatal(status == 0 ? 1 : status, call, fmt, ap);
}

void terminate(int status) noexcept {
  fflush(nullptr);
  _exit(status);
}

}  // namespace gshmem
