/* Bad input: shmem_putmem with dest NULL and a non-zero size. The runtime
 * must stop the job with a non-zero status and a message naming the call,
 * the PE and the NULL address. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    char src[16] = "gshmem bad_null";
    shmem_barrier_all();
    if (me == npes - 1) {
        fprintf(stderr, "bad_null: pe %d puts 16 bytes to a null destination on pe %d\n", me,
                (me + 1) % npes);
        fflush(stderr);
        shmem_putmem(NULL, src, sizeof src, (me + 1) % npes);
        shmem_quiet();
        fprintf(stderr, "bad_null: the call returned without reporting an error\n");
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
