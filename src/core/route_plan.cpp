#include "core/route_plan.hpp"

namespace gshmem::core {

RoutePlan plan_routes(const PlanInput& in) {
  using transport::Via;
  RoutePlan p;
  p.via.assign(static_cast<size_t>(in.npes), Via::self);
  for (int pe = 0; pe < in.npes; ++pe) {
    if (pe == in.my_pe) continue;
    const bool mapped = pe < static_cast<int>(in.mapped.size()) && in.mapped[static_cast<size_t>(pe)];
    Via v;
    if (!in.gpu) {
      v = mapped ? Via::load_store : Via::tcp;
    } else if (mapped && !in.force_proxy) {
      v = Via::load_store;
    } else if (in.engine == "tcp") {
      v = Via::tcp;
    } else if (in.engine == "ib") {
      if (!in.ib_usable) {
        p.error = "GSHMEM_PROXY_ENGINE=ib but InfiniBand could not be set up";
        return p;
      }
      v = Via::ib;
    } else {
      v = mapped ? Via::copy_engine : in.ib_usable ? Via::ib : Via::tcp;
    }
    p.via[static_cast<size_t>(pe)] = v;
    if (v == Via::tcp) p.tcp_peers.push_back(pe);
    if (v == Via::ib) p.ib_peers.push_back(pe);
    p.any_proxied = p.any_proxied || (in.gpu && v != Via::load_store);
  }
  return p;
}

}  // namespace gshmem::core
