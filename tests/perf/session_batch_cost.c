/* What an OpenSHMEM 1.6 batch session buys: PE 0 issues `count` 8-byte shmem_ctx_long_put_nbi to
 * consecutive addresses on the last PE (another node in the two-namespace layout), then
 * shmem_ctx_quiet, inside a SHMEM_CTX_SESSION_BATCH session or not; the median time of the whole
 * loop and quiet over -n rounds is printed per count. Usage: session_batch_cost [-n rounds]
 * [-e max_count]. */
#include "cpu_cost_common.h" /* first: sets _POSIX_C_SOURCE */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
  int rounds = 21;
  size_t max = 4096;
  parse_cost_args(argc, argv, &rounds, &max);
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes(), target = npes - 1;
  long *dst = shmem_malloc(max * sizeof(long));
  long *src = malloc(max * sizeof(long));
  for (size_t i = 0; i < max; i++) src[i] = (long)i;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0) shmem_global_exit(2);
  if (me == 0) printf("# session_batch_cost: %d PEs, PE 0 -> PE %d, %d rounds (median)\n# puts session us\n", npes, target, rounds);
  double *t = calloc((size_t)rounds, sizeof *t);
  for (size_t count = 16; count <= max; count *= 4) {
    for (int session = 0; session < 2; session++) {
      for (int r = 0; r < rounds; r++) {
        shmem_barrier_all();
        if (me != 0) continue;
        const double t0 = now_us();
        if (session) shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
        for (size_t i = 0; i < count; i++) shmem_ctx_long_put_nbi(ctx, &dst[i], &src[i], 1, target);
        if (session) shmem_ctx_session_stop(ctx);
        shmem_ctx_quiet(ctx);
        t[r] = now_us() - t0;
      }
      if (me == 0) printf("%zu %s %.1f\n", count, session ? "batch" : "none", median(t, rounds));
    }
  }
  shmem_barrier_all();
  shmem_ctx_destroy(ctx);
  free(t);
  free(src);
  shmem_free(dst);
  shmem_finalize();
  return 0;
}
