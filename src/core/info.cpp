#include "core/info.hpp"

#include <string>

#include "gshmem/build_config.h"
#include "gshmem/version.h"

namespace gshmem {

void print_version(FILE* out) {
  fprintf(out, "gshmem %s (OpenSHMEM %d.%d)\n", GSHMEM_VERSION_STRING, 1, 5);
}

void print_build(FILE* out) {
  fprintf(out, "build:\n");
  fprintf(out, "  compiler      %s\n", GSHMEM_BUILD_COMPILER);
  fprintf(out, "  build type    %s\n", GSHMEM_BUILD_TYPE);
  fprintf(out, "  cuda          %s\n", GSHMEM_BUILD_CUDA ? "yes (" GSHMEM_BUILD_CUDA_VERSION ")" : "no");
  fprintf(out, "  pmix          %s\n", GSHMEM_BUILD_PMIX ? "yes (dlopen at run time)" : "no");
  fprintf(out, "  prefix        %s\n", GSHMEM_BUILD_PREFIX);
  fprintf(out, "heap kinds:\n  host          yes (memfd shared memory)\n");
  fprintf(out, "  device        %s\n", GSHMEM_BUILD_CUDA ? "yes (cuMem VMM, POSIX fd handles; driver via dlopen)" : "no (built without CUDA)");
  fprintf(out, "transports:\n  p2p           yes (same-node shared memory%s)\n", GSHMEM_BUILD_CUDA ? ", NVLink/PCIe peer mappings" : "");
  fprintf(out, "  tcp           yes (proxy thread per PE; PEs on other nodes, GSHMEM_FORCE_PROXY)\n");
  fprintf(out, "  proxy (GPU)   %s\n", GSHMEM_BUILD_CUDA ? "yes (trigger FIFO from kernels; copy engine, tcp)" : "no (built without CUDA)");
  fprintf(out, "  ib            %s\n",
          GSHMEM_BUILD_IBVERBS ? "yes (rdma-core verbs, libibverbs loaded at run time): RDMA put/get, signals and atomics "
                                 "for the GPU proxy's peers on other nodes; so far run only against a fake NIC"
                               : "no (built without rdma-core headers)");
  fprintf(out, "bootstraps:     uid (TCP unique id), pmix%s, mpi (when MPI is initialised), single\n",
          GSHMEM_BUILD_PMIX ? "" : " (not built)");
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
