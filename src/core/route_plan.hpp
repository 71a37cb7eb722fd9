// Which way each PE is reached (transport/routes.hpp), decided from facts alone so it can be
// unit-tested: no sockets, no GPU. The runtime probes the transport table on every PE, gathers which
// PE can use which transport, plans, then creates the transports the plan names (collectively).
#pragma once
#include <string>
#include <vector>

#include "transport/transport.hpp"

namespace gshmem::core {

constexpr int kViaSelf = -2;
constexpr int kViaLoadStore = -1;

// One line of the transport table as this job found it.
struct Offer {
  std::string name;
  transport::Caps caps;      // on this PE
  std::vector<bool> usable;  // per PE: that PE can use it
  bool broken = false;       // on this PE: present but it does not start
  std::string why;           // on this PE: why it is not usable
};

struct PlanInput {
  int my_pe = 0;
  int npes = 1;
  std::vector<bool> mapped;        // per PE: its heap is mapped in this process (same node)
  bool gpu = false;                // this PE has the device heap kind (device code may push triggers)
  bool force_proxy = false;        // GSHMEM_FORCE_PROXY
  std::string transport = "auto";  // GSHMEM_TRANSPORT: the transport for PEs on other nodes
  std::string engine = "auto";     // GSHMEM_PROXY_ENGINE: the GPU proxy's transport for every proxied PE
  std::vector<Offer> offers;       // the transport table, in its order
};

struct RoutePlan {
  std::vector<int> via;                 // per PE: kViaSelf, kViaLoadStore or an index into offers
  std::vector<std::vector<int>> peers;  // per offer: the PEs routed to it
  bool any_proxied = false;             // device code pushes triggers for some PE (a GPU proxy is needed)
  std::string error;                    // non-empty: the configuration cannot work (names why)
};

// Rules:
// * A mapped PE is reached by loads and stores, unless this is a GPU PE with GSHMEM_FORCE_PROXY
//   (CPU PEs forced through the proxy map nobody, so every peer is unmapped).
// * A proxied mapped PE (GPU PE, forced) goes to GSHMEM_PROXY_ENGINE's transport; auto: the best
//   transport both PEs can use, same-node transports (the copy engine) first.
// * A PE that is not mapped goes to GSHMEM_PROXY_ENGINE's transport when this is a GPU PE and it
//   names one, else to GSHMEM_TRANSPORT's; auto: the best off-node transport both PEs can use
//   that reaches GPU memory when this is a GPU PE.
// * "Best": the most capabilities (completion marks, atomics on GPU memory), then the table's
//   order. In auto, a transport that is present on this PE but does not start is an error (its
//   settings are wrong), not a reason to take the next one; an absent one is skipped.
// * A named transport that either PE cannot use, or that cannot reach the PE, is an error naming
//   the transport, the PE and why.
RoutePlan plan_routes(const PlanInput& in);

}  // namespace gshmem::core
