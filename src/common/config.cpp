#include "common/config.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <strings.h>
#include <type_traits>

#include "common/fatal.hpp"

namespace gshmem {

namespace {
// OpenSHMEM's deprecated SMA_ names of four variables, read when the SHMEM_ name is not set.
const char* env_or_deprecated(const char* name) {
  if (const char* v = getenv(name)) return v;
  static constexpr const char* kOld[][2] = {{"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE"},
                                            {"SHMEM_DEBUG", "SMA_DEBUG"},
                                            {"SHMEM_INFO", "SMA_INFO"},
                                            {"SHMEM_VERSION", "SMA_VERSION"}};
  for (const auto& o : kOld)
    if (strcmp(o[0], name) == 0) return getenv(o[1]);
  return nullptr;
}

constexpr CfgRow kRows[] = {
#define GSHMEM_CFG(NAME, TYPE, DEF, ALLOWED, HELP) {#NAME, CfgType::TYPE, DEF, ALLOWED, HELP},
#include "common/config_table.def"
#undef GSHMEM_CFG
};
constexpr int kNumRows = sizeof(kRows) / sizeof(kRows[0]);
static_assert(kNumRows <= 64, "set_mask holds 64 rows");

bool parse_int(const char* s, int64_t* out) {
  char* end = nullptr;
  errno = 0;
  const long long v = strtoll(s, &end, 0);
  if (errno || end == s || *end) return false;
  *out = v;
  return true;
}

// "lo..hi/step" of an Int or Size row (either end may be empty; step optional).
struct Range {
  bool has_lo = false, has_hi = false;
  long double lo = 0, hi = 0, step = 0;
};
Range parse_range(const CfgRow& row) {
  Range r;
  std::string a = row.allowed;
  const size_t dots = a.find("..");
  if (dots == std::string::npos) return r;
  std::string lo = a.substr(0, dots), hi = a.substr(dots + 2), step;
  if (const size_t slash = hi.find('/'); slash != std::string::npos) {
    step = hi.substr(slash + 1);
    hi = hi.substr(0, slash);
  }
  auto num = [&](const std::string& t, long double* v) {
    if (t.empty()) return false;
    if (row.type == CfgType::Size) {
      uint64_t b = 0;
      parse_size(t.c_str(), &b);
      *v = static_cast<long double>(b);
    } else {
      int64_t i = 0;
      parse_int(t.c_str(), &i);
      *v = static_cast<long double>(i);
    }
    return true;
  };
  r.has_lo = num(lo, &r.lo);
  r.has_hi = num(hi, &r.hi);
  num(step, &r.step);
  return r;
}

std::string number_text(const CfgRow& row, long double v) {
  char b[64];
  snprintf(b, sizeof b, "%lld", static_cast<long long>(v));
  if (row.type != CfgType::Size) return b;
  static const char* units[] = {"", "K", "M", "G", "T"};
  unsigned long long x = static_cast<unsigned long long>(v);
  int u = 0;
  while (u < 4 && x && x % 1024 == 0) x /= 1024, ++u;
  snprintf(b, sizeof b, "%llu%s", x, units[u]);
  return b;
}

bool parse_one(const char* s, bool* out) { return parse_bool(s, out); }
bool parse_one(const char* s, uint64_t* out) { return parse_size(s, out); }
bool parse_one(const char* s, int64_t* out) { return parse_int(s, out); }

// Enum values are stored as the table spells them.
std::string canonical_enum(const CfgRow& row, const char* text) {
  std::string all = row.allowed;
  size_t at = 0;
  while (at <= all.size()) {
    const size_t bar = all.find('|', at);
    const std::string v = all.substr(at, bar == std::string::npos ? std::string::npos : bar - at);
    if (!strcasecmp(v.c_str(), text)) return v;
    if (bar == std::string::npos) break;
    at = bar + 1;
  }
  return "";
}

std::once_flag g_once;
Config g_cfg;
Status g_status = Status::ok;
bool g_loaded = false;

void load() {
  int row = 0;
  bool ok = true;
  auto take = [&](const CfgRow& r, const char* text, auto* field, bool from_env) {
    std::string why;
    if (!config_check_value(r, text, &why)) {
      if (from_env) report_error("environment", "%s='%s' %s (default %s)", r.name, text, why.c_str(), r.def);
      else report_error("environment", "internal: the default of %s is invalid: %s", r.name, why.c_str());
      ok = false;
      return;
    }
    using F = std::remove_pointer_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::string>) {
      *field = r.type == CfgType::Enum ? canonical_enum(r, text) : std::string(text);
    } else {
      parse_one(text, field);
    }
  };
#define GSHMEM_CFG(NAME, TYPE, DEF, ALLOWED, HELP)    \
  {                                                   \
    const CfgRow& r = kRows[row];                     \
    take(r, DEF, &g_cfg.NAME, false);                 \
    if (const char* env = env_or_deprecated(#NAME)) { \
      take(r, env, &g_cfg.NAME, true);                \
      g_cfg.set_mask |= 1ull << row;                  \
    }                                                 \
    ++row;                                            \
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
    case CfgType::Bool:
      return "bool";
    case CfgType::Int:
      return "integer";
    case CfgType::Size:
      return "size";
    case CfgType::String:
      return "string";
    case CfgType::Enum:
      return "one of";
  }
  return "?";
}

std::string cfg_allowed_text(const CfgRow& row) {
  if (row.type == CfgType::Enum) {
    std::string out, all = row.allowed;
    size_t n = 0, at = 0;
    for (char c : all) n += c == '|';
    for (size_t i = 0; i <= n; ++i) {
      const size_t bar = all.find('|', at);
      const std::string v = all.substr(at, bar - at);
      out += (i == 0 ? "" : i == n ? " or " : ", ") + v;
      at = bar + 1;
    }
    return out;
  }
  if (row.type != CfgType::Int && row.type != CfgType::Size) return "";
  const Range r = parse_range(row);
  std::string s;
  if (r.step > 1) s = "a multiple of " + number_text(row, r.step) + " ";
  if (r.has_lo && r.has_hi) s += (s.empty() ? "" : "from ") + number_text(row, r.lo) + " to " + number_text(row, r.hi);
  else if (r.has_lo) s += (s.empty() ? "" : "of ") + std::string("at least ") + number_text(row, r.lo);
  else if (r.has_hi) s += (s.empty() ? "" : "of ") + std::string("at most ") + number_text(row, r.hi);
  return s;
}

bool config_check_value(const CfgRow& row, const char* text, std::string* why) {
  switch (row.type) {
    case CfgType::Bool: {
      bool b;
      if (parse_bool(text, &b)) return true;
      *why = "is not a valid bool (1, 0, yes, no, true, false, on, off)";
      return false;
    }
    case CfgType::String:
      return true;
    case CfgType::Enum:
      if (!canonical_enum(row, text).empty()) return true;
      *why = "is not one of " + cfg_allowed_text(row);
      return false;
    case CfgType::Int:
    case CfgType::Size: {
      long double v = 0;
      if (row.type == CfgType::Int) {
        int64_t i;
        if (!parse_int(text, &i)) {
          *why = "is not a valid integer";
          return false;
        }
        v = static_cast<long double>(i);
      } else {
        uint64_t b;
        if (!parse_size(text, &b)) {
          *why = "is not a valid size (bytes, or with a suffix K, M, G or T)";
          return false;
        }
        v = static_cast<long double>(b);
      }
      const Range r = parse_range(row);
      if ((r.has_lo && v < r.lo) || (r.has_hi && v > r.hi) ||
          (r.step > 1 && std::fmod(static_cast<double>(v), static_cast<double>(r.step)) != 0)) {
        *why = "is out of range: allowed " + cfg_allowed_text(row);
        return false;
      }
      return true;
    }
  }
  return false;
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
  auto to_text = [](const auto& v) -> std::string {
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, bool>) return v ? "1" : "0";
    else if constexpr (std::is_same_v<V, std::string>) return v;
    else return std::to_string(v);
  };
#define GSHMEM_CFG(NAME, TYPE, DEF, ALLOWED, HELP) \
  if (i++ == row) s = to_text(c.NAME);
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
      case 'k':
      case 'K':
        mult = 1024.0;
        break;
      case 'm':
      case 'M':
        mult = 1024.0 * 1024;
        break;
      case 'g':
      case 'G':
        mult = 1024.0 * 1024 * 1024;
        break;
      case 't':
      case 'T':
        mult = 1024.0 * 1024 * 1024 * 1024;
        break;
      default:
        return false;
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
