// The proxy of a GPU PE: the trigger FIFO GPU threads push into (slots and the proxy's counters in
// host-pinned memory mapped into the GPU; the producers' head in GPU memory), one proxy thread
// that runs the executor over it, and the engines behind it: the copy engine for peers whose heap
// is mapped in this process (cuMemcpyAsync, cuStreamWriteValue64 and one-thread atomic kernels on
// one stream per target PE), the tcp transport for the others (GPU memory staged through host
// buffers). Device side: device/gshmem/impl/proxy.cuh. Design notes: docs/transport.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "gshmem/device_host/state.h"
#include "transport/transport.hpp"

namespace gshmem {
struct Runtime;
}

namespace gshmem::proxy {

class GpuProxy;

// How device code reaches each PE: directly (none: mapped, or itself) or through the proxy with
// one of its engines. rt.tcp / rt.ib must connect to the PEs routed to them.
enum class Route : uint8_t { none, copy_engine, tcp, ib };

Status gpu_proxy_start(Runtime& rt, const std::vector<Route>& routes, GpuProxy** out);
// The FIFO's addresses for the device state.
void gpu_proxy_fill(const GpuProxy& p, gshmem_device_state* s);
// Host side: waits until every trigger GPU threads have pushed so far has completed.
void gpu_proxy_quiet(GpuProxy& p);
// Stops the thread (after a final quiet) and frees the FIFO.
void gpu_proxy_stop(GpuProxy* p);
// The transport's access to this PE's GPU memory (staging, owner-side atomics); rt.tcp must exist.
void gpu_attach_tcp(Runtime& rt);
// The same access for any transport (null on a PE without a GPU).
transport::LocalMemory* gpu_local_memory(Runtime& rt);
// Collective (every PE calls it once any PE routes a peer to ib, also with no peers of its own):
// sets up rt.ib for peers; not_available with why when InfiniBand cannot be used (ib_setup.cpp).
Status ib_start(Runtime& rt, const std::vector<int>& peers, std::string* why);
// A dma-buf file descriptor for [base, base + len) of this PE's GPU memory, or -1 (logged).
int gpu_dmabuf_fd(Runtime& rt, uint64_t base, size_t len);

}  // namespace gshmem::proxy
