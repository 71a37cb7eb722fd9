// Version, build options and the environment table, printed by gshmem-info, by SHMEM_INFO and
// SHMEM_VERSION at init, and rendered as docs/env.md.
#pragma once
#include <cstdio>

#include "common/config.hpp"

namespace gshmem {

void print_version(FILE* out);
void print_build(FILE* out);
// Every transport of the table, probed on this machine: usable or why not, and what it can do.
void print_transports(FILE* out);
void print_env_table(FILE* out, const Config& cfg, bool markdown);

}  // namespace gshmem
