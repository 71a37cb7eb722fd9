/* Bad input: members pass different nelems to one SHMEM_TEAM_WORLD reduction, both pushed but in
 * boxes of different sizes (PE 1: 32 bytes, the others 8 KiB). */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    long *src = shmem_calloc(1024, sizeof(long)), *dst = shmem_calloc(1024, sizeof(long));
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, shmem_my_pe() == 1 ? 4 : 1024);
    fprintf(stderr, "not reached\n");
    shmem_finalize();
    return 0;
}
