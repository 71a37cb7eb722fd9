/* Put-with-signal (OpenSHMEM 1.5): shmem_putmem_signal, shmem_TYPE_put_signal,
 * shmem_putSIZE_signal and their _nbi forms with SHMEM_SIGNAL_SET and
 * SHMEM_SIGNAL_ADD; shmem_signal_fetch and shmem_signal_wait_until. The
 * payload must be complete when the signal is observed. Finally a random
 * token travels around the ring of PEs LAPS times. */
#include "mp_util.h"

#define MAXELEM 16
#define NT 257                       /* typed elements */
#define BIG ((size_t)100003)         /* putmem_signal bytes */
#define NCHUNK 8
#define CHUNK ((size_t)4099)
#define LAPS 20

static unsigned char *sdst;  /* symmetric payload destination */
static uint64_t *sig;        /* symmetric signals */
static unsigned char *lsrc;  /* private */

/* Owner side: wait for `expected` on sig[i], check shmem_signal_fetch. */
static void wait_signal(const char *what, int i, uint64_t expected)
{
    uint64_t got = shmem_signal_wait_until(&sig[i], SHMEM_CMP_EQ, expected);
    if (got != expected)
        mp_fail("%s: shmem_signal_wait_until return (expected 0x%" PRIx64 " got 0x%" PRIx64 ")",
                what, expected, got);
    got = shmem_signal_fetch(&sig[i]);
    if (got != expected)
        mp_fail("%s: shmem_signal_fetch (expected 0x%" PRIx64 " got 0x%" PRIx64 ")", what,
                expected, got);
}

/* A nonzero random signal value chosen by PE `pe` for `tag`. */
static uint64_t sigval(int pe, uint64_t tag)
{
    uint64_t s = mp_pe_stream(pe, tag ^ 0x5151);
    uint64_t v = mp_rand64(&s);
    return v ? v : 1;
}

typedef void (*sig_fn)(void *, const void *, size_t, uint64_t *, uint64_t, int, int);
struct sized {
    const char *name;
    size_t esz;
    sig_fn blocking, nbi;
};
static const struct sized kinds[] = {
    {"mem", 1, shmem_putmem_signal, shmem_putmem_signal_nbi},
    {"8", 1, shmem_put8_signal, shmem_put8_signal_nbi},
    {"16", 2, shmem_put16_signal, shmem_put16_signal_nbi},
    {"32", 4, shmem_put32_signal, shmem_put32_signal_nbi},
    {"64", 8, shmem_put64_signal, shmem_put64_signal_nbi},
    {"128", 16, shmem_put128_signal, shmem_put128_signal_nbi},
};

/* One big transfer with SET, then NCHUNK transfers with ADD onto a nonzero
 * base, for the blocking (nbi == 0) or the _nbi form. */
static void test_sized(const struct sized *k, int nbi)
{
    const int right = mp_right(), left = mp_left();
    char what[96];
    const uint64_t t_big = mp_tag(k->name, 10 + (uint64_t)nbi);
    const uint64_t t_chunk = mp_tag(k->name, 20 + (uint64_t)nbi);
    const size_t nbig = BIG / k->esz, nchunk = CHUNK / k->esz;
    sig_fn put = nbi ? k->nbi : k->blocking;
    uint64_t base = sigval(mp_me, t_chunk) >> 8; /* ADD onto a random base */

    mp_poison(sdst, BIG + 2 * MAXELEM);
    sig[0] = 0;
    sig[1] = base;
    shmem_barrier_all();

    mp_fill(lsrc, nbig * k->esz, mp_me, t_big);
    put(sdst, lsrc, nbig, &sig[0], sigval(mp_me, t_big), SHMEM_SIGNAL_SET, right);
    if (nbi)
        shmem_quiet();
    snprintf(what, sizeof what, "shmem_put%s_signal%s SET", k->name, nbi ? "_nbi" : "");
    wait_signal(what, 0, sigval(left, t_big));
    mp_check_bytes(what, sdst, nbig * k->esz, left, t_big);
    mp_check_poison(what, sdst + nbig * k->esz, MAXELEM);
    shmem_barrier_all();

    mp_poison(sdst, BIG + 2 * MAXELEM);
    shmem_barrier_all();
    for (int c = 0; c < NCHUNK; c++) {
        mp_fill(lsrc, nchunk * k->esz, mp_me, t_chunk + (uint64_t)c);
        put(sdst + (size_t)c * nchunk * k->esz, lsrc, nchunk, &sig[1], (uint64_t)c + 1,
            SHMEM_SIGNAL_ADD, right);
        if (nbi)
            shmem_quiet(); /* lsrc is reused */
    }
    snprintf(what, sizeof what, "shmem_put%s_signal%s ADD", k->name, nbi ? "_nbi" : "");
    wait_signal(what, 1, base + NCHUNK * (NCHUNK + 1) / 2);
    for (int c = 0; c < NCHUNK; c++)
        mp_check_bytes(what, sdst + (size_t)c * nchunk * k->esz, nchunk * k->esz, left,
                       t_chunk + (uint64_t)c);
    mp_check_poison(what, sdst + NCHUNK * nchunk * k->esz, MAXELEM);
    shmem_barrier_all();
}

/* Typed: blocking SET on sig[0], _nbi ADD on sig[1] into a second region. */
#define DEF_TYPED(NAME, T, K)                                                   \
    static void typed_##NAME(void)                                              \
    {                                                                           \
        const int right = mp_right(), left = mp_left();                         \
        const uint64_t tag = mp_tag(#NAME, 1), tag2 = mp_tag(#NAME, 2);         \
        T *d1 = (T *)sdst, *d2 = (T *)sdst + NT + 1, *ls = (T *)lsrc;           \
        uint64_t s;                                                             \
        mp_poison(sdst, (2 * NT + 2) * sizeof(T));                              \
        sig[0] = 0;                                                             \
        sig[1] = 7;                                                             \
        shmem_barrier_all();                                                    \
        s = mp_pe_stream(mp_me, tag);                                           \
        for (int i = 0; i < NT; i++)                                            \
            ls[i] = MP_RAND(K, T, &s);                                          \
        shmem_##NAME##_put_signal(d1, ls, NT, &sig[0], sigval(mp_me, tag),      \
                                  SHMEM_SIGNAL_SET, right);                     \
        s = mp_pe_stream(mp_me, tag2);                                          \
        for (int i = 0; i < NT; i++) /* blocking: source reusable at once */    \
            ls[i] = MP_RAND(K, T, &s);                                          \
        shmem_##NAME##_put_signal_nbi(d2, ls, NT, &sig[1], 5, SHMEM_SIGNAL_ADD, right); \
        wait_signal("shmem_" #NAME "_put_signal SET", 0, sigval(left, tag));    \
        s = mp_pe_stream(left, tag);                                            \
        for (int i = 0; i < NT; i++)                                            \
            MP_EXPECT_VAL(T, "shmem_" #NAME "_put_signal payload", i,           \
                          MP_RAND(K, T, &s), d1[i]);                            \
        wait_signal("shmem_" #NAME "_put_signal_nbi ADD", 1, 12);               \
        s = mp_pe_stream(left, tag2);                                           \
        for (int i = 0; i < NT; i++)                                            \
            MP_EXPECT_VAL(T, "shmem_" #NAME "_put_signal_nbi payload", i,       \
                          MP_RAND(K, T, &s), d2[i]);                            \
        mp_check_poison("shmem_" #NAME "_put_signal guard", d1 + NT, sizeof(T)); \
        mp_check_poison("shmem_" #NAME "_put_signal_nbi guard", d2 + NT, sizeof(T)); \
        shmem_quiet();                                                          \
        shmem_barrier_all();                                                    \
    }
MP_RMA_TYPES(DEF_TYPED)

/* Token ring: hop h goes from PE h % npes to PE (h + 1) % npes and carries
 * token(h + 1) = mix(token(h), h). Even laps signal with SET (value lap + 1),
 * odd laps with ADD 1 (and the _nbi form), so a PE's signal counts the tokens
 * it has received. */
static uint64_t token_at(uint64_t hop)
{
    uint64_t t = mp_seeds[0];
    for (uint64_t h = 0; h < hop; h++)
        t = mp_splitmix64(t ^ h);
    return t;
}

static void ring(void)
{
    const int npes = mp_npes, me = mp_me, right = mp_right();
    uint64_t *tok = (uint64_t *)shmem_malloc(sizeof(uint64_t));
    uint64_t *rsig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    MP_CHECK(tok && rsig, "shmem_malloc (expected non-NULL got NULL)");
    shmem_barrier_all();
    for (int lap = 0; lap < LAPS; lap++) {
        uint64_t hop_in = (uint64_t)lap * (uint64_t)npes + (uint64_t)me; /* hop that reaches me */
        uint64_t t;
        if (me == 0 && lap == 0) {
            t = token_at(0);
        } else {
            if (me == 0)
                hop_in = (uint64_t)lap * (uint64_t)npes;
            uint64_t want = (uint64_t)lap + (me == 0 ? 0 : 1);
            uint64_t got = shmem_signal_wait_until(rsig, SHMEM_CMP_GE, want);
            if (got != want)
                mp_fail("ring lap %d: signal (expected %" PRIu64 " got %" PRIu64 ")", lap, want,
                        got);
            t = *tok;
            uint64_t e = token_at(hop_in);
            if (t != e)
                mp_fail("ring lap %d hop %" PRIu64 ": token (expected 0x%016" PRIx64
                        " got 0x%016" PRIx64 ")", lap, hop_in, e, t);
        }
        uint64_t next = mp_splitmix64(t ^ hop_in);
        /* whoever receives this hop has then seen lap + 1 tokens (PE 0's first
         * one arrives at the end of lap 0), so its signal goes lap -> lap + 1 */
        if (lap % 2 == 0)
            shmem_uint64_put_signal(tok, &next, 1, rsig, (uint64_t)lap + 1, SHMEM_SIGNAL_SET,
                                    right);
        else {
            shmem_uint64_put_signal_nbi(tok, &next, 1, rsig, 1, SHMEM_SIGNAL_ADD, right);
            shmem_quiet();
        }
    }
    if (me == 0) {
        uint64_t want = LAPS, got = shmem_signal_wait_until(rsig, SHMEM_CMP_GE, want);
        if (got != want)
            mp_fail("ring end: signal (expected %" PRIu64 " got %" PRIu64 ")", want, got);
        uint64_t e = token_at((uint64_t)LAPS * (uint64_t)npes);
        if (*tok != e)
            mp_fail("ring end: token after %d hops (expected 0x%016" PRIx64 " got 0x%016" PRIx64
                    ")", LAPS * npes, e, *tok);
    }
    shmem_barrier_all();
    shmem_free(rsig);
    shmem_free(tok);
}

int main(void)
{
    mp_init("signal");
    sdst = (unsigned char *)shmem_malloc(BIG + 2 * MAXELEM);
    sig = (uint64_t *)shmem_malloc(4 * sizeof(uint64_t));
    lsrc = (unsigned char *)malloc(BIG + 2 * MAXELEM);
    MP_CHECK(sdst && sig && lsrc, "allocation (expected non-NULL got NULL)");

    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        test_sized(&kinds[i], 0);
        test_sized(&kinds[i], 1);
    }
#define RUN(NAME, T, K) typed_##NAME();
    MP_RMA_TYPES(RUN)
#undef RUN
    ring();

    free(lsrc);
    shmem_free(sig);
    shmem_free(sdst);
    mp_pass();
    shmem_finalize();
    return 0;
}
