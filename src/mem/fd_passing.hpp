// Passing file descriptors (memfd segments and cuMem POSIX-fd handles: heap/heap.cpp) between
// the PEs of one node: abstract Unix sockets named after the job secret, SCM_RIGHTS, and a check
// that the peer presents the job secret and runs as the same user. No ptrace capability needed.
#pragma once
#include <cstdint>
#include <vector>

#include "bootstrap/bootstrap.hpp"

namespace gshmem::mem {

// my_fds: what this PE offers (the same count on every PE). On return, (*peer_fds)[i] holds the
// descriptors of local_pes[i] (for this PE itself: dup()s of my_fds). Collective over the job.
Status exchange_fds(boot::Bootstrap& b, const std::vector<int>& local_pes, const uint8_t job_secret[16],
                    const std::vector<int>& my_fds, std::vector<std::vector<int>>* peer_fds);

}  // namespace gshmem::mem
