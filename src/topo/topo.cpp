#include "topo/topo.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>

#include "common/log.hpp"

namespace gshmem::topo {

std::string node_identity() {
  char host[128] = {};
  gethostname(host, sizeof host - 1);
  struct stat st{};
  std::string id = host;
  if (stat("/proc/self/ns/net", &st) == 0) id += ":netns" + std::to_string(static_cast<unsigned long long>(st.st_ino));
  return id;
}

NodeRecord self_record() {
  NodeRecord r{};
  snprintf(r.id, sizeof r.id, "%s", node_identity().c_str());
  r.pid = getpid();
  return r;
}

Status build(int my_pe, const std::vector<NodeRecord>& rec, Topology* t) {
  const int npes = static_cast<int>(rec.size());
  if (my_pe < 0 || my_pe >= npes) return Status::invalid_argument;
  t->my_pe = my_pe;
  t->npes = npes;
  t->node_name.assign(rec[static_cast<size_t>(my_pe)].id, strnlen(rec[static_cast<size_t>(my_pe)].id, sizeof rec[0].id));
  std::map<std::string, int> nodes;  // in order of first appearance by PE
  t->node_of.assign(static_cast<size_t>(npes), 0);
  t->pid_of.assign(static_cast<size_t>(npes), 0);
  for (int pe = 0; pe < npes; ++pe) {
    const NodeRecord& r = rec[static_cast<size_t>(pe)];
    std::string id(r.id, strnlen(r.id, sizeof r.id));
    auto it = nodes.find(id);
    if (it == nodes.end()) it = nodes.emplace(id, static_cast<int>(nodes.size())).first;
    t->node_of[static_cast<size_t>(pe)] = it->second;
    t->pid_of[static_cast<size_t>(pe)] = r.pid;
  }
  t->n_nodes = static_cast<int>(nodes.size());
  t->my_node = t->node_of[static_cast<size_t>(my_pe)];
  t->local_pes.clear();
  for (int pe = 0; pe < npes; ++pe)
    if (t->node_of[static_cast<size_t>(pe)] == t->my_node) {
      if (pe == my_pe) t->local_rank = static_cast<int>(t->local_pes.size());
      t->local_pes.push_back(pe);
    }
  t->local_size = static_cast<int>(t->local_pes.size());
  GSHMEM_DEBUG(Subsys::topo, "node %d of %d (%s), local rank %d of %d", t->my_node, t->n_nodes, t->node_name.c_str(),
               t->local_rank, t->local_size);
  return Status::ok;
}

}  // namespace gshmem::topo
