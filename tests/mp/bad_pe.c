/* Bad input: shmem_int_p to pe = npes + 5 from the last PE. The runtime must
 * stop the whole job with a non-zero status and a message naming the call,
 * the PE and the value; it must not hang or return normally. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    int *x = (int *)shmem_malloc(sizeof(int));
    shmem_barrier_all();
    if (me == npes - 1) {
        fprintf(stderr, "bad_pe: pe %d writes an int to pe index %d (npes %d)\n", me, npes + 5,
                npes);
        fflush(stderr);
        shmem_int_p(x, 1, npes + 5);
        shmem_quiet();
        fprintf(stderr, "bad_pe: the call returned without reporting an error\n");
    }
    shmem_barrier_all();
    shmem_free(x);
    shmem_finalize();
    return 0; /* reaching this is the failure expect_fail.py looks for */
}
