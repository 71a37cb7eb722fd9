// The configuration table, parsed once from the environment. See config_table.def.
#pragma once
#include <cstdint>
#include <string>

#include "common/status.hpp"

namespace gshmem {

enum class CfgType { Bool, Int, Size, String, Enum };

struct Config {
#define GSHMEM_CFG_Bool bool
#define GSHMEM_CFG_Int int64_t
#define GSHMEM_CFG_Size uint64_t
#define GSHMEM_CFG_String std::string
#define GSHMEM_CFG_Enum std::string
#define GSHMEM_CFG(NAME, TYPE, DEF, ALLOWED, HELP) GSHMEM_CFG_##TYPE NAME{};
#include "common/config_table.def"
#undef GSHMEM_CFG
  // Which variables were set in the environment (bit per table row, in table order).
  uint64_t set_mask = 0;
};

// Row numbers of the table (config_was_set(cfg, cfg_row::GSHMEM_WAIT_YIELD_US)).
namespace cfg_row {
enum : int {
#define GSHMEM_CFG(NAME, TYPE, DEF, ALLOWED, HELP) NAME,
#include "common/config_table.def"
#undef GSHMEM_CFG
};
}  // namespace cfg_row

struct CfgRow {
  const char* name;
  CfgType type;
  const char* def;
  const char* allowed;  // "lo..hi[/step]" (Int, Size), "a|b|c" (Enum), or ""
  const char* help;
};

// Table rows, for gshmem-info and docs/env.md.
const CfgRow* config_rows(int* count) noexcept;
const char* cfg_type_name(CfgType t) noexcept;
// The allowed values of a row in words ("1 to 16", "a multiple of 32 from 32 to 1024",
// "auto, tcp or ib"), or "" when any value of the type is allowed.
std::string cfg_allowed_text(const CfgRow& row);

// Parses the environment (once; later calls return the cached table). Every malformed or
// out-of-range value is reported with the variable's name and its allowed values; the result is
// then invalid_argument.
Status config_load(const Config** out);
const Config& config();  // config_load must have succeeded
// The current value of row i, formatted as the user would write it.
std::string config_value_string(const Config& c, int row);
bool config_was_set(const Config& c, int row);

// Checks text against a row's type and allowed values; *why says what is wrong. (config_load
// uses it for every variable; exposed for the unit tests.)
bool config_check_value(const CfgRow& row, const char* text, std::string* why);

// Parses "1G", "512M", "4096", "1.5G" into bytes. Returns false on malformed input.
bool parse_size(const char* s, uint64_t* out) noexcept;
bool parse_bool(const char* s, bool* out) noexcept;

}  // namespace gshmem
