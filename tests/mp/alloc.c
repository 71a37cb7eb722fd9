/* Symmetric memory management (OpenSHMEM 1.5): shmem_malloc, shmem_calloc,
 * shmem_align, shmem_realloc, shmem_free, shmem_malloc_with_hints; symmetric
 * addresses (a remote put into a fresh block lands in the owner's block);
 * exhaustion returns NULL everywhere and leaves the heap usable;
 * shmem_addr_accessible, shmem_pe_accessible and shmem_ptr. */
#include "mp_util.h"

#include <stdbool.h>

static int some_global = 1; /* a symmetric data object outside the heap */

/* Every PE puts its payload for `tag` into block p (nbytes) on its right
 * neighbour; each then checks that its own block holds the left PE's payload. */
static void ring_check(const char *what, void *p, size_t nbytes, uint64_t tag)
{
    unsigned char *src = (unsigned char *)malloc(nbytes ? nbytes : 1);
    MP_CHECK(src != NULL, "malloc (expected non-NULL got NULL)");
    mp_poison(p, nbytes);
    shmem_barrier_all();
    mp_fill(src, nbytes, mp_me, tag);
    shmem_putmem(p, src, nbytes, mp_right());
    shmem_barrier_all();
    mp_check_bytes(what, p, nbytes, mp_left(), tag);
    shmem_barrier_all();
    free(src);
}

static void expect_alloc(const char *what, const void *p)
{
    if (!p)
        mp_fail("%s (expected non-NULL got NULL)", what);
}

static void test_basic(void)
{
    unsigned char *a = (unsigned char *)shmem_malloc(1000);
    expect_alloc("shmem_malloc(1000)", a);
    ring_check("remote put into shmem_malloc block", a, 1000, mp_tag("malloc", 0));

    /* calloc after freeing a dirty block of the same size: must be zeroed */
    memset(a, 0x5A, 1000);
    shmem_free(a);
    unsigned char *z = (unsigned char *)shmem_calloc(250, 4);
    expect_alloc("shmem_calloc(250, 4)", z);
    for (size_t i = 0; i < 1000; i++)
        if (z[i] != 0)
            mp_fail("shmem_calloc: byte %zu not zeroed (expected 0x00 got 0x%02x)", i, z[i]);
    ring_check("remote put into shmem_calloc block", z, 1000, mp_tag("calloc", 0));
    shmem_free(z);

    shmem_free(NULL); /* no-op */

    static const size_t aligns[] = {64, 4096, (size_t)1 << 20};
    for (size_t i = 0; i < 3; i++) {
        unsigned char *pad = (unsigned char *)shmem_malloc(24); /* perturb the heap */
        unsigned char *p = (unsigned char *)shmem_align(aligns[i], 3000);
        expect_alloc("shmem_align", p);
        if ((uintptr_t)p % aligns[i] != 0)
            mp_fail("shmem_align(%zu, 3000): address %p (expected alignment %zu got offset %zu)",
                    aligns[i], (void *)p, aligns[i], (size_t)((uintptr_t)p % aligns[i]));
        ring_check("remote put into shmem_align block", p, 3000, mp_tag("align", i));
        shmem_free(p);
        shmem_free(pad);
    }
}

static void test_realloc(void)
{
    const uint64_t t0 = mp_tag("realloc", 0);
    unsigned char *p = (unsigned char *)shmem_realloc(NULL, 1000); /* == shmem_malloc */
    expect_alloc("shmem_realloc(NULL, 1000)", p);
    mp_fill(p, 1000, mp_me, t0);
    unsigned char *blocker = (unsigned char *)shmem_malloc(64); /* makes in-place growth harder */
    expect_alloc("shmem_malloc(64)", blocker);

    p = (unsigned char *)shmem_realloc(p, 200000);
    expect_alloc("shmem_realloc grow to 200000", p);
    mp_check_bytes("shmem_realloc grow: preserved contents", p, 1000, mp_me, t0);
    ring_check("remote put into grown shmem_realloc block", p, 200000, mp_tag("realloc", 1));

    mp_fill(p, 200000, mp_me, t0);
    p = (unsigned char *)shmem_realloc(p, 100);
    expect_alloc("shmem_realloc shrink to 100", p);
    mp_check_bytes("shmem_realloc shrink: preserved contents", p, 100, mp_me, t0);
    ring_check("remote put into shrunk shmem_realloc block", p, 100, mp_tag("realloc", 2));
    shmem_free(blocker);
    shmem_free(p);
}

static void test_hints(void)
{
    static const long hints[] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE};
    for (int h = 0; h < 3; h++) {
        uint64_t *p = (uint64_t *)shmem_malloc_with_hints(4096, hints[h]);
        if (!p)
            mp_fail("shmem_malloc_with_hints(4096, %ld) (expected non-NULL got NULL)", hints[h]);
        ring_check("remote put into shmem_malloc_with_hints block", p, 4096,
                   mp_tag("hints", (uint64_t)h));
        p[0] = 0;
        p[1] = 0;
        shmem_barrier_all();
        /* atomics on PE 0's word, a signal to the right neighbour */
        shmem_uint64_atomic_add(&p[0], (uint64_t)mp_me + 1, 0);
        uint64_t one = 1;
        shmem_putmem_signal(&p[2], &one, sizeof one, &p[1], (uint64_t)mp_me + 1,
                            SHMEM_SIGNAL_SET, mp_right());
        shmem_signal_wait_until(&p[1], SHMEM_CMP_EQ, (uint64_t)mp_left() + 1);
        MP_CHECK_EQ("put_signal payload in a hinted block", 1, p[2]);
        shmem_barrier_all();
        if (mp_me == 0)
            MP_CHECK_EQ("atomic adds in a hinted block", (long long)mp_npes * (mp_npes + 1) / 2,
                        p[0]);
        shmem_barrier_all();
        shmem_free(p);
    }
}

/* Many blocks of random sizes (the same on every PE), freed in random order;
 * no two may overlap, and each is remotely writable. */
static void test_many(void)
{
    enum { NB = 100 };
    unsigned char *b[NB];
    size_t sz[NB];
    uint64_t s = mp_pe_stream(0, mp_tag("many", 0)); /* PE 0's stream: identical everywhere */
    for (int i = 0; i < NB; i++) {
        sz[i] = (size_t)(mp_rand64(&s) % 20000) + 1;
        b[i] = (unsigned char *)(i % 3 == 0 ? shmem_calloc(1, sz[i]) : shmem_malloc(sz[i]));
        expect_alloc("shmem_malloc/shmem_calloc of a random size", b[i]);
        mp_fill(b[i], sz[i], mp_me, mp_tag("many", (uint64_t)i + 1));
    }
    for (int i = 0; i < NB; i++)
        mp_check_bytes("overlapping symmetric allocations", b[i], sz[i], mp_me,
                       mp_tag("many", (uint64_t)i + 1));
    for (int i = 0; i < NB; i += 9)
        ring_check("remote put into one of many blocks", b[i], sz[i], mp_tag("many2", i));
    bool freed[NB] = {false};
    for (int n = 0; n < NB; n++) {
        int i = (int)(mp_rand64(&s) % NB);
        while (freed[i])
            i = (i + 1) % NB;
        freed[i] = true;
        shmem_free(b[i]);
    }
}

static void test_exhaustion(void)
{
    void *p = shmem_malloc(SIZE_MAX / 2);
    if (p)
        mp_fail("shmem_malloc(SIZE_MAX / 2) (expected NULL got %p)", p);
    p = shmem_calloc(SIZE_MAX / 2, 4); /* count * size overflows */
    if (p)
        mp_fail("shmem_calloc(SIZE_MAX / 2, 4) (expected NULL got %p)", p);
    size_t heap = mp_symmetric_size();
    if (heap) {
        p = shmem_malloc(2 * heap);
        if (p)
            mp_fail("shmem_malloc(2 x SHMEM_SYMMETRIC_SIZE = %zu) (expected NULL got %p)",
                    2 * heap, p);
        p = shmem_align(4096, heap + 1);
        if (p)
            mp_fail("shmem_align(4096, SHMEM_SYMMETRIC_SIZE + 1) (expected NULL got %p)", p);
    } else if (mp_me == 0) {
        printf("# alloc: SHMEM_SYMMETRIC_SIZE unset, skipping the 2x-heap exhaustion check\n");
    }
    /* the heap still works */
    unsigned char *q = (unsigned char *)shmem_malloc(65536);
    expect_alloc("shmem_malloc(65536) after failed allocations", q);
    ring_check("remote put after failed allocations", q, 65536, mp_tag("exhaust", 0));
    shmem_free(q);
}

static void test_accessible(void)
{
    int on_stack = 0;
    unsigned char *p = (unsigned char *)shmem_malloc(4096);
    expect_alloc("shmem_malloc(4096)", p);
    for (int pe = 0; pe < mp_npes; pe++) {
        MP_CHECK_EQ("shmem_pe_accessible(valid pe)", 1, shmem_pe_accessible(pe));
        MP_CHECK_EQ("shmem_addr_accessible(heap block)", 1, shmem_addr_accessible(p, pe));
        MP_CHECK_EQ("shmem_addr_accessible(heap block + 4095)", 1,
                    shmem_addr_accessible(p + 4095, pe));
        MP_CHECK_EQ("shmem_addr_accessible(global variable)", 1,
                    shmem_addr_accessible(&some_global, pe));
        if (pe != mp_me)
            MP_CHECK_EQ("shmem_addr_accessible(stack variable, remote pe)", 0,
                        shmem_addr_accessible(&on_stack, pe));
    }
    MP_CHECK_EQ("shmem_pe_accessible(-1)", 0, shmem_pe_accessible(-1));
    MP_CHECK_EQ("shmem_pe_accessible(npes)", 0, shmem_pe_accessible(mp_npes));

    /* shmem_ptr works exactly for the PEs that share memory with this one: SHMEM_TEAM_SHARED
     * (all PEs of one node, or only this PE when GSHMEM_FORCE_PROXY=1 sends everything through
     * the proxy) */
    void *self = shmem_ptr(p, mp_me);
    if (self != p)
        mp_fail("shmem_ptr(p, my pe) (expected %p got %p)", (void *)p, self);
    for (int pe = 0; pe < mp_npes; pe++) {
        const int shared = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
        if (shared != (shmem_ptr(p, pe) != NULL))
            mp_fail("shmem_ptr(heap block, pe %d): %s (pe %s SHMEM_TEAM_SHARED)", pe,
                    shmem_ptr(p, pe) ? "non-NULL" : "NULL", shared ? "in" : "not in");
    }
    if (shmem_team_n_pes(SHMEM_TEAM_SHARED) == mp_npes) {
        const uint64_t tag = mp_tag("shmem_ptr", 0);
        mp_poison(p, 4096);
        shmem_barrier_all();
        unsigned char *r = (unsigned char *)shmem_ptr(p, mp_right());
        mp_fill(r, 4096, mp_me, tag); /* plain stores into the right PE's block */
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        shmem_barrier_all();
        mp_check_bytes("stores through shmem_ptr seen by the owner", p, 4096, mp_left(), tag);
    }
    shmem_barrier_all();
    shmem_free(p);
}

int main(void)
{
    mp_init("alloc");
    test_basic();
    test_realloc();
    test_hints();
    test_many();
    test_exhaustion();
    test_accessible();
    mp_pass();
    shmem_finalize();
    return 0;
}
