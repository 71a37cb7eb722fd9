/* Bad input: shmem_malloc is collective and needs the same size on every
 * PE; here PE 0 asks for 1024 bytes and the others for 2048. The runtime must
 * stop the job with a non-zero status and a message naming shmem_malloc and
 * the mismatch. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe();
    size_t sz = me == 0 ? 1024 : 2048;
    fprintf(stderr, "bad_malloc_mismatch: pe %d allocates %zu symmetric bytes\n", me, sz);
    fflush(stderr);
    void *p = shmem_malloc(sz);
    fprintf(stderr, "bad_malloc_mismatch: pe %d: the allocation returned %p without an error\n",
            me, p);
    shmem_barrier_all();
    shmem_free(p);
    shmem_finalize();
    return 0;
}
