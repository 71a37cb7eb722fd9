// The per-PE route table: how this PE reaches each PE. The runtime builds it once at shmem_init
// (core/route_plan.hpp decides, core creates the transports); host calls and the GPU proxy both
// use it. A mapped PE's memory is reached by loads and stores (host memory) or driver copies (GPU
// memory) from the host; device code reaches it by loads and stores unless the route names a
// transport for it (GSHMEM_FORCE_PROXY: the copy engine). A PE that is not mapped is reached
// through its transport by host calls and device code alike.
#pragma once
#include <cstdint>
#include <vector>

#include "transport/transport.hpp"

namespace gshmem::transport {

enum class Via : uint8_t { self, load_store, copy_engine, tcp, ib };


struct Route {
  Via via = Via::self;
  bool mapped = false;              // this PE's heap copies are mapped in this process
  Transport* transport = nullptr;   // set for copy_engine, tcp and ib
  // Device code pushes triggers for this PE to the proxy (a transport, for a GPU PE).
  bool proxied() const { return transport != nullptr && via != Via::load_store && via != Via::self; }
};
using Routes = std::vector<Route>;

inline const char* via_name(Via v) noexcept {
  switch (v) {
    case Via::self: return "self";
    case Via::load_store: return "loads and stores";
    case Via::copy_engine: return "copy engine";
    case Via::tcp: return "tcp";
    case Via::ib: return "ib";
  }
  return "?";
}

}  // namespace gshmem::transport
