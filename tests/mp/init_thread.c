/* shmem_init_thread(SHMEM_THREAD_MULTIPLE), shmem_query_thread,
 * shmem_info_get_version / shmem_info_get_name, and 4 pthreads per PE doing
 * puts and atomics concurrently on the default context. */
#include "mp_util.h"

#include <pthread.h>

#define NTHREADS 4
#define ROUNDS 10
#define TBYTES ((size_t)32 * 1024)
#define KINC 500

static unsigned char *tbuf;   /* symmetric: NTHREADS regions written by the left PE */
static int64_t *counter0;     /* symmetric: hit on PE 0 by every thread */
static int64_t *right_count;  /* symmetric: NTHREADS counters hit by the left PE */

struct targ {
    int t;
    int me, npes;
};

static void *worker(void *p)
{
    const struct targ *a = (const struct targ *)p;
    const int t = a->t, right = mp_right();
    if (shmem_my_pe() != a->me || shmem_n_pes() != a->npes)
        mp_fail("thread %d: shmem_my_pe/shmem_n_pes (expected %d/%d got %d/%d)", t, a->me,
                a->npes, shmem_my_pe(), shmem_n_pes());
    unsigned char *src = (unsigned char *)malloc(TBYTES);
    MP_CHECK(src != NULL, "malloc (expected non-NULL got NULL)");
    int64_t last = -1;
    for (int r = 0; r < ROUNDS; r++) {
        /* the last round's payload is what the right PE finally checks */
        mp_fill(src, TBYTES, a->me, mp_tag("thread", (uint64_t)(t * ROUNDS + r)));
        shmem_putmem(tbuf + (size_t)t * TBYTES, src, TBYTES, right);
        shmem_quiet(); /* rounds overwrite the same region: keep them ordered */
        for (int i = 0; i < KINC / ROUNDS; i++) {
            int64_t v = shmem_int64_atomic_fetch_inc(counter0, 0);
            if (v <= last)
                mp_fail("thread %d: shmem_int64_atomic_fetch_inc must increase (expected > "
                        "%" PRId64 " got %" PRId64 ")", t, last, v);
            last = v;
            shmem_int64_atomic_add(&right_count[t], 2, right);
        }
    }
    shmem_quiet();
    free(src);
    return NULL;
}

int main(void)
{
    int provided = -1;
    int rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    mp_name = "init_thread";
    if (rc != 0) {
        fprintf(stderr, "FAIL init_thread: pe ?: shmem_init_thread (expected 0 got %d)\n", rc);
        return 1;
    }
    mp_setup("init_thread");
    MP_CHECK_EQ("shmem_init_thread provided level (SHMEM_THREAD_MULTIPLE)",
                SHMEM_THREAD_MULTIPLE, provided);
    int queried = -1;
    shmem_query_thread(&queried);
    MP_CHECK_EQ("shmem_query_thread", provided, queried);
    MP_CHECK(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED &&
                 SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
                 SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE,
             "thread level constants must be ordered (expected SINGLE<FUNNELED<SERIALIZED<"
             "MULTIPLE got %d %d %d %d)", SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED,
             SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE);

    int major = -1, minor = -1;
    shmem_info_get_version(&major, &minor);
    MP_CHECK_EQ("shmem_info_get_version major", 1, major);
    MP_CHECK_EQ("shmem_info_get_version minor", 6, minor);
    MP_CHECK_EQ("SHMEM_MAJOR_VERSION", 1, SHMEM_MAJOR_VERSION);
    MP_CHECK_EQ("SHMEM_MINOR_VERSION", 6, SHMEM_MINOR_VERSION);
    char name[SHMEM_MAX_NAME_LEN + 1];
    memset(name, 0x7f, sizeof name);
    shmem_info_get_name(name);
    size_t len = strnlen(name, SHMEM_MAX_NAME_LEN);
    if (len == 0 || len >= SHMEM_MAX_NAME_LEN)
        mp_fail("shmem_info_get_name: length (expected 1..%d got %zu)", SHMEM_MAX_NAME_LEN - 1,
                len);
    if (strcmp(name, SHMEM_VENDOR_STRING) != 0)
        mp_fail("shmem_info_get_name vs SHMEM_VENDOR_STRING (expected \"%s\" got \"%s\")",
                SHMEM_VENDOR_STRING, name);

    tbuf = (unsigned char *)shmem_malloc(NTHREADS * TBYTES);
    counter0 = (int64_t *)shmem_calloc(1, sizeof(int64_t));
    right_count = (int64_t *)shmem_calloc(NTHREADS, sizeof(int64_t));
    MP_CHECK(tbuf && counter0 && right_count, "allocation (expected non-NULL got NULL)");
    mp_poison(tbuf, NTHREADS * TBYTES);
    shmem_barrier_all();

    pthread_t th[NTHREADS];
    struct targ args[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        args[t].t = t;
        args[t].me = mp_me;
        args[t].npes = mp_npes;
        if (pthread_create(&th[t], NULL, worker, &args[t]) != 0)
            mp_fail("pthread_create %d (expected 0 got error)", t);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();

    for (int t = 0; t < NTHREADS; t++) {
        char what[64];
        snprintf(what, sizeof what, "thread %d's puts from the left PE", t);
        mp_check_bytes(what, tbuf + (size_t)t * TBYTES, TBYTES, mp_left(),
                       mp_tag("thread", (uint64_t)(t * ROUNDS + ROUNDS - 1)));
        MP_CHECK_EQ("per-thread atomic add counter", 2 * (KINC / ROUNDS) * ROUNDS, right_count[t]);
    }
    if (mp_me == 0)
        MP_CHECK_EQ("shared fetch_inc counter on pe 0",
                    (long long)mp_npes * NTHREADS * (KINC / ROUNDS) * ROUNDS, *counter0);

    shmem_free(right_count);
    shmem_free(counter0);
    shmem_free(tbuf);
    mp_pass();
    shmem_finalize();
    return 0;
}
