#include "common/config.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <strings.h>

namespace gshmem {

namespace {
constexpr CfgRow kRows[] = {
#define GSHMEM_CFG(NAME, TYPE, DEF, HELP) {#NAME, CfgType::TYPE, DEF, HELP},
#include "common/config_table.def"
#undef GSHMEM_CFG
};
constexpr int kNumRows = sizeof(kRows) / sizeof(kRows[0]);
static_assert(kNumRows <= 64, "set_mask holds 64 rows");

bool parse_one(const char* s, bool* out) { return parse_bool(s, out); }
bool parse_one(const char* s, uint64_t* out) { return parse_size(s, out); }
bool parse_one(const char* s, int64_t* out) {
  char* end = nullptr;
  errno = 0;
  long long v = strtoll(s, &end, 0);
  if (errno || end == s || *end) return false;
  *out = v;
  return true;
}
bool parse_one(const char* s, std::string* out) {
  *out = s;
  return true;
}

std::once_flag g_once;
Config g_cfg;
Status g_status = Status::ok;
bool g_loaded = false;

void load() {
  int row = 0;
  bool ok = true;
#define GSHMEM_CFG(NAME, TYPE, DEF, HELP)                                                  \
  {                                                                                        \
    const char* env = getenv(#NAME);                                                       \
    if (!parse_one(DEF, &g_cfg.NAME)) {                                                    \
      fprintf(stderr, "gshmem: internal: bad default for %s\n", #NAME);                   \
      ok = false;                                                                          \
    }                                                                                      \
    if (env) {                                                                             \
      if (parse_one(env, &g_cfg.NAME)) {                                                   \
        g_cfg.set_mask |= 1ull << row;                                                     \
      } else {                                                                             \
        fprintf(stderr, "gshmem: environment: %s='%s' is not a valid %s (default %s)\n",  \
                #NAME, env, cfg_type_name(CfgType::TYPE), DEF);                            \
        ok = false;                                                                        \
      }                                                                                    \
    }                                                                                      \
    ++row;                                                                                 \
  }
#include "common/config_table.def"
#undef GSHMEM_CFG
  g_status = ok ? Status::ok : Status::invalid_argument;
  g_loaded = true;
}
}  // namespace

const CfgRow* config_rows(int* count) noexcept {
  *count = kNumRows;
  return kRows;
}

const char* cfg_type_name(CfgType t) noexcept {
  switch (t) {
    case CfgType::Bool: return "bool";
    case CfgType::Int: return "integer";
    case CfgType::Size: return "size";
    case CfgType::String: return "string";
  }
  return "?";
}

Status config_load(const Config** out) {
  std::call_once(g_once, load);
  if (out) *out = &g_cfg;
  return g_status;
}

const Config& config() {
  if (!g_loaded) config_load(nullptr);
  return g_cfg;
}

bool config_was_set(const Config& c, int row) { return (c.set_mask >> row) & 1; }

std::string config_value_string(const Config& c, int row) {
  int i = 0;
  std::string s;
#define GSHMEM_CFG(NAME, TYPE, DEF, HELP) \
  if (i++ == row) s = to_text(c.NAME);
  auto to_text = [](const auto& v) -> std::string {
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, bool>) return v ? "1" : "0";
    else if constexpr (std::is_same_v<V, std::string>) return v;
    else return std::to_string(v);
  };
#include "common/config_table.def"
#undef GSHMEM_CFG
  return s;
}

bool parse_bool(const char* s, bool* out) noexcept {
  if (!strcasecmp(s, "1") || !strcasecmp(s, "y") || !strcasecmp(s, "yes") || !strcasecmp(s, "true") ||
      !strcasecmp(s, "on")) {
    *out = true;
    return true;
  }
  if (!strcasecmp(s, "0") || !strcasecmp(s, "n") || !strcasecmp(s, "no") || !strcasecmp(s, "false") ||
      !strcasecmp(s, "off") || !*s) {
    *out = false;
    return true;
  }
  return false;
}

bool parse_size(const char* s, uint64_t* out) noexcept {
  if (!s || !*s) return false;
  char* end = nullptr;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || v < 0 || !std::isfinite(v)) return false;
  double mult = 1;
  if (*end) {
    switch (*end) {
      case 'k': case 'K': mult = 1024.0; break;
      case 'm': case 'M': mult = 1024.0 * 1024; break;
      case 'g': case 'G': mult = 1024.0 * 1024 * 1024; break;
      case 't': case 'T': mult = 1024.0 * 1024 * 1024 * 1024; break;
      default: return false;
    }
    ++end;
    if (*end == 'i' || *end == 'I') ++end;
    if (*end == 'b' || *end == 'B') ++end;
    if (*end) return false;
  }
  double bytes = v * mult;
  if (bytes > 1.8e19) return false;
  *out = static_cast<uint64_t>(bytes);
  return true;
}

}  // namespace gshmem
