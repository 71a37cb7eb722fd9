/* half and bfloat16 reductions and reduce-scatter from the host (shmemx_half_OP_reduce,
 * shmemx_bfloat16_OP_reducescatter, ...; sum, prod, min, max) on CPU PEs, on the world team and a
 * strided team, nreduce 1, 7 and 1000: fresh random values from every member, poisoned dests, and
 * every element recomputed here in team order, each step in float rounded to nearest even to the
 * type, with conversions written independently of the library's (frexp/ldexp/nearbyint). */
#include "mp_util.h"

#include <math.h>
#include <shmemx.h>

#define MAXN 1000

/* A 16-bit float with mbits stored mantissa bits and exponent bias: half (10, 15), bfloat16 (7, 127). */
static float from16(uint16_t v, int mbits, int bias)
{
    const int e = (v >> mbits) & ((1 << (15 - mbits)) - 1), m = v & ((1 << mbits) - 1);
    const double r = e ? ldexp((1 << mbits) + m, e - bias - mbits) : ldexp(m, 1 - bias - mbits);
    return (float)((v & 0x8000) ? -r : r);
}

static uint16_t to16(float f, int mbits, int bias)
{
    const uint16_t s = signbit(f) ? 0x8000 : 0;
    const double a = fabs((double)f);
    if (a == 0)
        return s;
    int e;
    frexp(a, &e);
    int exp = e - 1;
    if (exp < 1 - bias)
        exp = 1 - bias; /* subnormal: the smallest exponent's scale */
    double q = nearbyint(a / ldexp(1.0, exp - mbits));
    if (q >= (double)(2 << mbits)) {
        exp++;
        q = 1 << mbits;
    }
    if (exp > bias)
        return s | (uint16_t)(((1 << (15 - mbits)) - 1) << mbits); /* infinity */
    if (q < (1 << mbits))
        return s | (uint16_t)q;
    return s | (uint16_t)((exp + bias) << mbits) | (uint16_t)(q - (1 << mbits));
}

static float h2f(uint16_t v) { return from16(v, 10, 15); }
static uint16_t f2h(float f) { return to16(f, 10, 15); }
static float b2f(uint16_t v) { return from16(v, 7, 127); }
static uint16_t f2b(float f) { return to16(f, 7, 127); }

typedef int (*red_fn)(shmem_team_t, void *, const void *, size_t);
enum { OP_MAX, OP_MIN, OP_SUM, OP_PROD };
static const char *op_names[] = {"max", "min", "sum", "prod"};

#define WRAP(N, OP, FAM)                                                                     \
    static int N##_##OP##_##FAM(shmem_team_t t, void *d, const void *s, size_t n)            \
    {                                                                                        \
        return shmemx_##N##_##OP##_##FAM(t, (shmemx_##N##_t *)d, (const shmemx_##N##_t *)s, n); \
    }
#define WRAP_ALL(N)                                                                          \
    WRAP(N, max, reduce) WRAP(N, min, reduce) WRAP(N, sum, reduce) WRAP(N, prod, reduce)     \
    WRAP(N, max, reducescatter) WRAP(N, min, reducescatter) WRAP(N, sum, reducescatter)      \
    WRAP(N, prod, reducescatter)
WRAP_ALL(half)
WRAP_ALL(bfloat16)

static const red_fn fns[2][2][4] = {
    {{half_max_reduce, half_min_reduce, half_sum_reduce, half_prod_reduce},
     {half_max_reducescatter, half_min_reducescatter, half_sum_reducescatter, half_prod_reducescatter}},
    {{bfloat16_max_reduce, bfloat16_min_reduce, bfloat16_sum_reduce, bfloat16_prod_reduce},
     {bfloat16_max_reducescatter, bfloat16_min_reducescatter, bfloat16_sum_reducescatter,
      bfloat16_prod_reducescatter}},
};

/* member m's element i of its source (kind 0 half, 1 bfloat16): a value in [-3, 3) */
static uint16_t value(int kind, int world_pe, uint64_t tag, size_t i)
{
    uint64_t s = mp_pe_stream(world_pe, tag ^ (i * 0x9E3779B97F4A7C15ull));
    const float f = (float)((double)(mp_rand64(&s) >> 11) / 9007199254740992.0 * 6.0 - 3.0);
    return kind ? f2b(f) : f2h(f);
}

static uint16_t apply(int kind, int op, uint16_t a, uint16_t b)
{
    const float fa = kind ? b2f(a) : h2f(a), fb = kind ? b2f(b) : h2f(b);
    switch (op) {
    case OP_MAX: return fa < fb ? b : a;
    case OP_MIN: return fb < fa ? b : a;
    case OP_SUM: return kind ? f2b(fa + fb) : f2h(fa + fb);
    default: return kind ? f2b(fa * fb) : f2h(fa * fb);
    }
}

static void run(shmem_team_t team, int start, int stride, int size, uint16_t *src, uint16_t *dst)
{
    const int me = shmem_team_my_pe(team);
    const size_t ns[] = {1, 7, MAXN};
    for (int kind = 0; kind < 2; kind++)
        for (int scatter = 0; scatter < 2; scatter++)
            for (int op = 0; op < 4; op++)
                for (int k = 0; k < 3; k++) {
                    const size_t n = ns[k];
                    const uint64_t tag = mp_tag("reduce16", (uint64_t)(((kind * 2 + scatter) * 4 + op) * 4 + k));
                    const size_t total = scatter ? n * (size_t)size : n;
                    for (size_t i = 0; i < total; i++)
                        src[i] = value(kind, mp_me, tag, i);
                    mp_poison(dst, n * 2);
                    shmem_team_sync(team);
                    fns[kind][scatter][op](team, dst, src, n);
                    for (size_t i = 0; i < n; i++) {
                        const size_t idx = scatter ? (size_t)me * n + i : i;
                        uint16_t e = value(kind, start, tag, idx);
                        for (int m = 1; m < size; m++)
                            e = apply(kind, op, e, value(kind, start + m * stride, tag, idx));
                        if (dst[i] != e)
                            mp_fail("shmemx_%s_%s_%s, team of %d, nreduce %zu, element %zu (expected 0x%04x got "
                                    "0x%04x)",
                                    kind ? "bfloat16" : "half", op_names[op], scatter ? "reducescatter" : "reduce",
                                    size, n, i, e, dst[i]);
                    }
                    shmem_team_sync(team);
                }
}

int main(void)
{
    mp_init("reduce16");
    uint16_t *src = (uint16_t *)shmem_malloc((size_t)mp_npes * MAXN * 2);
    uint16_t *dst = (uint16_t *)shmem_malloc(MAXN * 2);
    MP_CHECK(src && dst, "shmem_malloc (expected non-NULL got NULL)");
    run(SHMEM_TEAM_WORLD, 0, 1, mp_npes, src, dst);
    const int start = mp_npes > 2 ? 1 : 0, size = mp_npes > 2 ? mp_npes / 2 : 1;
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 2, size, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID)
        run(odd, start, 2, size, src, dst);
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    mp_pass();
    shmem_finalize();
    return 0;
}
