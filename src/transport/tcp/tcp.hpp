// The tcp transport: gshmem's own sockets, the fallback for machines without UCX (docs/transport.md
// says why it stays). RMA, atomics and signals to PEs this PE cannot map (other nodes, or every
// peer with GSHMEM_FORCE_PROXY). Each PE runs one server thread that serves requests from the other
// PEs against its own memory, so remote atomics are applied by the owner and stay atomic with its
// local atomics. Requests travel on one TCP connection per (initiator, target) pair and are
// applied in order: puts to one PE are ordered (fence is free), a signal sent after its data is
// applied after it, and quiet is a flush that waits for an acknowledgement behind every earlier
// request. put, get and amo complete at return (put: the data is sent); the _nbi forms are the
// same. A closed connection is a dead PE: the calls return peer_failed, and the server thread
// ends the job naming the PE. GPU memory on either side is staged through host buffers
// (mem::LocalMemory).
// Errors come back as values; only the server thread, which has no caller, ends the job.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "mem/local_memory.hpp"
#include "transport/table.hpp"
#include "transport/transport.hpp"

namespace gshmem::transport {

Probe tcp_probe(const Config& cfg, bool gpu);
Result tcp_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out);

class Tcp final : public Transport {
 public:
  // Collective: every PE listens, exchanges addresses, connects to every PE in `remote`.
  // segs: this PE's segments (requests address offsets into them); mem: how to touch GPU memory
  // (null on CPU PEs); it must outlive the transport.
  static Result create(boot::Bootstrap& b, const std::vector<int>& remote, const std::vector<Segment>& segs,
                       const std::string& ifname, mem::LocalMemory* mem, std::unique_ptr<Tcp>* out);
  ~Tcp() override;
  const char* name() const override { return "tcp"; }
  Caps caps() const override;
  bool reaches(int pe) const override;

  Result put(int pe, Seg seg, uint64_t off, const void* src, size_t n) override;
  Result get(int pe, Seg seg, uint64_t off, void* dst, size_t n) override;
  Result signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) override;
  Result amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
             uint64_t* old) override;
  Result amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                 uint64_t* old) override;
  Result fence() override { return {}; }  // one connection per PE, applied in order
  Result quiet() override;
  Result quiet(int pe) override;
  Result extend(Seg seg, uint64_t off, void* base, size_t len) override;  // the device segment grows
  Result finalize() override;                                             // stop after all PEs are done
  struct Impl;

 private:
  void shutdown();
  std::unique_ptr<Impl> impl_;
};

}  // namespace gshmem::transport
