/* OpenSHMEM 1.6 specification, example shmem_scan_example: the function
 * collect_at as printed; the main after it is this suite's driver, not part of the example. */
#include <shmem.h>

int collect_at(shmem_team_t team, void *dest, const void *source, size_t nbytes, int who) {
  static size_t sym_nbytes;
  sym_nbytes = nbytes;
  shmem_team_sync(team);
  int rc = shmem_sum_exscan(team, &sym_nbytes, &sym_nbytes, 1);
  shmem_putmem((void *)((uintptr_t)dest + sym_nbytes), source, nbytes, who);
  shmem_quiet();
  shmem_team_sync(team);
  return rc;
}

/* ---- driver (not in the specification) ---- */
#include <stdio.h>
#include <string.h>

int main(void) {
  static char dest[64 * 65 / 2 + 1]; /* symmetric: PE p contributes p + 1 bytes */
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes > 64) shmem_global_exit(2);
  char mine[64];
  memset(mine, 'A' + me % 26, sizeof mine);
  int rc = collect_at(SHMEM_TEAM_WORLD, dest, mine, (size_t)me + 1, 0);
  if (me == 0) printf("rc=%d collected: %s\n", rc, dest);
  shmem_finalize();
  return 0;
}
