#include "transport/ib.hpp"

#if GSHMEM_HAVE_IBVERBS
#include <cerrno>
#include <cstring>

#include "common/dl.hpp"
#include "common/log.hpp"

namespace gshmem::transport::ib {
namespace {
using CompatQueryPort = int (*)(ibv_context*, uint8_t, ibv_port_attr*);
CompatQueryPort g_compat_query_port = nullptr;

int query_port_compat(ibv_context* ctx, uint8_t port, ibv_port_attr* attr) {
  memset(attr, 0, sizeof *attr);  // the compat symbol fills the leading fields
  return g_compat_query_port(ctx, port, attr);
}
// Inline in verbs.h (they call through the device's ops table): no symbol of libibverbs needed.
int post_send_inline(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) { return ibv_post_send(qp, wr, bad); }
int poll_cq_inline(ibv_cq* cq, int n, ibv_wc* wc) { return ibv_poll_cq(cq, n, wc); }
}  // namespace

Status load_verbs(Verbs* v, std::string* why) {
  static DynLib lib;
  if (!lib.open("libibverbs.so.1")) {
    *why = "cannot load libibverbs.so.1: " + lib.error();
    return Status::not_available;
  }
  bool ok = lib.sym("ibv_get_device_list", &v->get_device_list) && lib.sym("ibv_free_device_list", &v->free_device_list) &&
            lib.sym("ibv_get_device_name", &v->get_device_name) && lib.sym("ibv_open_device", &v->open_device) &&
            lib.sym("ibv_close_device", &v->close_device) && lib.sym("ibv_query_port", &g_compat_query_port) &&
            lib.sym("ibv_query_gid", &v->query_gid) && lib.sym("ibv_alloc_pd", &v->alloc_pd) &&
            lib.sym("ibv_dealloc_pd", &v->dealloc_pd) && lib.sym("ibv_reg_mr", &v->reg_mr) &&
            lib.sym("ibv_dereg_mr", &v->dereg_mr) && lib.sym("ibv_create_cq", &v->create_cq) &&
            lib.sym("ibv_destroy_cq", &v->destroy_cq) && lib.sym("ibv_create_qp", &v->create_qp) &&
            lib.sym("ibv_modify_qp", &v->modify_qp) && lib.sym("ibv_destroy_qp", &v->destroy_qp);
  if (!ok) {
    *why = "libibverbs.so.1 lacks " + lib.error();
    return Status::not_available;
  }
  lib.sym("ibv_reg_dmabuf_mr", &v->reg_dmabuf_mr);  // optional (rdma-core >= 34): GPU memory via dma-buf
  lib.sym("ibv_query_device", &v->query_device);
  v->query_port = query_port_compat;
  v->post_send = post_send_inline;
  v->poll_cq = poll_cq_inline;
  return Status::ok;
}

Status open_device(const Verbs& v, const std::string& want, Device* out, std::string* why) {
  int n = 0;
  errno = 0;
  ibv_device** list = v.get_device_list(&n);
  if (!list || n == 0) {
    *why = std::string("no InfiniBand device (ibv_get_device_list found ") + (list ? "0 devices" : "none") +
           (errno ? std::string(": ") + strerror(errno) : std::string()) + ")";
    if (list) v.free_device_list(list);
    return Status::not_available;
  }
  std::string want_name = want;
  int want_port = 0;
  if (size_t c = want.find(':'); c != std::string::npos) {
    want_name = want.substr(0, c);
    want_port = atoi(want.c_str() + c + 1);
  }
  std::string seen;
  Status st = Status::not_available;
  for (int i = 0; i < n && st != Status::ok; ++i) {
    const char* name = v.get_device_name(list[i]);
    if (!want_name.empty() && want_name != name) continue;
    ibv_context* ctx = v.open_device(list[i]);
    if (!ctx) {
      seen += std::string(seen.empty() ? "" : ", ") + name + " (cannot open)";
      continue;
    }
    for (int port = want_port ? want_port : 1; port <= (want_port ? want_port : 2); ++port) {
      ibv_port_attr attr{};
      if (v.query_port(ctx, static_cast<uint8_t>(port), &attr) != 0) continue;
      seen += std::string(seen.empty() ? "" : ", ") + name + ":" + std::to_string(port) +
              (attr.state == IBV_PORT_ACTIVE ? " active" : " down");
      if (attr.state != IBV_PORT_ACTIVE) continue;
      out->ctx = ctx;
      out->name = name;
      out->port = static_cast<uint8_t>(port);
      out->port_attr = attr;
      out->roce = attr.link_layer == IBV_LINK_LAYER_ETHERNET;
      st = Status::ok;
      break;
    }
    if (st != Status::ok) v.close_device(ctx);
  }
  v.free_device_list(list);
  if (st != Status::ok)
    *why = "no active InfiniBand port" + (want.empty() ? std::string() : " matching GSHMEM_IB_HCA=" + want) +
           " (found: " + (seen.empty() ? "nothing" : seen) + ")";
  return st;
}

Status qp_to_init(const Verbs& v, ibv_qp* qp, uint8_t port) {
  ibv_qp_attr a{};
  a.qp_state = IBV_QPS_INIT;
  a.pkey_index = 0;
  a.port_num = port;
  a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
  const int r = v.modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
  if (r) GSHMEM_WARN(Subsys::transport, "ib: QP to INIT failed: %s", strerror(r));
  return r ? Status::system_error : Status::ok;
}

Status qp_to_rtr(const Verbs& v, ibv_qp* qp, const QpInfo& remote, uint8_t port, int gid_index) {
  if (remote.version != kQpInfoVersion) {
    GSHMEM_WARN(Subsys::transport, "ib: peer connection record version %u (expected %u)", remote.version, kQpInfoVersion);
    return Status::invalid_argument;
  }
  ibv_qp_attr a{};
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = static_cast<ibv_mtu>(remote.mtu);
  a.dest_qp_num = remote.qpn;
  a.rq_psn = remote.psn;
  a.max_dest_rd_atomic = 16;
  a.min_rnr_timer = 12;
  a.ah_attr.port_num = port;
  a.ah_attr.dlid = remote.lid;
  if (remote.roce) {  // RoCE: routed by GID
    a.ah_attr.is_global = 1;
    memcpy(a.ah_attr.grh.dgid.raw, remote.gid, 16);
    a.ah_attr.grh.sgid_index = static_cast<uint8_t>(gid_index);
    a.ah_attr.grh.hop_limit = 64;
  }
  const int r = v.modify_qp(qp, &a,
                            IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                                IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
  if (r) GSHMEM_WARN(Subsys::transport, "ib: QP to RTR (peer qpn %u) failed: %s", remote.qpn, strerror(r));
  return r ? Status::system_error : Status::ok;
}

Status qp_to_rts(const Verbs& v, ibv_qp* qp, uint32_t psn) {
  ibv_qp_attr a{};
  a.qp_state = IBV_QPS_RTS;
  a.timeout = 14;  // 4.096 us * 2^14 = 67 ms per retry
  a.retry_cnt = 7;
  a.rnr_retry = 7;
  a.sq_psn = psn;
  a.max_rd_atomic = 16;
  const int r = v.modify_qp(qp, &a,
                            IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                                IBV_QP_MAX_QP_RD_ATOMIC);
  if (r) GSHMEM_WARN(Subsys::transport, "ib: QP to RTS failed: %s", strerror(r));
  return r ? Status::system_error : Status::ok;
}

void Registry::add_local(int seg, void* base, size_t len, uint32_t lkey, uint32_t rkey) {
  std::lock_guard<std::mutex> lock(mu_);
  local_.push_back({seg, reinterpret_cast<uintptr_t>(base), len, lkey, rkey});
}

bool Registry::remove_local(uint32_t lkey) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < local_.size(); ++i)
    if (local_[i].lkey == lkey) {
      local_.erase(local_.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
  return false;
}

void Registry::set_remote(int pe, int seg, const RemoteSeg& r) {
  std::lock_guard<std::mutex> lock(mu_);
  if (remote_.size() <= static_cast<size_t>(pe)) remote_.resize(static_cast<size_t>(pe) + 1);
  auto& v = remote_[static_cast<size_t>(pe)];
  if (v.size() <= static_cast<size_t>(seg)) v.resize(static_cast<size_t>(seg) + 1);
  v[static_cast<size_t>(seg)].clear();
  if (r.len) v[static_cast<size_t>(seg)].push_back({0, r});
}

void Registry::add_remote(int pe, int seg, uint64_t off, const RemoteSeg& r) {
  if (!r.len) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (remote_.size() <= static_cast<size_t>(pe)) remote_.resize(static_cast<size_t>(pe) + 1);
  auto& v = remote_[static_cast<size_t>(pe)];
  if (v.size() <= static_cast<size_t>(seg)) v.resize(static_cast<size_t>(seg) + 1);
  auto& regions = v[static_cast<size_t>(seg)];
  size_t at = 0;
  while (at < regions.size() && regions[at].off < off) ++at;
  regions.insert(regions.begin() + static_cast<std::ptrdiff_t>(at), Region{off, r});
}

void Registry::drop_remote(int seg, uint64_t off, uint64_t len) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& v : remote_) {
    if (seg < 0 || static_cast<size_t>(seg) >= v.size()) continue;
    auto& regions = v[static_cast<size_t>(seg)];
    for (size_t i = 0; i < regions.size();)
      if (regions[i].off >= off && regions[i].off - off < len && regions[i].r.len <= len - (regions[i].off - off))
        regions.erase(regions.begin() + static_cast<std::ptrdiff_t>(i));
      else
        ++i;
  }
}

bool Registry::lookup(const void* addr, size_t len, uint32_t* lkey) const {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  std::lock_guard<std::mutex> lock(mu_);
  for (const Local& l : local_)
    if (a >= l.base && a - l.base <= l.len && len <= l.len - (a - l.base)) {
      *lkey = l.lkey;
      return true;
    }
  return false;
}

bool Registry::remote(int pe, int seg, uint64_t off, size_t len, uint64_t* raddr, uint32_t* rkey,
                      size_t* avail) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (pe < 0 || static_cast<size_t>(pe) >= remote_.size()) return false;
  const auto& v = remote_[static_cast<size_t>(pe)];
  if (seg < 0 || static_cast<size_t>(seg) >= v.size()) return false;
  for (const Region& g : v[static_cast<size_t>(seg)]) {
    if (off < g.off || off - g.off > g.r.len) continue;
    const uint64_t in = off - g.off, left = g.r.len - in;
    if (in == g.r.len && len) continue;  // at this region's end: the next one may hold it
    if (avail) {
      *avail = len < left ? len : static_cast<size_t>(left);
    } else if (len > left) {
      return false;
    }
    *raddr = g.r.base + in;
    *rkey = g.r.rkey;
    return true;
  }
  return false;
}

RemoteSeg Registry::local_record(int seg) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const Local& l : local_)
    if (l.seg == seg) return {l.base, l.len, l.rkey, 0};
  return {0, 0, 0, 0};
}

}  // namespace gshmem::transport::ib
#endif
