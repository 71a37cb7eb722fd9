/* Contended atomics on one counter on PE 0.
 * Phase 1: every PE does K shmem_int64_atomic_fetch_inc; PE 0 gathers all
 *          tickets and checks they are exactly a permutation of 0..npes*K-1
 *          and that the counter ends at npes*K.
 * Phase 2: every PE does K shmem_int64_atomic_fetch_add with random
 *          increments; the returned (old value, increment) intervals must tile
 *          [0, total) exactly, and the counter must end at the total. */
#include "mp_util.h"

#define K 1000

struct interval {
    int64_t start, len;
    int pe;
};

static int cmp_interval(const void *a, const void *b)
{
    const struct interval *x = (const struct interval *)a, *y = (const struct interval *)b;
    return (x->start > y->start) - (x->start < y->start);
}

int main(void)
{
    mp_init("amo_contention");
    const int npes = mp_npes, me = mp_me;
    const size_t total_n = (size_t)npes * K;

    int64_t *counter = (int64_t *)shmem_malloc(sizeof(int64_t));
    int64_t *tickets = (int64_t *)shmem_malloc(total_n * sizeof(int64_t)); /* used on PE 0 */
    int64_t *incs = (int64_t *)shmem_malloc(total_n * sizeof(int64_t));    /* used on PE 0 */
    int64_t *mine = (int64_t *)malloc(K * sizeof(int64_t));
    int64_t *myinc = (int64_t *)malloc(K * sizeof(int64_t));
    MP_CHECK(counter && tickets && incs && mine && myinc,
             "allocation (expected non-NULL got NULL)");

    /* ---- phase 1: fetch_inc ---- */
    *counter = 0;
    mp_poison(tickets, total_n * sizeof(int64_t));
    shmem_barrier_all();
    for (int i = 0; i < K; i++) {
        mine[i] = shmem_int64_atomic_fetch_inc(counter, 0);
        if (i > 0 && mine[i] <= mine[i - 1])
            mp_fail("shmem_int64_atomic_fetch_inc: tickets of one PE must increase (expected > "
                    "%" PRId64 " got %" PRId64 ")", mine[i - 1], mine[i]);
    }
    shmem_int64_put(tickets + (size_t)me * K, mine, K, 0);
    shmem_barrier_all();
    if (me == 0) {
        MP_CHECK_EQ("final counter after fetch_inc", (int64_t)total_n, *counter);
        unsigned char *seen = (unsigned char *)calloc(total_n, 1);
        MP_CHECK(seen != NULL, "calloc (expected non-NULL got NULL)");
        for (size_t i = 0; i < total_n; i++) {
            int64_t t = tickets[i];
            if (t < 0 || (size_t)t >= total_n)
                mp_fail("ticket %zu from pe %zu out of range (expected 0..%zu got %" PRId64 ")",
                        i % K, i / K, total_n - 1, t);
            if (seen[t])
                mp_fail("ticket %" PRId64 " handed out twice (expected once got twice, second "
                        "to pe %zu)", t, i / K);
            seen[t] = 1;
        }
        free(seen);
    }
    shmem_barrier_all();

    /* ---- phase 2: fetch_add with random increments ---- */
    if (me == 0)
        *counter = 0;
    mp_poison(tickets, total_n * sizeof(int64_t));
    mp_poison(incs, total_n * sizeof(int64_t));
    shmem_barrier_all();
    uint64_t s = mp_pe_stream(me, mp_tag("fetch_add", 0));
    for (int i = 0; i < K; i++) {
        myinc[i] = (int64_t)(mp_rand64(&s) % 1000) + 1;
        mine[i] = shmem_int64_atomic_fetch_add(counter, myinc[i], 0);
    }
    shmem_int64_put(tickets + (size_t)me * K, mine, K, 0);
    shmem_int64_put(incs + (size_t)me * K, myinc, K, 0);
    shmem_barrier_all();
    if (me == 0) {
        struct interval *iv = (struct interval *)malloc(total_n * sizeof *iv);
        MP_CHECK(iv != NULL, "malloc (expected non-NULL got NULL)");
        int64_t sum = 0;
        for (size_t i = 0; i < total_n; i++) {
            iv[i].start = tickets[i];
            iv[i].len = incs[i];
            iv[i].pe = (int)(i / K);
            sum += incs[i];
        }
        /* each PE's increments, regenerated from its seed, must be what it sent */
        for (int pe = 0; pe < npes; pe++) {
            uint64_t ps = mp_pe_stream(pe, mp_tag("fetch_add", 0));
            for (int i = 0; i < K; i++)
                MP_CHECK_EQ("gathered increment", (int64_t)(mp_rand64(&ps) % 1000) + 1,
                            incs[(size_t)pe * K + i]);
        }
        qsort(iv, total_n, sizeof *iv, cmp_interval);
        int64_t next = 0;
        for (size_t i = 0; i < total_n; i++) {
            if (iv[i].start != next)
                mp_fail("fetch_add intervals do not tile: interval %zu (pe %d) starts at "
                        "(expected %" PRId64 " got %" PRId64 ")",
                        i, iv[i].pe, next, iv[i].start);
            next += iv[i].len;
        }
        MP_CHECK_EQ("final counter after fetch_add", sum, *counter);
        free(iv);
    }

    free(mine);
    free(myinc);
    shmem_free(incs);
    shmem_free(tickets);
    shmem_free(counter);
    mp_pass();
    shmem_finalize();
    return 0;
}
