/* Bad input: a broadcast root outside the team. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    long *buf = shmem_malloc(64 * sizeof(long));
    shmem_long_broadcast(SHMEM_TEAM_WORLD, buf, buf, 8, shmem_n_pes() + 3);
    fprintf(stderr, "not reached\n");
    shmem_finalize();
    return 0;
}
