/* Bad input: a blocked strided put whose dest stride is shorter than its block (OpenSHMEM 1.6:
 * "The stride must be greater than or equal to bsize"). */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  static long dst[64];
  long src[64] = {0};
  shmem_long_ibput(dst, src, 2, 4, 3, 5, (shmem_my_pe() + 1) % shmem_n_pes()); /* dst 2 < bsize 3 */
  fprintf(stderr, "not reached\n");
  shmem_finalize();
  return 0;
}
