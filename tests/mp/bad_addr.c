/* Bad input: shmem_putmem whose destination is the address of a
 * non-symmetric local (stack) variable, targeting a remote PE. The runtime
 * must stop the job with a non-zero status and a message naming the call,
 * the PE and the address. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    char on_stack[64];
    char src[64];
    memset(on_stack, 0, sizeof on_stack);
    memset(src, 0x42, sizeof src);
    shmem_barrier_all();
    if (me == npes - 1) {
        int target = (me + 1) % npes;
        fprintf(stderr, "bad_addr: pe %d puts 64 bytes to a stack variable (%p) of pe %d\n", me,
                (void *)on_stack, target);
        fflush(stderr);
        shmem_putmem(on_stack, src, sizeof src, target);
        shmem_quiet();
        fprintf(stderr, "bad_addr: the call returned without reporting an error\n");
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching this is the failure expect_fail.py looks for */
}
