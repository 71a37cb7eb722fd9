// Which PEs share a node. A node is a (hostname, network namespace) pair: PEs in different
// network namespaces cannot reach each other's abstract Unix sockets, so they are treated as
// different nodes, which is also what the two-namespace multi-node tests rely on.
#pragma once
#include <string>
#include <vector>

#include "bootstrap/bootstrap.hpp"

namespace gshmem::topo {

struct Topology {
  int my_pe = 0;
  int npes = 1;
  int n_nodes = 1;
  int my_node = 0;
  int local_rank = 0;          // index of this PE among the PEs of its node
  int local_size = 1;
  std::vector<int> node_of;    // per PE
  std::vector<int> local_pes;  // PEs on this node, ascending
  std::vector<int> pid_of;     // per PE
  std::string node_name;
};

std::string node_identity();  // hostname + ":" + net namespace id
Status discover(boot::Bootstrap& b, Topology* out);

}  // namespace gshmem::topo
