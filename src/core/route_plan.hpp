// Which way each PE is reached (transport/routes.hpp), decided from facts alone so it can be
// unit-tested: no sockets, no GPU. The runtime plans, sets up the transports the plan names
// (collectively), and plans again without ib when ib could not be set up on some PE.
#pragma once
#include <string>
#include <vector>

#include "transport/routes.hpp"

namespace gshmem::core {

struct PlanInput {
  int my_pe = 0;
  int npes = 1;
  std::vector<bool> mapped;     // per PE: its heap is mapped in this process (same node)
  bool gpu = false;             // this PE has the device heap kind (device code may push triggers)
  bool force_proxy = false;     // GSHMEM_FORCE_PROXY
  std::string engine = "auto";  // GSHMEM_PROXY_ENGINE: auto, tcp or ib
  bool ib_usable = true;        // false once an ib set-up failed somewhere
};

struct RoutePlan {
  std::vector<transport::Via> via;  // per PE
  std::vector<int> tcp_peers;       // PEs the tcp transport must connect to
  std::vector<int> ib_peers;        // PEs the ib transport must connect to
  bool any_proxied = false;         // device code pushes triggers for some PE (a GPU proxy is needed)
  std::string error;                // non-empty: the configuration cannot work (names why)
};

// Rules:
// * CPU PEs (host heap kind): mapped PEs by loads and stores, the others over tcp.
// * GPU PEs: a mapped PE by loads and stores from device code, unless GSHMEM_FORCE_PROXY (then
//   through the proxy). A proxied PE goes to the engine GSHMEM_PROXY_ENGINE names: tcp; ib; or
//   auto: the copy engine for a mapped PE, else ib where usable, else tcp. engine=ib when ib is
//   not usable is an error.
RoutePlan plan_routes(const PlanInput& in);

}  // namespace gshmem::core
