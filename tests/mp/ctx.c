/* Contexts: a private world context and a context on the odd-PE team (PE numbers relative to the
 * team), RMA, AMOs and put-with-signal through them, per-context quiet, get_team, destroy. */
#include "mp_util.h"

#define N 512

int main(void) {
    mp_init("ctx");
    const int me = mp_me, n = mp_npes;
    uint64_t *buf = shmem_malloc(N * sizeof(uint64_t));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    long *ctr = shmem_calloc(1, sizeof(long));
    uint64_t src[N];

    shmem_ctx_t c;
    MP_CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) == 0 && c != SHMEM_CTX_INVALID, "ctx_create failed");
    shmem_team_t t;
    MP_CHECK(shmem_ctx_get_team(c, &t) == 0 && t == SHMEM_TEAM_WORLD, "world ctx team %d (expected WORLD)", t);
    for (int i = 0; i < N; ++i) src[i] = mp_splitmix64(mp_seeds[me] ^ (uint64_t)i);
    mp_poison(buf, sizeof(uint64_t) * N);
    shmem_barrier_all();
    shmem_ctx_uint64_put_nbi(c, buf, src, N, mp_right());
    shmem_ctx_quiet(c);
    shmem_ctx_long_atomic_add(c, ctr, 1, 0);
    shmem_barrier_all();
    for (int i = 0; i < N; ++i)
        if (buf[i] != mp_splitmix64(mp_seeds[mp_left()] ^ (uint64_t)i)) mp_fail("world ctx put: element %d", i);
    if (me == 0 && *ctr != n) mp_fail("ctx atomic add: counter %ld (expected %d)", *ctr, n);
    shmem_ctx_destroy(c);

    /* team context on the odd PEs: pe arguments are indices in that team */
    shmem_team_t odd;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    mp_poison(buf, sizeof(uint64_t) * N);
    *sig = 0;
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID) {
        shmem_ctx_t tc;
        MP_CHECK(shmem_team_create_ctx(odd, 0, &tc) == 0, "team_create_ctx failed");
        MP_CHECK(shmem_ctx_get_team(tc, &t) == 0 && t == odd, "team ctx reports team %d (expected %d)", t, odd);
        const int tn = shmem_team_n_pes(odd), ti = shmem_team_my_pe(odd);
        const int tright = (ti + 1) % tn;  /* team index of the next odd PE */
        shmem_ctx_putmem_signal(tc, buf, src, sizeof src, sig, 1, SHMEM_SIGNAL_ADD, tright);
        shmem_signal_wait_until(sig, SHMEM_CMP_GE, 1);
        const int from = shmem_team_translate_pe(odd, (ti + tn - 1) % tn, SHMEM_TEAM_WORLD);
        for (int i = 0; i < N; ++i)
            if (buf[i] != mp_splitmix64(mp_seeds[from] ^ (uint64_t)i)) mp_fail("team ctx put_signal: element %d from %d", i, from);
        long got = shmem_ctx_long_atomic_fetch_add(tc, ctr, 10, 0); /* team PE 0 = world PE 1 */
        MP_CHECK(got >= 0, "team ctx fetch_add returned %ld", got);
        shmem_ctx_quiet(tc);
        shmem_ctx_destroy(tc);
    }
    shmem_barrier_all();
    if (me == 1 && *ctr != 10L * (n / 2)) mp_fail("team ctx atomics on world PE 1: %ld (expected %d)", *ctr, 10 * (n / 2));
    if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
    mp_pass();
    shmem_finalize();
    return 0;
}
