#include "transport/ucx/wire.hpp"

#include <cstring>

#include "gshmem/device_host/trigger.h"

namespace gshmem::transport::ucx {
namespace {

constexpr uint32_t kMagic = 0x47535558;  // "GSUX"
constexpr uint16_t kVersion = 1;
constexpr uint32_t kMaxBlob = 1u << 20;  // an address or an rkey: far larger than UCX's
constexpr uint16_t kMaxRegions = 64;

struct Header {
  uint32_t magic;
  uint16_t version;
  uint16_t regions;
  uint32_t address_len;
  uint32_t pad;
};
struct Region {
  uint8_t seg;
  uint8_t device;
  uint16_t pad;
  uint32_t rkey_len;
  uint64_t off;
  uint64_t base;
  uint64_t len;
};
static_assert(sizeof(Header) == 16 && sizeof(Region) == 32, "wire format");

void put(std::vector<uint8_t>& out, const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}

}  // namespace

std::vector<uint8_t> pack(const PeRecord& r) {
  std::vector<uint8_t> out;
  const Header h{kMagic, kVersion, static_cast<uint16_t>(r.regions.size()), static_cast<uint32_t>(r.address.size()), 0};
  put(out, &h, sizeof h);
  put(out, r.address.data(), r.address.size());
  for (const RegionRecord& g : r.regions) {
    const Region w{g.seg, g.device, 0, static_cast<uint32_t>(g.rkey.size()), g.off, g.base, g.len};
    put(out, &w, sizeof w);
    put(out, g.rkey.data(), g.rkey.size());
  }
  return out;
}

bool parse(const uint8_t* p, size_t n, PeRecord* out, std::string* why) {
  size_t at = 0;
  auto take = [&](void* dst, size_t k) {
    if (k > n - at) return false;
    if (k) memcpy(dst, p + at, k);  // an empty vector's data() may be null
    at += k;
    return true;
  };
  Header h;
  if (!take(&h, sizeof h)) return *why = "record shorter than its header", false;
  if (h.magic != kMagic || h.version != kVersion) return *why = "not a gshmem ucx record of this version", false;
  if (h.pad) return *why = "reserved header bytes are not zero", false;
  if (h.address_len > kMaxBlob) return *why = "worker address of " + std::to_string(h.address_len) + " bytes", false;
  if (h.regions > kMaxRegions) return *why = std::to_string(h.regions) + " regions", false;
  out->address.resize(h.address_len);
  if (!take(out->address.data(), h.address_len)) return *why = "worker address cut short", false;
  out->regions.clear();
  for (uint16_t i = 0; i < h.regions; ++i) {
    Region w;
    if (!take(&w, sizeof w)) return *why = "region " + std::to_string(i) + " cut short", false;
    if (w.pad || w.device > 1) return *why = "region " + std::to_string(i) + ": reserved bytes are not zero", false;
    if (w.seg > GSHMEM_TRIG_SEG_DEVICE)
      return *why = "region " + std::to_string(i) + ": segment " + std::to_string(w.seg), false;
    if (w.rkey_len == 0 || w.rkey_len > kMaxBlob)
      return *why = "region " + std::to_string(i) + ": rkey of " + std::to_string(w.rkey_len) + " bytes", false;
    if (w.len == 0 || w.off + w.len < w.off || w.base + w.len < w.base)
      return *why = "region " + std::to_string(i) + ": length " + std::to_string(w.len) + " at offset " +
                    std::to_string(w.off) + " wraps",
             false;
    RegionRecord g;
    g.seg = w.seg;
    g.device = w.device;
    g.off = w.off;
    g.base = w.base;
    g.len = w.len;
    g.rkey.resize(w.rkey_len);
    if (!take(g.rkey.data(), w.rkey_len)) return *why = "region " + std::to_string(i) + ": rkey cut short", false;
    out->regions.push_back(std::move(g));
  }
  if (at != n) return *why = std::to_string(n - at) + " bytes after the last region", false;
  return true;
}

}  // namespace gshmem::transport::ucx
