#include "oshrun_bind.hpp"

#include <sched.h>

#include <algorithm>
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

long read_long(const std::string& path, bool* ok) {
  FILE* f = fopen(path.c_str(), "r");
  long v = 0;
  *ok = f && fscanf(f, "%ld", &v) == 1;
  if (f) fclose(f);
  return v;
}

}  // namespace

std::vector<Cpu> allowed_cpus() {
  std::vector<Cpu> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/";
    bool ok_pkg = false, ok_core = false;
    const long pkg = read_long(dir + "physical_package_id", &ok_pkg);
    const long core = read_long(dir + "core_id", &ok_core);
    // Core ids repeat across packages; without them the CPU stands alone (a key no real core has).
    cpus.push_back({c, ok_pkg && ok_core ? pkg * 1000000 + core : -1 - c});
  }
  return cpus;
}

bool plan_binding(const BindRequest& r, int np, const std::vector<Cpu>& cpus, std::vector<std::vector<int>>* out,
                  std::string* why) {
  out->clear();
  std::vector<std::vector<int>> units;
  if (r.to == BindTo::hwthread) {
    for (const Cpu& c : cpus) units.push_back({c.id});
  } else {
    std::map<long, std::vector<int>> by_core;
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
    *why = std::to_string(np) + " PEs x " + std::to_string(r.per_pe) + " " + what + (r.per_pe == 1 ? "" : "s") +
           " need " + std::to_string(need) + " " + what + "s; oshrun may run on " + std::to_string(units.size()) +
           " (CPUs " + (ids.empty() ? std::string("unknown") : cpu_list(ids)) + ")";
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
    std::vector<std::string> a = {r.to == BindTo::core ? "--cpu-bind=cores" : "--cpu-bind=threads"};
    if (r.per_pe > 1) a.push_back("--cpus-per-task=" + k);
    return a;
  }
  // mpirun (Open MPI) and prterun: a PE of k cores is mapped with slot:PE=k and bound to them.
  if (r.to == BindTo::none) return {"--bind-to", "none"};
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
