#include "oshrun_bind.hpp"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <map>

namespace gshmem::oshrun {

bool parse_bind_to(const std::string& s, BindTo* out) {
  if (s == "none") *out = BindTo::none;
  else if (s == "core") *out = BindTo::core;
  else if (s == "hwthread") *out = BindTo::hwthread;
  else return false;
  return true;
}

namespace {

std::string read_line(const std::string& path) {
  std::string out;
  if (FILE* f = fopen(path.c_str(), "r")) {
    char buf[4096];
    if (fgets(buf, sizeof buf, f)) out = buf;
    fclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// A cpu_set_t sized for n CPUs (the fixed cpu_set_t holds 1024, fewer than some machines have).
struct CpuSet {
  explicit CpuSet(size_t n) : n(n), set(CPU_ALLOC(n)), bytes(CPU_ALLOC_SIZE(n)) {
    if (set) CPU_ZERO_S(bytes, set);
  }
  ~CpuSet() {
    if (set) CPU_FREE(set);
  }
  CpuSet(const CpuSet&) = delete;
  CpuSet& operator=(const CpuSet&) = delete;
  size_t n;
  cpu_set_t* set;
  size_t bytes;
};

}  // namespace

std::vector<Cpu> allowed_cpus() {
  std::vector<Cpu> cpus;
  for (size_t n = CPU_SETSIZE; n <= (size_t{1} << 22); n *= 2) {
    CpuSet s(n);
    if (!s.set) return cpus;
    if (sched_getaffinity(0, s.bytes, s.set) != 0) {
      if (errno == EINVAL) continue;  // the kernel's mask is larger: try a larger set
      return cpus;
    }
    for (size_t c = 0; c < n; ++c) {
      if (!CPU_ISSET_S(c, s.bytes, s.set)) continue;
      const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/";
      std::string core = read_line(dir + "core_cpus_list");
      if (core.empty()) core = read_line(dir + "thread_siblings_list");
      // Without it the CPU stands alone (a key no sibling list looks like).
      cpus.push_back({static_cast<int>(c), core.empty() ? "cpu" + std::to_string(c) : core});
    }
    return cpus;
  }
  return cpus;
}

bool bind_to(const std::vector<int>& cpus) {
  int top = 0;
  for (int c : cpus) top = std::max(top, c);
  CpuSet s(static_cast<size_t>(top) + 1);
  if (!s.set) return false;
  for (int c : cpus) CPU_SET_S(static_cast<size_t>(c), s.bytes, s.set);
  return sched_setaffinity(0, s.bytes, s.set) == 0;
}

bool plan_binding(const BindRequest& r, int np, const std::vector<Cpu>& cpus, std::vector<std::vector<int>>* out,
                  std::string* why) {
  out->clear();
  std::vector<std::vector<int>> units;
  if (r.to == BindTo::hwthread) {
    for (const Cpu& c : cpus) units.push_back({c.id});
  } else {
    std::map<std::string, std::vector<int>> by_core;
    for (const Cpu& c : cpus) by_core[c.core].push_back(c.id);
    for (auto& [key, ids] : by_core) units.push_back(ids);
  }
  for (auto& u : units) std::sort(u.begin(), u.end());
  std::sort(units.begin(), units.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  const char* what = r.to == BindTo::hwthread ? "hardware thread" : "core";
  const long need = static_cast<long>(np) * r.per_pe;
  if (need > static_cast<long>(units.size())) {
    std::vector<int> ids;
    for (const Cpu& c : cpus) ids.push_back(c.id);
    *why = std::to_string(np) + (np == 1 ? " PE x " : " PEs x ") + std::to_string(r.per_pe) + " " + what +
           (r.per_pe == 1 ? "" : "s") + " need " + std::to_string(need) + " " + what + "s; oshrun may run on " +
           std::to_string(units.size()) + " (CPUs " + (ids.empty() ? std::string("unknown") : cpu_list(ids)) + ")";
    return false;
  }
  out->resize(static_cast<size_t>(np));
  for (int pe = 0; pe < np; ++pe) {
    for (int k = 0; k < r.per_pe; ++k) {
      const auto& u = units[static_cast<size_t>(pe) * r.per_pe + k];
      (*out)[pe].insert((*out)[pe].end(), u.begin(), u.end());
    }
    std::sort((*out)[pe].begin(), (*out)[pe].end());
  }
  return true;
}

std::vector<std::string> launcher_bind_args(const std::string& launcher, const BindRequest& r) {
  if (r.to == BindTo::unset) return {};
  const std::string k = std::to_string(r.per_pe);
  if (launcher == "srun") {
    if (r.to == BindTo::none) return {"--cpu-bind=none"};
    if (r.to == BindTo::hwthread) return {"--cpu-bind=threads", "--cpus-per-task=" + k};
    // Slurm counts hardware threads as CPUs: one per core makes K CPUs K cores.
    return {"--cpu-bind=cores", "--threads-per-core=1", "--cpus-per-task=" + k};
  }
  if (r.to == BindTo::none) return {"--bind-to", "none"};
  if (launcher == "prterun") {  // PRRTE: hardware threads as CPUs is a mapping qualifier
    std::string map = "slot";
    if (r.per_pe > 1) map += ":PE=" + k;
    if (r.to == BindTo::hwthread) map += ":HWTCPUS";
    return {"--map-by", map, "--bind-to", r.to == BindTo::core ? "core" : "hwthread"};
  }
  // Open MPI's mpirun: a PE of K cores is mapped with slot:PE=K and bound to them.
  std::vector<std::string> a;
  if (r.to == BindTo::hwthread) a.push_back("--use-hwthread-cpus");
  if (r.per_pe > 1) a.insert(a.end(), {"--map-by", "slot:PE=" + k});
  a.insert(a.end(), {"--bind-to", r.to == BindTo::core ? "core" : "hwthread"});
  return a;
}

std::string cpu_list(const std::vector<int>& cpus) {
  std::vector<int> s = cpus;
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t j = i;
    while (j + 1 < s.size() && s[j + 1] == s[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(s[i]);
    if (j > i) out += '-' + std::to_string(s[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace gshmem::oshrun
