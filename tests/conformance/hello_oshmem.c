/* A plain OpenSHMEM 1.5 C program (no gshmem-specific names): every PE writes a random value
 * into the next PE's symmetric array slot, and the job checks all of them. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

long slots[1024];
long seeds[1024];

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  if (n > 1024) shmem_global_exit(2);
  srand((unsigned)time(NULL) ^ (unsigned)me * 2654435761u);
  long v = ((long)rand() << 20) ^ rand();
  for (int i = 0; i < n; ++i) slots[i] = -1;
  shmem_barrier_all();
  for (int pe = 0; pe < n; ++pe) {
    shmem_long_p(&slots[me], v, pe);
    shmem_long_p(&seeds[me], v, pe);
  }
  shmem_barrier_all();
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += slots[i] != seeds[i] || slots[i] == -1;
  long *sym = (long *)shmem_malloc(sizeof(long));
  *sym = 0;
  shmem_barrier_all();
  shmem_long_atomic_add(sym, me + 1, 0);
  shmem_barrier_all();
  if (me == 0 && *sym != (long)n * (n + 1) / 2) bad++;
  char name[SHMEM_MAX_NAME_LEN];
  shmem_info_get_name(name);
  if (me == 0) printf("%s: %d PEs, %s\n", name, n, bad ? "FAILED" : "ok");
  shmem_free(sym);
  shmem_finalize();
  return bad ? 1 : 0;
}
