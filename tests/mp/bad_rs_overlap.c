/* Bad input: a reduce-scatter whose dest overlaps its source must end the job with a message naming
 * the call and both ranges (tests/mp/expect_fail.py). */
#include <shmem.h>
#include <shmemx.h>

int main(void)
{
    shmem_init();
    int *src = (int *)shmem_malloc((size_t)shmem_n_pes() * 16 * sizeof(int));
    for (int i = 0; i < shmem_n_pes() * 16; i++) src[i] = i;
    shmem_barrier_all();
    shmemx_int_sum_reducescatter(SHMEM_TEAM_WORLD, src + 4, src, 16);
    shmem_finalize();
    return 0;
}
