/* Bad input: a team context addressed with a PE index outside its team. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    long *x = shmem_malloc(sizeof(long));
    shmem_team_t half;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, NULL, 0, &half);
    if (half != SHMEM_TEAM_INVALID) {
        shmem_ctx_t c;
        shmem_team_create_ctx(half, 0, &c);
        shmem_ctx_long_p(c, x, 1, 5); /* the team has 2 PEs */
        fprintf(stderr, "not reached\n");
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
