/* Bad input: members pass different nelems to one team reduction: PE 1 a size that is pushed to
 * the members, the others one that is pulled (so PE 1 waits for pushed partials that never come,
 * and its partners in the pulled reduction's argument check). */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    shmem_init();
    long *src = shmem_calloc(4096, sizeof(long)), *dst = shmem_calloc(4096, sizeof(long));
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, shmem_my_pe() == 1 ? 4 : 4096);
    fprintf(stderr, "not reached\n");
    shmem_finalize();
    return 0;
}
