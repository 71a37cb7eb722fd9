// gshmem-info: version, build options, transports and every environment variable (type,
// default, help, current value). `--env-markdown` prints the table that is docs/env.md.
#include <cstdio>
#include <cstring>

#include "common/config.hpp"
#include "core/info.hpp"

int main(int argc, char** argv) {
  const gshmem::Config* cfg = nullptr;
  const bool bad_env = gshmem::config_load(&cfg) != gshmem::Status::ok;
  if (argc > 1 && !strcmp(argv[1], "--env-markdown")) {
    gshmem::print_env_table(stdout, *cfg, /*markdown=*/true);
    return 0;
  }
  if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    printf("usage: gshmem-info [--env-markdown]\n");
    return 0;
  }
  if (argc > 1) {
    fprintf(stderr, "gshmem-info: unknown argument '%s'\n", argv[1]);
    return 2;
  }
  gshmem::print_version(stdout);
  gshmem::print_build(stdout);
  gshmem::print_env_table(stdout, *cfg, /*markdown=*/false);
  return bad_env ? 1 : 0;
}
