#include "topo/topo.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>

#include "common/log.hpp"

namespace gshmem::topo {

namespace {
struct NodeRecord {
  char id[192];
  int32_t pid;
  int32_t pad;
};
}  // namespace

std::string node_identity() {
  char host[128] = {};
  gethostname(host, sizeof host - 1);
  struct stat st{};
  std::string id = host;
  if (stat("/proc/self/ns/net", &st) == 0) id += ":netns" + std::to_string(static_cast<unsigned long long>(st.st_ino));
  return id;
}

Status discover(boot::Bootstrap& b, Topology* t) {
  t->my_pe = b.rank();
  t->npes = b.size();
  std::vector<NodeRecord> rec(static_cast<size_t>(t->npes));
  NodeRecord& me = rec[static_cast<size_t>(t->my_pe)];
  t->node_name = node_identity();
  snprintf(me.id, sizeof me.id, "%s", t->node_name.c_str());
  me.pid = getpid();
  GSHMEM_CHECK(b.allgather(rec.data(), sizeof(NodeRecord)));
  std::map<std::string, int> nodes;  // in order of first appearance by PE
  t->node_of.assign(static_cast<size_t>(t->npes), 0);
  t->pid_of.assign(static_cast<size_t>(t->npes), 0);
  std::vector<std::string> order;
  for (int pe = 0; pe < t->npes; ++pe) {
    std::string id(rec[pe].id, strnlen(rec[pe].id, sizeof rec[pe].id));
    auto it = nodes.find(id);
    if (it == nodes.end()) it = nodes.emplace(id, static_cast<int>(nodes.size())).first;
    t->node_of[pe] = it->second;
    t->pid_of[pe] = rec[pe].pid;
  }
  t->n_nodes = static_cast<int>(nodes.size());
  t->my_node = t->node_of[t->my_pe];
  t->local_pes.clear();
  for (int pe = 0; pe < t->npes; ++pe)
    if (t->node_of[pe] == t->my_node) {
      if (pe == t->my_pe) t->local_rank = static_cast<int>(t->local_pes.size());
      t->local_pes.push_back(pe);
    }
  t->local_size = static_cast<int>(t->local_pes.size());
  GSHMEM_DEBUG(Subsys::topo, "node %d of %d (%s), local rank %d of %d", t->my_node, t->n_nodes, t->node_name.c_str(),
               t->local_rank, t->local_size);
  return Status::ok;
}

}  // namespace gshmem::topo
