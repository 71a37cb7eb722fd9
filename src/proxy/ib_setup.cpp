// Starting the ib transport for the GPU proxy: what this PE registers (the host control block, the
// globals, and the device segment through a dma-buf when the driver gives one) and the collective
// set-up. Kept apart from the proxy thread (gpu_proxy.cpp) and the verbs layer (transport/).
#include <unistd.h>

#include "core/runtime.hpp"
#include "proxy/gpu_proxy.hpp"

namespace gshmem::proxy {

Status ib_start(Runtime& rt, const std::vector<int>& peers, std::string* why) {
#if GSHMEM_HAVE_IBVERBS
  namespace ib = transport::ib;
  ib::Verbs v;
  ib::Options opt;
  opt.hca = rt.cfg->GSHMEM_IB_HCA;
  opt.gid_index = static_cast<int>(rt.cfg->GSHMEM_IB_GID_INDEX);
  std::vector<ib::SegmentSpec> segs;
  int fd = -1;
  if (!peers.empty()) {
    std::string load_why;
    if (ib::load_verbs(&v, &load_why) != Status::ok) opt.verbs_error = load_why;
    segs.push_back({transport::Seg::host, rt.heap.my_control(), heap::kControlBytes, -1});
    const heap::Region& d = rt.heap.data_region();
    if (d.size) segs.push_back({transport::Seg::data, reinterpret_cast<void*>(d.lo), d.size, -1});
    if (const uint64_t base = rt.heap.device_segment(rt.my_pe)) {
      const size_t len = GSHMEM_DEV_CTRL_BYTES + rt.heap.size();
      fd = gpu_dmabuf_fd(rt, base, len);
      segs.push_back({transport::Seg::device, reinterpret_cast<void*>(base), len, fd});
    }
  }
  std::unique_ptr<ib::Transport> t;
  const Status st = ib::Transport::create(v, *rt.boot, peers, segs, opt, &t, why);
  if (fd >= 0) close(fd);  // the registration keeps what it needs
  if (st != Status::ok) return st;
  t->set_local_memory(gpu_local_memory(rt));
  rt.ib = std::move(t);
  return Status::ok;
#else
  (void)rt;
  (void)peers;
  *why = "this gshmem was built without rdma-core headers (libibverbs-dev)";
  return Status::not_available;
#endif
}

}  // namespace gshmem::proxy
