/* What shmem_pe_quiet (OpenSHMEM 1.6) waits for, against shmem_quiet: PE 0 puts `bytes` (nbi) to
 * every other PE, then completes either the puts to one PE (pe_quiet on PE 1: same node in the
 * two-namespace layout) or all of them (quiet); the completion call alone is timed, and the
 * median over -n rounds printed (a barrier and a quiet between rounds, off the clock; the median
 * because an oversubscribed machine's scheduling noise lands in a few rounds). With PEs on two nodes the puts to the other node go through the network transport
 * while PE 1 is reached by stores: pe_quiet(1) need not wait for the network. Prints one line
 * per (size, completion call). Usage: pe_quiet_cost [-n rounds] [-e max_bytes]. */
#include "cpu_cost_common.h" /* first: sets _POSIX_C_SOURCE */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  int rounds = 50;
  size_t max = 1u << 20;
  parse_cost_args(argc, argv, &rounds, &max);
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes < 2) {
    if (me == 0) printf("pe_quiet_cost: needs 2+ PEs\n");
    shmem_finalize();
    return 77;
  }
  char *dst = shmem_malloc(max);
  char *src = malloc(max);
  memset(src, me + 1, max);
  if (me == 0) printf("# pe_quiet_cost: %d PEs, PE 0 puts to PEs 1..%d, %d rounds\n# bytes call us\n", npes, npes - 1, rounds);
  const int one = 1;
  for (size_t bytes = 8; bytes <= max; bytes *= 8) {
    for (int which = 0; which < 2; which++) {
      double *t = calloc((size_t)rounds, sizeof *t);
      for (int r = 0; r < rounds; r++) {
        shmem_barrier_all();
        if (me == 0) {
          for (int pe = 1; pe < npes; pe++) shmem_putmem_nbi(dst, src, bytes, pe);
          const double t0 = now_us();
          if (which == 0) shmem_pe_quiet(&one, 1);
          else shmem_quiet();
          t[r] = now_us() - t0;
          shmem_quiet(); /* off the clock: everything completes before the next round */
        }
      }
      if (me == 0) printf("%zu %s %.2f\n", bytes, which ? "quiet" : "pe_quiet(1)", median(t, rounds));
      free(t);
    }
  }
  shmem_barrier_all();
  free(src);
  shmem_free(dst);
  shmem_finalize();
  return 0;
}
