// Which PEs share a node. A node is a (hostname, network namespace) pair: PEs in different
// network namespaces cannot reach each other's abstract Unix sockets, so they are treated as
// different nodes, which is also what the two-namespace multi-node tests rely on. A machine's PEs
// may also be split into emulated nodes (GSHMEM_EMULATE_NODES): consecutive machine-local ranks,
// which then reach each other only through the off-node transport, as on a cluster.
// Pure: each PE describes itself (self_record), the caller gathers every PE's record (the
// bootstrap's allgather) and build() computes the topology from them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"

namespace gshmem::topo {

struct Topology {
  int my_pe = 0;
  int npes = 1;
  int n_nodes = 1;
  int my_node = 0;
  int local_rank = 0;  // index of this PE among the PEs of its node
  int local_size = 1;
  int machine_rank = 0;  // index among the PEs of its machine (GPU binding); local_rank unless emulated
  int machine_size = 1;
  // The PEs on this host (in any network namespace) and how many CPUs their affinity masks cover
  // together (0: none published): whether each PE has a core of its own, however the launcher bound them.
  int my_host = 0;  // this PE's host, numbered alike on every PE
  int host_size = 1;
  int host_cpus = 0;
  std::vector<int> node_of;    // per PE
  std::vector<int> local_pes;  // PEs on this node, ascending
  std::vector<int> pid_of;     // per PE
  std::string node_name;
};

// What one PE publishes: its node identity, process id and CPU affinity (a fixed-size wire record).
struct NodeRecord {
  char id[192];
  int32_t pid;
  int32_t flags;      // the caller's, sent along with the record (topo reads none)
  uint64_t cpus[16];  // the PE's CPU affinity, CPUs 0..1023 (bit c of word c / 64)
};
static_assert(sizeof(NodeRecord) == 328, "NodeRecord is a wire format");

std::string node_identity();  // hostname + ":" + net namespace id
NodeRecord self_record();
// records[pe] for every PE of the job (records.size() PEs); split: emulated nodes per machine (1: none).
Status build(int my_pe, const std::vector<NodeRecord>& records, int split, Topology* out);

}  // namespace gshmem::topo
