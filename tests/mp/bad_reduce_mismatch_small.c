/* Bad input: members pass different nelems to one small team reduction (both pushed to the
 * members: every message carries its sender's arguments). */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    long *src = shmem_calloc(32, sizeof(long)), *dst = shmem_calloc(32, sizeof(long));
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, shmem_my_pe() == 1 ? 4 : 8);
    fprintf(stderr, "not reached\n");
    shmem_finalize();
    return 0;
}
