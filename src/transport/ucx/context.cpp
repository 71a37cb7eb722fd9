#include "transport/ucx/context.hpp"

#include <mutex>

namespace gshmem::transport::ucx {

bool context(const Ucp& u, Context* out, std::string* why) {
  static std::mutex mu;
  static Context made;
  static std::string error;
  static bool tried = false;
  std::lock_guard<std::mutex> lock(mu);
  if (!tried) {
    tried = true;
    const std::string ver =
        "UCX " + std::to_string(u.major) + "." + std::to_string(u.minor) + "." + std::to_string(u.release);
    ucp_config_t* cfg = nullptr;
    ucs_status_t st = u.config_read(nullptr, nullptr, &cfg);
    if (st != UCS_OK) {
      error =
          ver + " rejects its configuration (" + u.str(st) + "): check the UCX_* variables (UCX_TLS, UCX_NET_DEVICES)";
    } else {
      ucp_params_t p;
      p.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_NAME;
      p.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP;
      p.name = "gshmem";
      st = u.init_version(UCP_API_MAJOR, UCP_API_MINOR, &p, cfg, &made.ctx);
      u.config_release(cfg);
      if (st != UCS_OK) {
        made.ctx = nullptr;
        error = ver + " does not start (" + u.str(st) +
                "): UCX_TLS and UCX_NET_DEVICES choose its transports and devices (`ucx_info -d` lists them)";
      } else {
        ucp_context_attr_t a;
        a.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES;
        if (u.context_query(made.ctx, &a) == UCS_OK) made.memory_types = a.memory_types;
      }
    }
  }
  if (!made.ctx) {
    *why = error;
    return false;
  }
  *out = made;
  return true;
}

}  // namespace gshmem::transport::ucx
