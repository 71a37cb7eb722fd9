// The ib data path: one reliable-connected queue pair per remote PE, every symmetric segment
// registered once (GPU memory through dma-buf, falling back to plain registration, which works
// with a peer-memory kernel module), RDMA write/read for put/get, 64-bit NIC atomics.
//
// Contract (transport/transport.hpp): put_nbi/get_nbi/amo_nbi/signal only post work requests;
//   quiet() polls until everything posted has completed and only then delivers get data that went
//   through the staging buffer and the old values of fetching atomics. A source that is not
//   registered is staged at the call. The blocking forms wait for their own work requests
//   (put: the NIC has read the source; get, amo: the data or old value has arrived).
// * A signal is performed after every earlier put to the same PE: it is posted behind an 8-byte
//   RDMA read of the target (which completes only after the earlier writes on that queue pair have
//   been placed in memory) with IBV_SEND_FENCE (which holds the signal until that read is done).
// * Atomics: 8-byte fetch-add and compare-swap are the NIC's; every other operation, and every
//   4-byte one (on the aligned 8-byte word around it), is a compare-swap loop that waits for each
//   step. NIC atomics are atomic with other NIC atomics on the word; with the owner's own CPU or
//   GPU atomics only where the HCA reports global atomicity (IBV_ATOMIC_GLOB; docs/transport.md).
// * Errors (a bad range, a registration or a completion that failed) come back as a Status with
//   error() naming the PE, the operation and the values; the caller ends the job.
// Nothing here has run on InfiniBand hardware yet: the unit tests drive it through a fake NIC.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "mem/local_memory.hpp"
#include "transport/ib.hpp"
#include "transport/transport.hpp"

#if GSHMEM_HAVE_IBVERBS
namespace gshmem::transport::ib {

struct SegmentSpec {
  Seg seg;
  void* base;
  size_t len;
  int dmabuf_fd = -1;  // GPU memory: a dma-buf of exactly [base, base + len), offset 0
};

struct Options {
  std::string hca;          // "" (first active port), "mlx5_0" or "mlx5_0:2"
  int gid_index = 0;        // RoCE: the source GID's index
  std::string verbs_error;  // why the verbs table could not be loaded (this PE then fails, collectively)
};

class IbTransport final : public transport::Transport {
 public:
  static constexpr uint32_t kQueueDepth = 128;     // work requests in flight per queue pair
  static constexpr size_t kStagingBytes = 1 << 20;  // registered staging for unregistered buffers
  static constexpr uint32_t kResultSlots = 1024;   // fetched atomic values awaiting quiet

  // Collective over boot: every PE calls it (also one with no peers). peers: the PEs this PE
  // reaches through ib; segs: what this PE registers (peers address it by Seg and offset).
  // The set-up every PE runs (collectively) once any PE wants ib peers: loads rdma-core
  // (libibverbs.so.1) and creates the transport; not_available with why when InfiniBand cannot be
  // used here or on some other PE.
  static Status start(boot::Bootstrap& boot, const std::vector<int>& peers, const std::vector<SegmentSpec>& segs,
                      Options opt, mem::LocalMemory* mem, std::unique_ptr<IbTransport>* out, std::string* why);
  // create with an explicit verbs table (the unit tests' fake NIC).
  // mem: how to touch GPU memory for staging (null on CPU PEs); it must outlive the transport.
  static Status create(const Verbs& v, boot::Bootstrap& boot, const std::vector<int>& peers,
                       const std::vector<SegmentSpec>& segs, const Options& opt, mem::LocalMemory* mem,
                       std::unique_ptr<IbTransport>* out, std::string* why);
  ~IbTransport() override;
  IbTransport(const IbTransport&) = delete;
  IbTransport& operator=(const IbTransport&) = delete;
  const char* name() const override { return "ib"; }
  // A user buffer as the local side of RDMA without staging (shmemx_buffer_register): a memory
  // region of [base, base + len), through dmabuf_fd (GPU memory, >= 0) or ibv_reg_mr. The caller
  // keeps operations on it from running across unregister_local (it quiets first).
  // *token names the registration for unregister_local (two buffers may share a page).
  Status register_local(void* base, size_t len, int dmabuf_fd, uint32_t* token, std::string* why);
  void unregister_local(uint32_t token);
  // Collective over boot (every PE that has this transport, also one without ib peers): segment
  // seg got [base, base + len) at offset off (the device heap grew, or a buffer joined it; the
  // same off and len on every PE). Registers it (through dmabuf_fd when >= 0) and learns every
  // peer's registration of its part, so RMA to offsets in it reaches the peers. An error (this or
  // another PE could not register) names the PE.
  Status add_extent(boot::Bootstrap& boot, Seg seg, uint64_t off, void* base, size_t len, int dmabuf_fd,
                    std::string* why);
  // Every PE, after no PE targets it any more: forgets the extensions of seg inside [off, off +
  // len) for every peer and deregisters this PE's.
  void drop_extents(Seg seg, uint64_t off, uint64_t len);

  Status put(int pe, Seg seg, uint64_t off, const void* src, size_t n) override;
  Status put_nbi(int pe, Seg seg, uint64_t off, const void* src, size_t n) override;
  Status get(int pe, Seg seg, uint64_t off, void* dst, size_t n) override;
  Status get_nbi(int pe, Seg seg, uint64_t off, void* dst, size_t n) override;
  Status signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) override;
  Status amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
             uint64_t* old) override;
  // *old (if old) receives the previous value at quiet (at return for emulated operations).
  Status amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                 uint64_t* old) override;
  // RDMA writes on one queue pair may be placed out of order, so a fence waits for everything
  // started (a signal, by contrast, orders itself behind a read).
  Status fence() override { return quiet(); }
  Status quiet() override;
  const std::string& device_name() const { return dev_.name; }
  bool global_atomics() const { return global_atomics_; }

 private:
  IbTransport() = default;
  // The phases of create: this PE's resources (device, protection domain, completion queue,
  // registrations, staging) and its queue pairs, filling the record it publishes; then, after the
  // exchange, connecting each queue pair to its peer's.
  Status setup_local(const Verbs& v, const std::vector<int>& peers, const std::vector<SegmentSpec>& segs,
                     const Options& opt, char* record, std::vector<uint32_t>* psn, std::string* why);
  Status connect(const std::vector<int>& peers, const std::vector<char>& records, size_t rec_bytes,
                 const std::vector<uint32_t>& psn, int gid_index, std::string* why);
  struct Delivery {
    void* dst;
    const void* from;
    size_t n;
  };
  struct Fetched {
    uint64_t* old;
    uint32_t slot;
  };
  Status remote(int pe, Seg seg, uint64_t off, size_t n, const char* what, uint64_t* raddr, uint32_t* rkey);
  // [base, base + len) as a memory region (dma-buf first when fd >= 0); null + *why when it fails.
  ibv_mr* reg_region(void* base, size_t len, int dmabuf_fd, std::string* why);
  Status transfer_part(bool write, int pe, uint64_t raddr, uint32_t rkey, char* local, size_t n);
  Status post(int pe, ibv_send_wr* wr, const char* what);
  Status post_rdma(int pe, bool write, const void* local, size_t n, uint32_t lkey, uint64_t raddr, uint32_t rkey,
                   unsigned flags, const char* what);
  Status post_atomic(int pe, bool cswap, uint64_t raddr, uint32_t rkey, uint32_t slot, uint64_t x, uint64_t y,
                     unsigned flags, const char* what);
  Status transfer(bool write, int pe, Seg seg, uint64_t off, char* local, size_t n);
  Status poll_some();
  Status drain(int pe);
  char* stage(size_t n, Status* st);  // staging bytes (quiet first when full)
  uint32_t result_slot(Status* st);
  Status atomic_step(int pe, uint64_t raddr, uint32_t rkey, bool cswap, uint64_t x, uint64_t y, uint64_t* seen);
  Status emulate(int pe, uint64_t raddr, uint32_t rkey, gshmem_amo_op op, size_t bytes, unsigned shift, uint64_t a,
                 uint64_t b, uint64_t* old);

  Verbs v_;
  Device dev_;
  ibv_pd* pd_ = nullptr;
  ibv_cq* cq_ = nullptr;
  std::vector<ibv_qp*> qps_;         // [pe], null: not an ib peer
  std::vector<uint32_t> inflight_;   // [pe]
  uint64_t inflight_total_ = 0;
  std::vector<ibv_mr*> mrs_;         // segments, staging, results
  std::mutex user_mu_;
  std::vector<ibv_mr*> user_mrs_;    // registered user buffers
  struct Extent {
    Seg seg;
    uint64_t off, len;
    ibv_mr* mr;
  };
  std::vector<Extent> extents_;      // segment extensions registered after set-up (under user_mu_)
  Registry reg_;
  char* staging_ = nullptr;
  ibv_mr* staging_mr_ = nullptr;
  size_t staged_ = 0;
  uint64_t* results_ = nullptr;      // [kResultSlots]; slot 0 is scratch for non-fetching atomics
  ibv_mr* results_mr_ = nullptr;
  uint32_t next_slot_ = 1;
  std::vector<Delivery> deliveries_;
  std::vector<Fetched> fetched_;
  mem::LocalMemory* mem_ = nullptr;
  bool nic_atomics_ = true;      // ibv_device_attr::atomic_cap != IBV_ATOMIC_NONE
  bool global_atomics_ = false;  // IBV_ATOMIC_GLOB: atomic with the owner's own atomics too
  int me_ = 0;
};

}  // namespace gshmem::transport::ib
#endif
