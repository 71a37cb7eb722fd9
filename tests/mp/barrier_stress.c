/* 10000 iterations of shmem_barrier_all + shmem_sync_all.
 * Every iteration: a shmem_int_p to the right neighbour before the barrier
 * must be visible after it (barrier_all completes outstanding puts).
 * Every 1000 iterations: each PE atomically adds 1 to a counter on every PE,
 * barrier, and the counter must equal npes * (number of checks so far).
 * Usage: barrier_stress [iterations] */
#include "mp_util.h"

#define CHECK_EVERY 1000

int main(int argc, char **argv)
{
    mp_init("barrier_stress");
    long iters = 10000;
    if (argc > 1)
        iters = strtol(argv[1], NULL, 10);
    MP_CHECK(iters > 0, "iteration count (expected > 0 got %ld)", iters);

    int *slot = (int *)shmem_calloc(1, sizeof(int));
    long *counter = (long *)shmem_calloc(1, sizeof(long));
    MP_CHECK(slot && counter, "shmem_calloc (expected non-NULL got NULL)");
    shmem_barrier_all();

    const int right = mp_right(), left = mp_left();
    long checks = 0;
    double t0 = mp_now();
    for (long i = 1; i <= iters; i++) {
        /* value from the left PE, unique per iteration */
        shmem_int_p(slot, (int)(i * 8 + mp_me % 8), right);
        shmem_barrier_all();
        if (*slot != (int)(i * 8 + left % 8))
            mp_fail("iteration %ld: shmem_int_p before shmem_barrier_all not visible after it "
                    "(expected %d got %d)", i, (int)(i * 8 + left % 8), *slot);
        shmem_sync_all(); /* everybody has read its slot before the next put */

        if (i % CHECK_EVERY == 0) {
            checks++;
            for (int pe = 0; pe < mp_npes; pe++)
                shmem_long_atomic_add(counter, 1, pe);
            shmem_barrier_all();
            if (*counter != (long)mp_npes * checks)
                mp_fail("iteration %ld: counter after atomic adds and barrier (expected %ld got "
                        "%ld)", i, (long)mp_npes * checks, *counter);
            shmem_sync_all();
        }
    }
    if (mp_me == 0)
        printf("# barrier_stress: %ld x (barrier_all + sync_all) on %d PEs in %.2f s\n", iters,
               mp_npes, mp_now() - t0);

    shmem_free(counter);
    shmem_free(slot);
    mp_pass();
    shmem_finalize();
    return 0;
}
