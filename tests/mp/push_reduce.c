/* Small team reductions (pushed to the members: up to 256 bytes, on SHMEM_TEAM_WORLD up to 32 KiB,
 * and there at any size up to 4 PEs, in 32 KiB pieces with several in flight) and larger ones
 * (pulled), in turn: fresh payloads every round from a hash of (round, pe, element), expected values computed
 * from every PE's payload, dest poisoned before each call, in place every third round; floating
 * sums must be bit-identical on every PE; on SHMEM_TEAM_WORLD, on a team of the even PEs, and
 * through the deprecated active-set form over all PEs. Run at any PE count (odd ones fold). */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAXN 140000 /* longs: up to 1.1 MB: past one 32 KiB piece, and many pieces (box reuse) */
#define ROUNDS 120

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}
static long val(int round, int pe, int i) { return (long)(mix(((uint64_t)round << 40) ^ ((uint64_t)pe << 20) ^ (uint64_t)i) % 100000); }
static double dval(int round, int pe, int i) { return (double)val(round, pe, i) / 7.0 + 0.1; }

static long src[MAXN], dst[MAXN], psync[SHMEM_REDUCE_SYNC_SIZE], pwrk[MAXN / 2 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double dsrc[MAXN], ddst[MAXN];
static long bits[2], bits_out[2];
static int errors;

static void fail(int me, const char *what, int round, int i, long got, long want) {
    if (errors++ < 10) fprintf(stderr, "pe %d: %s round %d element %d: got %ld, want %ld\n", me, what, round, i, got, want);
}

int main(void) {
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
    shmem_team_t evens = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    shmem_barrier_all();
    static const int sizes[] = {1, 2, 3, 7, 8, 17, 32, 33, 48, 512, 2048, 2049, 4096, 4097, 20000, 139999};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    for (int round = 0; round < ROUNDS; round++) {
        const int n = sizes[round % nsizes];
        const int inplace = round % 3 == 0;
        const int kind = round % 4; /* 0 world sum, 1 world max or min, 2 evens sum, 3 active set sum */
        const int member = kind != 2 || evens != SHMEM_TEAM_INVALID;
        for (int i = 0; i < MAXN; i++) {
            src[i] = val(round, me, i);
            dst[i] = -12345;
        }
        long *out = inplace ? src : dst;
        int first = 0, stride = 1, members = npes;
        if (kind == 0) shmem_long_sum_reduce(SHMEM_TEAM_WORLD, out, src, n);
        else if (kind == 1 && round % 8 == 1) shmem_long_max_reduce(SHMEM_TEAM_WORLD, out, src, n);
        else if (kind == 1) shmem_long_min_reduce(SHMEM_TEAM_WORLD, out, src, n);
        else if (kind == 2) {
            if (member) shmem_long_sum_reduce(evens, out, src, n);
            stride = 2, members = (npes + 1) / 2;
        } else {
            shmem_long_sum_to_all(out, src, n, 0, 0, npes, pwrk, psync);
        }
        for (int i = 0; i < n && member; i++) {
            long want = kind == 1 ? val(round, first, i) : 0;
            for (int k = 0; k < members; k++) {
                const long v = val(round, first + k * stride, i);
                if (kind == 1 && round % 8 == 1) want = v > want ? v : want;
                else if (kind == 1) want = v < want ? v : want;
                else want += v;
            }
            if (out[i] != want) fail(me, "long reduction", round, i, out[i], want);
        }
        if (!inplace && member)
            for (int i = n; i < MAXN; i++)
                if (dst[i] != -12345) fail(me, "past nelems", round, i, dst[i], -12345);
        /* double sums: every PE gets the same bits, close to the exact sum */
        for (int i = 0; i < MAXN; i++) {
            dsrc[i] = dval(round, me, i);
            ddst[i] = -1.0;
        }
        shmem_double_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, n);
        double exact = 0;
        for (int k = 0; k < npes; k++) exact += dval(round, k, n - 1);
        if (ddst[n - 1] < exact * (1 - 1e-12) || ddst[n - 1] > exact * (1 + 1e-12))
            fail(me, "double sum", round, n - 1, (long)ddst[n - 1], (long)exact);
        memcpy(&bits[0], &ddst[n - 1], sizeof(long));
        bits[1] = -bits[0];
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, bits_out, bits, 2); /* max of x and of -x: equal iff all equal */
        if (bits_out[0] != bits[0] || bits_out[1] != bits[1])
            fail(me, "double sum bits differ between PEs", round, n - 1, bits_out[0], bits[0]);
    }
    int total = 0;
    static int all_errors;
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &all_errors, &errors, 1);
    total = all_errors;
    if (me == 0) printf("push_reduce: %d PEs, %d rounds: %s\n", npes, ROUNDS, total ? "FAILED" : "ok");
    if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
    shmem_finalize();
    return total ? 1 : 0;
}
