/* Not from the specification: a main program for pshmem_example.c (section 10.2.1), which
 * defines its own shmem_long_put around pshmem_long_put. Linked together with libgshmem, the
 * program's definition replaces the library's weak shmem_long_put; the data must still arrive. */
#include <shmem.h>
#include <stdio.h>

static long src[8], dst[8];

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
  for (int i = 0; i < 8; i++) {
    src[i] = 1000L * me + i;
    dst[i] = -1;
  }
  shmem_barrier_all();
  shmem_long_put(dst, src, 8, right);
  shmem_barrier_all();
  int left = (me + n - 1) % n, bad = 0;
  for (int i = 0; i < 8; i++) bad += dst[i] != 1000L * left + i;
  if (bad) printf("pe %d: %d wrong elements\n", me, bad);
  int all_bad = 0;
  static int flags;
  if (bad) shmem_int_atomic_inc(&flags, 0);
  shmem_barrier_all();
  if (me == 0) all_bad = flags;
  if (me == 0 && !all_bad) printf("pshmem_example: ok\n");
  shmem_finalize();
  return all_bad ? 1 : 0;
}
