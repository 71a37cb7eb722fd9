#include "common/log.hpp"

#include "common/fatal.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <strings.h>

namespace gshmem {

LogState g_log;

const char* status_name(Status s) noexcept {
  switch (s) {
    case Status::ok:
      return "ok";
    case Status::invalid_argument:
      return "invalid argument";
    case Status::out_of_memory:
      return "out of memory";
    case Status::system_error:
      return "system error";
    case Status::not_available:
      return "not available";
    case Status::bootstrap_error:
      return "bootstrap error";
    case Status::timeout:
      return "timeout";
    case Status::peer_failed:
      return "peer failed";
    case Status::internal_error:
      return "internal error";
  }
  return "unknown";
}

namespace {
struct SubsysName {
  const char* name;
  Subsys bit;
};
constexpr SubsysName kSubsys[] = {
    {"INIT", Subsys::init},           {"BOOT", Subsys::boot},     {"TOPO", Subsys::topo}, {"MEM", Subsys::mem},
    {"HEAP", Subsys::heap},           {"API", Subsys::api},       {"COLL", Subsys::coll}, {"PROXY", Subsys::proxy},
    {"TRANSPORT", Subsys::transport}, {"LAUNCH", Subsys::launch}, {"ALL", Subsys::all},
};
const char* level_tag(LogLevel l) {
  switch (l) {
    case LogLevel::warn:
      return "WARN";
    case LogLevel::info:
      return "INFO";
    case LogLevel::debug:
      return "DEBUG";
    case LogLevel::trace:
      return "TRACE";
    default:
      return "";
  }
}
}  // namespace

void log_configure(const char* level, const char* subsys_list) {
  if (level && *level) {
    if (!strcasecmp(level, "NONE")) g_log.level = 0;
    else if (!strcasecmp(level, "WARN")) g_log.level = 1;
    else if (!strcasecmp(level, "INFO")) g_log.level = 2;
    else if (!strcasecmp(level, "DEBUG")) g_log.level = 3;
    else if (!strcasecmp(level, "TRACE")) g_log.level = 4;
    else report_error("environment", "GSHMEM_DEBUG: unknown level '%s' (NONE WARN INFO DEBUG TRACE)", level);
  }
  if (subsys_list && *subsys_list) {
    uint32_t mask = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", subsys_list);
    for (char *save = nullptr, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(nullptr, ",", &save)) {
      bool neg = tok[0] == '^';
      bool found = false;
      for (const auto& s : kSubsys)
        if (!strcasecmp(tok + (neg ? 1 : 0), s.name)) {
          found = true;
          if (neg) mask = (mask ? mask : ~0u) & ~static_cast<uint32_t>(s.bit);
          else mask |= static_cast<uint32_t>(s.bit);
        }
      if (!found) report_error("environment", "GSHMEM_DEBUG_SUBSYS: unknown subsystem '%s'", tok);
    }
    if (mask) g_log.mask = mask;
  }
}

void log_set_pe(int pe) noexcept { g_log.pe = pe; }

void log_write(LogLevel lvl, Subsys sub, const char* file, int line, const char* fmt, ...) {
  (void)sub;
  char msg[2048];
  int n;
  if (g_log.pe >= 0) n = snprintf(msg, sizeof msg, "gshmem[pe %d] %s: ", g_log.pe, level_tag(lvl));
  else n = snprintf(msg, sizeof msg, "gshmem[pid %d] %s: ", (int)getpid(), level_tag(lvl));
  va_list ap;
  va_start(ap, fmt);
  n += vsnprintf(msg + n, sizeof msg - n - 64 > 0 ? sizeof msg - n - 64 : 0, fmt, ap);
  va_end(ap);
  if (n > (int)sizeof msg - 64) n = (int)sizeof msg - 64;
  if (g_log.level >= static_cast<int>(LogLevel::debug)) {
    const char* base = strrchr(file, '/');
    n += snprintf(msg + n, sizeof msg - n, " [%s:%d]", base ? base + 1 : file, line);
  }
  msg[n++] = '\n';
  // One write() per line so lines from concurrent PEs do not interleave.
  ssize_t w = write(STDERR_FILENO, msg, n);
  (void)w;
}

}  // namespace gshmem
