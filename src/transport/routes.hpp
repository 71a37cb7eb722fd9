// The per-PE route table: how this PE reaches each PE. The runtime builds it once at shmem_init
// (core/route_plan.hpp decides, core creates the transports the plan names); host calls and the
// GPU proxy both use it. A mapped PE's memory is reached by loads and stores (host memory) or
// driver copies (GPU memory) from the host; device code reaches it by loads and stores unless the
// route names a transport for it (GSHMEM_FORCE_PROXY: the copy engine). A PE that is not mapped is
// reached through its transport by host calls and device code alike.
#pragma once
#include <cstdint>
#include <vector>

#include "transport/transport.hpp"

namespace gshmem::transport {

struct Route {
  enum class Kind : uint8_t { self, load_store, transport };
  Kind kind = Kind::self;
  bool mapped = false;             // this PE's heap copies are mapped in this process
  Transport* transport = nullptr;  // Kind::transport
  // Device code pushes triggers for this PE to the proxy.
  bool proxied() const { return kind == Kind::transport; }
  const char* name() const {
    return kind == Kind::self ? "self" : kind == Kind::load_store ? "loads and stores" : transport->name();
  }
};
using Routes = std::vector<Route>;

}  // namespace gshmem::transport
