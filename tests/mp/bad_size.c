/* Bad input: shmem_getmem of more bytes than the whole symmetric heap, from a
 * heap block (so the source range runs past the end of the heap). The
 * destination is a private buffer big enough for the request, so only the
 * runtime's argument check stands between the call and undefined behaviour.
 * Heap size: SHMEM_SYMMETRIC_SIZE (the meson test sets it), else 1 GiB. */
#define _GNU_SOURCE 1
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

static size_t heap_size(void)
{
    const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
    if (!env || !*env)
        return (size_t)1 << 30;
    char *end = NULL;
    double v = strtod(env, &end);
    switch (end ? *end : 0) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; break;
    case 'g': case 'G': v *= 1024.0 * 1024.0 * 1024.0; break;
    default: break;
    }
    return v > 0 ? (size_t)v : (size_t)1 << 30;
}

int main(void)
{
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    char *blk = (char *)shmem_malloc(1024);
    shmem_barrier_all();
    if (me == npes - 1) {
        size_t n = heap_size() + 4096;
        char *dst = (char *)malloc(n);
        if (!dst) {
            fprintf(stderr, "bad_size: cannot allocate %zu private bytes\n", n);
            return 0; /* inconclusive: report as an unexpected success */
        }
        fprintf(stderr, "bad_size: pe %d reads %zu bytes from heap block %p of pe %d\n", me, n,
                (void *)blk, (me + 1) % npes);
        fflush(stderr);
        shmem_getmem(dst, blk, n, (me + 1) % npes);
        fprintf(stderr, "bad_size: the call returned without reporting an error\n");
        free(dst);
    }
    shmem_barrier_all();
    shmem_free(blk);
    shmem_finalize();
    return 0;
}
