#include "transport/table.hpp"

#include "transport/copy_engine/copy_engine.hpp"
#include "transport/tcp/tcp.hpp"
#include "transport/ucx/ucx.hpp"

namespace gshmem::transport {
namespace {

const Entry kTable[] = {
    {"ucx", "UCX (UCP API): InfiniBand/RoCE, shared memory, TCP and CUDA memory, as UCX_TLS selects", ucx_probe,
     ucx_create},
    {"tcp", "gshmem's own sockets: an owner thread applies every request; needs nothing but TCP", tcp_probe,
     tcp_create},
    {"copy_engine", "same-node GPU peers through the GPU's copy engines (the GPU proxy)", copy_engine_probe,
     copy_engine_create},
};

}  // namespace

std::span<const Entry> table() { return kTable; }

int find(const std::string& name) {
  for (size_t i = 0; i < std::size(kTable); ++i)
    if (name == kTable[i].name) return static_cast<int>(i);
  return -1;
}

}  // namespace gshmem::transport
