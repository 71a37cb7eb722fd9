// Fuzzes the record a peer publishes for the ucx transport (transport/ucx/wire): worker address
// and (segment, offset, base, length, rkey) regions. Properties: no crash or sanitizer report; an
// accepted record has segments in range, non-empty rkeys, lengths that do not wrap, and packs back
// to exactly the bytes it was parsed from.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gshmem/device_host/trigger.h"
#include "transport/ucx/wire.hpp"

using namespace gshmem::transport::ucx;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  PeRecord r;
  std::string why;
  if (!parse(data, size, &r, &why)) {
    if (why.empty()) abort();  // a refusal always says why
    return 0;
  }
  for (const RegionRecord& g : r.regions) {
    if (g.seg > GSHMEM_TRIG_SEG_DEVICE || g.rkey.empty() || g.len == 0) abort();
    if (g.off + g.len < g.off || g.base + g.len < g.base) abort();
  }
  const std::vector<uint8_t> again = pack(r);
  if (again.size() != size || memcmp(again.data(), data, size) != 0) abort();
  return 0;
}
