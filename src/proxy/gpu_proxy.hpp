// The proxy of a GPU PE: the trigger FIFO GPU threads push into (slots and the proxy's counters in
// host-pinned memory mapped into the GPU; the producers' head in GPU memory), one proxy thread
// that runs the executor over it, and the engines behind it: the copy engine for peers whose heap
// is mapped in this process (cuMemcpyAsync, cuStreamWriteValue64 and one-thread atomic kernels on
// one stream per target PE), the tcp transport for the others (GPU memory staged through host
// buffers). Device side: device/gshmem/impl/proxy.cuh. Design notes: docs/transport.md.
#pragma once
#include <cstdint>
#include <vector>

#include "common/status.hpp"
#include "gshmem/device_host/state.h"

namespace gshmem {
struct Runtime;
}

namespace gshmem::proxy {

class GpuProxy;

// via[pe] = 1: device code reaches pe through the proxy. tcp_engine: every proxied PE goes over the
// tcp transport (rt.tcp must connect to it); otherwise mapped peers use the copy engine and the
// rest the tcp transport.
Status gpu_proxy_start(Runtime& rt, const std::vector<uint8_t>& via, bool tcp_engine, GpuProxy** out);
// The FIFO's addresses for the device state.
void gpu_proxy_fill(const GpuProxy& p, gshmem_device_state* s);
// Host side: waits until every trigger GPU threads have pushed so far has completed.
void gpu_proxy_quiet(GpuProxy& p);
// Stops the thread (after a final quiet) and frees the FIFO.
void gpu_proxy_stop(GpuProxy* p);
// The transport's access to this PE's GPU memory (staging, owner-side atomics); rt.tcp must exist.
void gpu_attach_tcp(Runtime& rt);

}  // namespace gshmem::proxy
