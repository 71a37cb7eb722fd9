// Unique id of a TCP bootstrap root: where rank 0 listens and the per-job secret every peer must
// present. Text form (env var, command line): "gshmem1:<ipv4>:<port>:<32 hex digits>".
#pragma once
#include <cstdint>
#include <string>

#include "common/status.hpp"

namespace gshmem::boot {

struct UniqueId {
  uint32_t ip_be = 0;  // IPv4, network byte order
  uint16_t port = 0;   // host byte order
  uint8_t secret[16] = {};
};

std::string uid_to_string(const UniqueId& id);
Status uid_parse(const char* text, UniqueId* out);
// Creates the root's listening socket (all interfaces, kernel-chosen port, or loopback only when
// loopback_only) and a fresh random secret. advertise_ifname picks the advertised address.
Status uid_create_listener(bool loopback_only, const std::string& advertise_ifname, UniqueId* id, int* listen_fd);
// Listens on exactly the id's address and port (rank 0 of a job whose id was chosen outside,
// e.g. by a script that starts PEs on several hosts).
Status uid_listen_at(const UniqueId& id, int* listen_fd);
// Constant-time comparison of secrets.
bool secret_equal(const uint8_t a[16], const uint8_t b[16]) noexcept;
Status random_bytes(void* buf, size_t n);

}  // namespace gshmem::boot
