#include "topo/topo.hpp"

#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <map>

#include "common/log.hpp"

namespace gshmem::topo {

std::string node_identity() {
  char host[128] = {};
  gethostname(host, sizeof host - 1);
  struct stat st {};
  std::string id = host;
  if (stat("/proc/self/ns/net", &st) == 0) id += ":netns" + std::to_string(static_cast<unsigned long long>(st.st_ino));
  return id;
}

NodeRecord self_record() {
  NodeRecord r{};
  snprintf(r.id, sizeof r.id, "%s", node_identity().c_str());
  r.pid = getpid();
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < 1024 && c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) r.cpus[c / 64] |= uint64_t{1} << (c % 64);
  return r;
}

namespace {
// Groups PEs by key (in order of first appearance by PE): out[pe] is pe's group.
std::vector<int> group(const std::vector<std::string>& key, int* n) {
  std::map<std::string, int> ids;
  std::vector<int> out(key.size());
  for (size_t pe = 0; pe < key.size(); ++pe) out[pe] = ids.emplace(key[pe], static_cast<int>(ids.size())).first->second;
  *n = static_cast<int>(ids.size());
  return out;
}
}  // namespace

Status build(int my_pe, const std::vector<NodeRecord>& rec, int split, Topology* t) {
  const int npes = static_cast<int>(rec.size());
  if (my_pe < 0 || my_pe >= npes || split < 1) return Status::invalid_argument;
  t->my_pe = my_pe;
  t->npes = npes;
  std::vector<std::string> key(static_cast<size_t>(npes));
  t->pid_of.assign(static_cast<size_t>(npes), 0);
  for (int pe = 0; pe < npes; ++pe) {
    const NodeRecord& r = rec[static_cast<size_t>(pe)];
    key[static_cast<size_t>(pe)].assign(r.id, strnlen(r.id, sizeof r.id));
    t->pid_of[static_cast<size_t>(pe)] = r.pid;
  }
  int machines = 0;
  const std::vector<int> machine = group(key, &machines);
  std::vector<int> rank(static_cast<size_t>(npes)), size(static_cast<size_t>(machines), 0);
  for (int pe = 0; pe < npes; ++pe)
    rank[static_cast<size_t>(pe)] = size[static_cast<size_t>(machine[static_cast<size_t>(pe)])]++;
  t->machine_rank = rank[static_cast<size_t>(my_pe)];
  t->machine_size = size[static_cast<size_t>(machine[static_cast<size_t>(my_pe)])];
  // The host: the identity without its network namespace (namespaces share the CPUs and GPUs).
  std::vector<std::string> host_key(static_cast<size_t>(npes));
  for (int pe = 0; pe < npes; ++pe) {
    const std::string& id = key[static_cast<size_t>(pe)];
    host_key[static_cast<size_t>(pe)] = id.substr(0, id.rfind(":netns"));
  }
  int hosts = 0;
  const std::vector<int> host = group(host_key, &hosts);
  t->my_host = host[static_cast<size_t>(my_pe)];
  uint64_t cpus[16] = {};
  t->host_size = 0;
  for (int pe = 0; pe < npes; ++pe)
    if (host[static_cast<size_t>(pe)] == t->my_host) {
      ++t->host_size;
      for (int w = 0; w < 16; ++w) cpus[w] |= rec[static_cast<size_t>(pe)].cpus[w];
    }
  t->host_cpus = 0;
  for (uint64_t w : cpus) t->host_cpus += std::popcount(w);
  if (split > 1)
    for (int pe = 0; pe < npes; ++pe) {
      const int m = size[static_cast<size_t>(machine[static_cast<size_t>(pe)])];
      key[static_cast<size_t>(pe)] += "#emulated" + std::to_string(rank[static_cast<size_t>(pe)] * split / m);
    }
  t->node_of = group(key, &t->n_nodes);
  t->node_name = key[static_cast<size_t>(my_pe)];
  t->my_node = t->node_of[static_cast<size_t>(my_pe)];
  t->local_pes.clear();
  for (int pe = 0; pe < npes; ++pe)
    if (t->node_of[static_cast<size_t>(pe)] == t->my_node) {
      if (pe == my_pe) t->local_rank = static_cast<int>(t->local_pes.size());
      t->local_pes.push_back(pe);
    }
  t->local_size = static_cast<int>(t->local_pes.size());
  GSHMEM_DEBUG(Subsys::topo,
               "node %d of %d (%s), local rank %d of %d, machine rank %d of %d, %d PEs on %d CPUs of the host",
               t->my_node, t->n_nodes, t->node_name.c_str(), t->local_rank, t->local_size, t->machine_rank,
               t->machine_size, t->host_size, t->host_cpus);
  return Status::ok;
}

}  // namespace gshmem::topo
