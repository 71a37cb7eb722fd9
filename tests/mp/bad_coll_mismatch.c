/* Bad input: members pass different nelems to one fcollect. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    long *src = shmem_malloc(64 * sizeof(long)), *dst = shmem_malloc(64 * 64 * sizeof(long));
    shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, shmem_my_pe() == 1 ? 16 : 8);
    fprintf(stderr, "not reached\n");
    shmem_finalize();
    return 0;
}
