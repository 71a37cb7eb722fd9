// The ucx transport: PEs on other nodes through UCX's UCP API, the engine Open MPI's OSHMEM and
// NVSHMEM's remote transport use (InfiniBand/RoCE, shared memory, TCP, CUDA memory, as UCX_TLS
// selects). One UCP worker per PE, one endpoint per peer, every segment and extension mapped with
// ucp_mem_map (GPU memory with its memory type) and its rkey exchanged through the bootstrap
// (wire.hpp). UCX is loaded at run time (ucp_api.hpp).
//
// * put/get: ucp_put_nbx/ucp_get_nbx. put returns once the source may be reused; put_nbi/get_nbi
//   return at once (the sources and destinations stay untouched until the next quiet).
// * quiet: ucp_worker_flush_nbx (quiet(pe): ucp_ep_flush_nbx), then the owner-applied operations
//   (below) are acknowledged and fetched values delivered. fence: ucp_worker_fence, after the
//   owner-applied operations started so far are acknowledged.
// * Atomics and signals: by default (GSHMEM_UCX_ATOMICS=auto, which is owner) applied by the
//   owner: an active message to the owner's progress thread, which applies a CPU atomic on host
//   memory or the GPU's own atomic (mem::LocalMemory) on GPU memory and replies with the old
//   value, so the result is atomic with the owner's own atomics whatever UCX transport carries it
//   (UCX 1.22 has no atomics over TCP with peer error handling). =engine uses UCX's atomics
//   (ucp_atomic_op_nbx; fetch is an add of 0, set a swap) on every segment. A signal (set: swap,
//   add: add) follows the PE's earlier puts and gets: behind a worker fence for UCX's atomics,
//   behind a flush of the endpoint for owner-applied ones.
// * Progress: a thread per PE waits on the worker's event fd (ucp_worker_arm + poll), so a PE
//   whose peers are idle burns no core, and progresses the worker when UCX has work (software
//   emulated RMA and atomics over TCP need the target to progress). It also applies the
//   owner-side atomics.
// * A peer that dies or cannot be reached ends the job naming it (UCX's peer error handling).
// * Errors are values naming the transport, the PE, the operation and UCX's status.
#pragma once
#include <memory>
#include <vector>

#include "transport/table.hpp"
#include "transport/transport.hpp"

namespace gshmem::transport {

Probe ucx_probe(const Config& cfg, bool gpu);
Result ucx_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out);

}  // namespace gshmem::transport
