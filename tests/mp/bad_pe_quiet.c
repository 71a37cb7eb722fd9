/* Bad input: shmem_pe_quiet given a PE number outside the job. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int pes[2] = {0, shmem_n_pes() + 3};
  shmem_pe_quiet(pes, 2);
  fprintf(stderr, "not reached\n");
  shmem_finalize();
  return 0;
}
