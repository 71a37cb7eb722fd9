#include "core/route_plan.hpp"

namespace gshmem::core {
namespace {

// Whether offer o can carry operations from this PE to pe (mapped: pe's GPU segment is mapped here).
bool suits(const PlanInput& in, const Offer& o, int pe, bool mapped, std::string* why) {
  if (!o.usable[static_cast<size_t>(in.my_pe)]) {
    *why = o.why.empty() ? "not usable on this PE" : o.why;
    return false;
  }
  if (!o.usable[static_cast<size_t>(pe)]) {
    *why = "pe " + std::to_string(pe) + " cannot use it";
    return false;
  }
  if (o.caps.same_node_only && !mapped) {
    *why = "it reaches only PEs on this node";
    return false;
  }
  if (!o.caps.same_node_only && !o.caps.off_node) {
    *why = "it reaches no other PE";
    return false;
  }
  if (in.gpu && !o.caps.device_memory) {
    *why = o.why.empty() ? "it cannot reach GPU memory here" : o.why;
    return false;
  }
  return true;
}

int score(const Offer& o, bool mapped) {
  return (mapped && o.caps.same_node_only ? 8 : 0) + (o.caps.marks ? 2 : 0) + (o.caps.device_atomics ? 1 : 0);
}

// The offer for pe under setting `setting` (named by `var`), or -1 with *error.
int choose(const PlanInput& in, int pe, bool mapped, const std::string& setting, const char* var, std::string* error) {
  std::string why;
  if (setting != "auto") {
    for (size_t i = 0; i < in.offers.size(); ++i) {
      if (in.offers[i].name != setting) continue;
      if (suits(in, in.offers[i], pe, mapped, &why)) return static_cast<int>(i);
      *error = std::string(var) + "=" + setting + " cannot reach pe " + std::to_string(pe) + ": " + why;
      return -1;
    }
    *error = std::string(var) + "=" + setting + " names no transport of this gshmem";
    return -1;
  }
  int best = -1;
  std::string tried;
  for (size_t i = 0; i < in.offers.size(); ++i) {
    const Offer& o = in.offers[i];
    if (o.broken && !o.caps.same_node_only && !mapped) {
      // present here, but its settings keep it from starting: the user meant to use it
      *error = o.name + " is installed but does not start on this PE: " + o.why;
      return -1;
    }
    if (!suits(in, o, pe, mapped, &why)) {
      tried += (tried.empty() ? "" : "; ") + o.name + ": " + why;
      continue;
    }
    if (best < 0 || score(o, mapped) > score(in.offers[static_cast<size_t>(best)], mapped)) best = static_cast<int>(i);
  }
  if (best < 0) *error = "no transport reaches pe " + std::to_string(pe) + " from this PE (" + tried + ")";
  return best;
}

}  // namespace

RoutePlan plan_routes(const PlanInput& in) {
  RoutePlan p;
  p.via.assign(static_cast<size_t>(in.npes), kViaSelf);
  p.peers.assign(in.offers.size(), {});
  for (int pe = 0; pe < in.npes; ++pe) {
    if (pe == in.my_pe) continue;
    const bool mapped = pe < static_cast<int>(in.mapped.size()) && in.mapped[static_cast<size_t>(pe)];
    if (mapped && !(in.gpu && in.force_proxy)) {
      p.via[static_cast<size_t>(pe)] = kViaLoadStore;
      continue;
    }
    const bool engine = in.gpu && in.engine != "auto";
    const int o = mapped || engine ? choose(in, pe, mapped, in.engine, "GSHMEM_PROXY_ENGINE", &p.error)
                                   : choose(in, pe, mapped, in.transport, "GSHMEM_TRANSPORT", &p.error);
    if (o < 0) return p;
    p.via[static_cast<size_t>(pe)] = o;
    p.peers[static_cast<size_t>(o)].push_back(pe);
    p.any_proxied = p.any_proxied || in.gpu;
  }
  return p;
}

}  // namespace gshmem::core
