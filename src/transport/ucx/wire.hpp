// The record each PE publishes for the ucx transport through the bootstrap: its UCP worker address
// and, for each memory region peers may address, (segment, offset in the segment, base address,
// length, packed rkey). The same record with no address announces a segment's extension (the
// device heap grew). parse() checks every length against the bytes received and names what is
// wrong, so a corrupt or hostile record is refused, never read past (tests/fuzz).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gshmem::transport::ucx {

struct RegionRecord {
  uint8_t seg = 0;     // transport::Seg
  uint8_t device = 0;  // GPU memory
  uint64_t off = 0;    // where the region starts in its segment
  uint64_t base = 0;   // its address in the owner's process
  uint64_t len = 0;
  std::vector<uint8_t> rkey;  // ucp_rkey_pack's bytes
};

struct PeRecord {
  std::vector<uint8_t> address;  // ucp_worker_get_address's bytes (empty in an extension record)
  std::vector<RegionRecord> regions;
};

std::vector<uint8_t> pack(const PeRecord& r);
// false with *why when the bytes are not a well-formed record (kMaxSegment bounds seg).
bool parse(const uint8_t* p, size_t n, PeRecord* out, std::string* why);

}  // namespace gshmem::transport::ucx
