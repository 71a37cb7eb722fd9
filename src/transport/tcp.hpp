// The tcp transport: RMA, atomics and signals to PEs this PE cannot map (other nodes, or every
// peer with GSHMEM_FORCE_PROXY). Each PE runs one proxy thread that serves requests from the other
// PEs against its own memory, so remote atomics are applied by the owner and stay atomic with its
// local atomics. Requests travel on one TCP connection per (initiator, target) pair and are
// applied in order: puts to one PE are ordered (fence is free), a signal sent after its data is
// applied after it, and quiet is a flush that waits for an acknowledgement behind every earlier
// request. A closed connection ends the job with a message naming the PE. GPU memory on either
// side is staged through host buffers (LocalMemory).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "transport/transport.hpp"

namespace gshmem::transport {

class Tcp {
 public:
  // Collective: every PE listens, exchanges addresses, connects to every PE in `remote`.
  // bases[s] is this PE's local base of segment s (requests are offsets into it).
  static Status create(boot::Bootstrap& b, const std::vector<int>& remote, const std::vector<char*>& bases,
                       const std::vector<size_t>& sizes, const std::string& ifname, std::unique_ptr<Tcp>* out);
  ~Tcp();
  // GPU PEs: GPU memory behind `mem` (set before any request can arrive); the device segment's
  // size follows heap growth.
  void set_local_memory(LocalMemory* mem);
  void set_segment(Seg seg, char* base, size_t size);
  // Stores n bytes at dst in this process (host or GPU memory).
  void store_local(void* dst, const void* src, size_t n);
  void put(int pe, Seg seg, uint64_t off, const void* src, size_t n);  // returns when src is reusable
  void get(int pe, Seg seg, uint64_t off, void* dst, size_t n);
  // size 4 or 8; returns the old value.
  uint64_t amo(int pe, Seg seg, uint64_t off, AmoOp op, size_t size, uint64_t a, uint64_t b);
  void quiet();             // every earlier put to every PE is applied
  void quiet(int pe);
  void shutdown();          // collective part of finalize: stop after all PEs are done
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace gshmem::transport
