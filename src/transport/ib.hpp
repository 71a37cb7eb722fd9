// The ib transport's verbs layer: rdma-core reached through a table of entry points (dlopen of
// libibverbs.so.1 in production, a fake in the unit tests), HCA/port selection with a clean error
// when there is no InfiniBand device, RC queue-pair state transitions, the per-peer connection
// record exchanged through the bootstrap, and registration bookkeeping for the symmetric segments.
// The data path (queue pairs, registration, RDMA write/read, atomics) is transport/ib_transport;
// docs/transport.md says what has and has not run on InfiniBand hardware.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "transport/ib_wire.hpp"

#if GSHMEM_HAVE_IBVERBS
#include <infiniband/verbs.h>

namespace gshmem::transport::ib {

struct Verbs {
  ibv_device** (*get_device_list)(int* num) = nullptr;
  void (*free_device_list)(ibv_device** list) = nullptr;
  const char* (*get_device_name)(ibv_device* dev) = nullptr;
  ibv_context* (*open_device)(ibv_device* dev) = nullptr;
  int (*close_device)(ibv_context* ctx) = nullptr;
  int (*query_port)(ibv_context* ctx, uint8_t port, ibv_port_attr* attr) = nullptr;
  int (*query_gid)(ibv_context* ctx, uint8_t port, int index, ibv_gid* gid) = nullptr;
  ibv_pd* (*alloc_pd)(ibv_context* ctx) = nullptr;
  int (*dealloc_pd)(ibv_pd* pd) = nullptr;
  ibv_mr* (*reg_mr)(ibv_pd* pd, void* addr, size_t len, int access) = nullptr;
  ibv_mr* (*reg_dmabuf_mr)(ibv_pd* pd, uint64_t offset, size_t len, uint64_t iova, int fd, int access) = nullptr;
  int (*dereg_mr)(ibv_mr* mr) = nullptr;
  ibv_cq* (*create_cq)(ibv_context* ctx, int cqe, void* user, ibv_comp_channel* ch, int vector) = nullptr;
  int (*destroy_cq)(ibv_cq* cq) = nullptr;
  ibv_qp* (*create_qp)(ibv_pd* pd, ibv_qp_init_attr* attr) = nullptr;
  int (*modify_qp)(ibv_qp* qp, ibv_qp_attr* attr, int mask) = nullptr;
  int (*destroy_qp)(ibv_qp* qp) = nullptr;
  int (*post_send)(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) = nullptr;
  int (*poll_cq)(ibv_cq* cq, int n, ibv_wc* wc) = nullptr;
  int (*query_device)(ibv_context* ctx, ibv_device_attr* attr) = nullptr;  // optional: atomic capability
};

// dlopen("libibverbs.so.1"); not_available with the reason when it cannot be loaded.
Status load_verbs(Verbs* out, std::string* why);

struct Device {
  ibv_context* ctx = nullptr;
  std::string name;
  uint8_t port = 0;
  ibv_port_attr port_attr{};
  bool roce = false;  // Ethernet link layer: address by GID
};
// want: "" (first device with an ACTIVE port) or "mlx5_0" or "mlx5_0:2" (GSHMEM_IB_HCA).
// not_available + a message naming what was found when nothing fits.
Status open_device(const Verbs& v, const std::string& want, Device* out, std::string* why);

// RC queue pair: RESET -> INIT -> RTR -> RTS with the attributes RDMA write/read/atomics need.
Status qp_to_init(const Verbs& v, ibv_qp* qp, uint8_t port);
Status qp_to_rtr(const Verbs& v, ibv_qp* qp, const QpInfo& remote, uint8_t port, int gid_index);
Status qp_to_rts(const Verbs& v, ibv_qp* qp, uint32_t psn);

// Registration bookkeeping: each PE registers its segments at set-up and every later extension of
// one (the device heap grows, a buffer joins it) as a region of its own; peers learn (offset,
// base, rkey) per region. lookup() finds the local key of a range, remote() the remote address
// and rkey of the region an offset falls in.
class Registry {
 public:
  void add_local(int seg, void* base, size_t len, uint32_t lkey, uint32_t rkey);
  // Registered user buffers (seg kUserBuffer): local side only, added and removed while running.
  static constexpr int kUserBuffer = -1;
  bool remove_local(uint32_t lkey);  // an entry (a user buffer's, an extension's), by its region's local key
  void set_remote(int pe, int seg, const RemoteSeg& r);  // the region at offset 0 (set-up)
  void add_remote(int pe, int seg, uint64_t off, const RemoteSeg& r);  // an extension at off
  // Forgets every peer's regions of seg inside [off, off + len) (an extension unmapped everywhere).
  void drop_remote(int seg, uint64_t off, uint64_t len);
  // false when [addr, addr+len) is not inside one registered local segment
  bool lookup(const void* addr, size_t len, uint32_t* lkey) const;
  // false when seg/offset/len do not fit inside one region pe registered. With avail: the range
  // may continue into the next region; *avail gets the bytes from off that this region holds.
  bool remote(int pe, int seg, uint64_t off, size_t len, uint64_t* raddr, uint32_t* rkey,
              size_t* avail = nullptr) const;
  RemoteSeg local_record(int seg) const;

 private:
  struct Local {
    int seg;
    uintptr_t base;
    size_t len;
    uint32_t lkey, rkey;
  };
  struct Region {
    uint64_t off;  // in the segment
    RemoteSeg r;
  };
  mutable std::mutex mu_;  // extensions change the tables while the proxy thread looks keys up
  std::vector<Local> local_;
  std::vector<std::vector<std::vector<Region>>> remote_;  // [pe][seg], sorted by offset
};

}  // namespace gshmem::transport::ib
#endif
