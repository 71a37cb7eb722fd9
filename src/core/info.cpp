#include "core/info.hpp"

#include <string>

#include "gshmem/build_config.h"
#include "gshmem/version.h"
#include "transport/table.hpp"

namespace gshmem {

void print_version(FILE* out) { fprintf(out, "gshmem %s (OpenSHMEM %d.%d)\n", GSHMEM_VERSION_STRING, 1, 5); }

void print_build(FILE* out) {
  fprintf(out, "build:\n");
  fprintf(out, "  compiler      %s\n", GSHMEM_BUILD_COMPILER);
  fprintf(out, "  build type    %s\n", GSHMEM_BUILD_TYPE);
  fprintf(out, "  cuda          %s\n", GSHMEM_BUILD_CUDA ? "yes (" GSHMEM_BUILD_CUDA_VERSION ")" : "no");
  fprintf(out, "  pmix          %s\n", GSHMEM_BUILD_PMIX ? "yes (dlopen at run time)" : "no");
  fprintf(out, "  prefix        %s\n", GSHMEM_BUILD_PREFIX);
  fprintf(out, "heap kinds:\n  host          yes (memfd shared memory)\n");
  fprintf(out, "  device        %s\n",
          GSHMEM_BUILD_CUDA ? "yes (cuMem VMM, POSIX fd handles; driver via dlopen)" : "no (built without CUDA)");
  fprintf(out, "same node:      loads and stores (shared memory%s)\n",
          GSHMEM_BUILD_CUDA ? ", NVLink/PCIe peer mappings" : "");
  fprintf(out, "  proxy (GPU)   %s\n",
          GSHMEM_BUILD_CUDA ? "yes (trigger FIFO from kernels, served by the transports below)"
                            : "no (built without CUDA)");
  print_transports(out);
  fprintf(out, "bootstraps:     uid (TCP unique id), pmix%s, mpi (when MPI is initialised), single\n",
          GSHMEM_BUILD_PMIX ? "" : " (not built)");
}

void print_transports(FILE* out) {
  const Config* cfg = nullptr;
  if (config_load(&cfg) != Status::ok) return;
  fprintf(out, "transports (transport/table.hpp; probed here for CPU PEs%s):\n",
          GSHMEM_BUILD_CUDA ? " and GPU PEs" : "");
  for (const transport::Entry& e : transport::table()) {
    fprintf(out, "  %-13s %s\n", e.name, e.summary);
    for (int gpu = 0; gpu <= (GSHMEM_BUILD_CUDA ? 1 : 0); ++gpu) {
      const transport::Probe p = e.probe(*cfg, gpu != 0);
      const char* who = gpu ? "GPU PEs" : "CPU PEs";
      if (p.state != transport::Probe::State::usable) {
        fprintf(out, "      %s: %s: %s\n", who, p.state == transport::Probe::State::absent ? "not available" : "broken",
                p.why.c_str());
        continue;
      }
      const transport::Caps& c = p.caps;
      fprintf(out, "      %s: usable; reaches %s; GPU memory %s; atomics on GPU memory %s; completion %s\n", who,
              c.same_node_only ? "mapped same-node peers" : "any node", c.device_memory ? "yes" : "no",
              c.device_atomics ? "by the engine" : "by their owner", c.marks ? "asynchronous (marks)" : "at quiet");
    }
  }
}

void print_env_table(FILE* out, const Config& cfg, bool markdown) {
  int n = 0;
  const CfgRow* rows = config_rows(&n);
  auto type_text = [](const CfgRow& r) {
    const std::string allowed = cfg_allowed_text(r);
    if (r.type == CfgType::Enum) return "one of " + allowed;
    return std::string(cfg_type_name(r.type)) + (allowed.empty() ? "" : ", " + allowed);
  };
  if (markdown) {
    fprintf(out, "| variable | type and allowed values | default | description |\n|---|---|---|---|\n");
    for (int i = 0; i < n; ++i)
      fprintf(out, "| `%s` | %s | `%s` | %s |\n", rows[i].name, type_text(rows[i]).c_str(),
              rows[i].def[0] ? rows[i].def : "\"\"", rows[i].help);
    return;
  }
  fprintf(out, "environment (value [set: from the environment]; type and allowed values; default; description):\n");
  for (int i = 0; i < n; ++i) {
    std::string v = config_value_string(cfg, i);
    fprintf(out, "  %-26s = %s%s\n      %s; default %s; %s\n", rows[i].name, v.empty() ? "\"\"" : v.c_str(),
            config_was_set(cfg, i) ? " [set]" : "", type_text(rows[i]).c_str(), rows[i].def[0] ? rows[i].def : "\"\"",
            rows[i].help);
  }
}

}  // namespace gshmem
