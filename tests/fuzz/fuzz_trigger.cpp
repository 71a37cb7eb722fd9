// Fuzzes the proxy's trigger path: raw 16-byte slots (as a faulty or hostile GPU producer could
// leave them) in a FIFO of 16 slots, drained by the executor into a transport that checks what it
// is asked and touches no memory. Properties: no crash or sanitizer report; every operation
// reaching the transport has a routed PE, a valid segment, an inline put of at most 16 bytes, a
// signal operation that exists, an atomic of 4 or 8 bytes with a known operation; everything else
// is rejected (counted) and never performed.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "proxy/executor.hpp"
#include "proxy/fifo.hpp"

using namespace gshmem;
using gshmem::transport::Caps;
using gshmem::transport::Result;
using gshmem::transport::Seg;

namespace {
constexpr int kPes = 4;

class Checker final : public transport::Transport {
 public:
  const char* name() const override { return "fuzz"; }
  Caps caps() const override { return {}; }
  bool reaches(int) const override { return true; }
  Result put(int pe, Seg s, uint64_t, const void* src, size_t n) override {
    check(pe, s);
    if (n > GSHMEM_TRIG_INLINE_MAX) abort();  // only inline puts come here: the data is the slot
    unsigned char copy[GSHMEM_TRIG_INLINE_MAX];
    memcpy(copy, src, n);
    return {};
  }
  Result put_nbi(int pe, Seg s, uint64_t, const void*, size_t) override { return check(pe, s); }
  Result get(int pe, Seg s, uint64_t, void*, size_t) override { return check(pe, s); }
  Result get_nbi(int pe, Seg s, uint64_t, void*, size_t) override { return check(pe, s); }
  Result signal(int pe, Seg s, uint64_t, uint64_t, int op) override {
    if (op != SHMEM_SIGNAL_SET && op != SHMEM_SIGNAL_ADD) abort();
    return check(pe, s);
  }
  Result amo(int pe, Seg s, uint64_t, gshmem_amo_op op, size_t bytes, uint64_t, uint64_t, uint64_t*) override {
    if ((bytes != 4 && bytes != 8) || static_cast<unsigned>(op) >= GSHMEM_AMO_NOPS) abort();
    return check(pe, s);
  }
  Result amo_nbi(int pe, Seg s, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                 uint64_t* old) override {
    return amo(pe, s, off, op, bytes, a, b, old);
  }
  Result fence() override { return {}; }
  Result quiet() override { return {}; }

 private:
  Result check(int pe, Seg s) {
    if (pe < 1 || pe >= kPes || pe == 2) abort();  // pe 0 and 2 are not routed through the proxy
    if (static_cast<int>(s) < 0 || static_cast<int>(s) >= transport::kSegments) abort();
    return {};
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr uint32_t kLog2 = 4;
  std::vector<proxy::Fifo::Slot> slots(1u << kLog2);
  const size_t n = size / sizeof(gshmem_trigger) < slots.size() ? size / sizeof(gshmem_trigger) : slots.size();
  for (size_t i = 0; i < slots.size(); ++i) {
    gshmem_trigger t{0, 0};
    if (i < n) memcpy(&t, data + i * sizeof t, sizeof t);
    slots[i].w0.store(t.w0, std::memory_order_relaxed);
    slots[i].w1 = t.w1;
  }
  std::atomic<uint64_t> tail{size % 16 ? size % 16 : 0}, completed{0};  // any starting point in the ring
  proxy::Fifo fifo(kLog2, slots.data(), &tail, &completed);
  Checker c;
  proxy::Executor exec(fifo, {nullptr, &c, nullptr, &c});
  exec.poll(64);
  return 0;
}
