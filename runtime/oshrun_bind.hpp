// CPU binding of the PEs oshrun starts itself (--bind-to, --cpus-per-pe), and the same request in
// the options of mpirun, prterun or srun when oshrun hands the job on (docs/launching.md).
#pragma once
#include <string>
#include <vector>

namespace gshmem::oshrun {

enum class BindTo { unset, none, core, hwthread };

struct BindRequest {
  BindTo to = BindTo::unset;
  int per_pe = 1;  // cores (core) or hardware threads (hwthread) per PE
};

// "none", "core" or "hwthread"; false for anything else.
bool parse_bind_to(const std::string& s, BindTo* out);

// A CPU this process may run on and the core it belongs to: CPUs with the same core key are
// hardware threads of one core.
struct Cpu {
  int id;
  std::string core;
};

// The CPUs of this process's affinity mask (any number of them), each with its core: the
// kernel's list of the hardware threads of its core (sysfs core_cpus_list, or
// thread_siblings_list on kernels before 5.7); a CPU whose topology cannot be read counts as a
// core of its own. Empty when the mask cannot be read.
std::vector<Cpu> allowed_cpus();

// Binds the calling thread to `cpus`; false with errno set when the kernel refuses.
bool bind_to(const std::vector<int>& cpus);

// The CPUs of each PE (out[pe]). The units are the cores among `cpus` (each with all of its
// hardware threads in `cpus`) or the single CPUs (hwthread), ordered by their lowest CPU number;
// PE i gets units [i * per_pe, (i + 1) * per_pe). False, with *why saying what is short, when
// there are fewer than np * per_pe units.
bool plan_binding(const BindRequest& r, int np, const std::vector<Cpu>& cpus, std::vector<std::vector<int>>* out,
                  std::string* why);

// The launcher's options asking for r (none for BindTo::unset).
std::vector<std::string> launcher_bind_args(const std::string& launcher, const BindRequest& r);

// "0-3,8" for {0, 1, 2, 3, 8} (sorted, no duplicates).
std::string cpu_list(const std::vector<int>& cpus);

}  // namespace gshmem::oshrun
