/* Bad input: members pass different nelems to one reduction on a team of every PE (not
 * SHMEM_TEAM_WORLD: only 256 bytes are pushed there): PE 1 a size that is pushed to the members,
 * the others one that is pulled (so PE 1 waits for pushed partials that never come, and its
 * partners in the pulled reduction's argument check). */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    shmem_team_t all;
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &all) != 0) return 2;
    long *src = shmem_calloc(64, sizeof(long)), *dst = shmem_calloc(64, sizeof(long));
    shmem_long_sum_reduce(all, dst, src, shmem_my_pe() == 1 ? 4 : 64);
    fprintf(stderr, "not reached\n");
    shmem_finalize();
    return 0;
}
