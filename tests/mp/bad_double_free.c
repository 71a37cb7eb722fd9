/* Bad input: shmem_free twice on the same pointer (after an unrelated allocation that must not
 * take its place). The runtime must stop the job with a message that says it was already freed,
 * not that the allocator never returned it. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    long *a = shmem_malloc(4096);
    long *b = shmem_malloc(64);
    shmem_free(a);
    long *c = shmem_malloc(8192); /* larger than a's block: placed elsewhere */
    fprintf(stderr, "bad_double_free: pe %d frees %p a second time\n", shmem_my_pe(), (void *)a);
    fflush(stderr);
    shmem_free(a);
    fprintf(stderr, "bad_double_free: the second shmem_free returned without reporting an error\n");
    shmem_free(c);
    shmem_free(b);
    shmem_finalize();
    return 0;
}
