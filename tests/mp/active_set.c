/* The deprecated active-set collectives with pSync/pWrk, as older programs use them: barrier,
 * broadcast64 (root's dest untouched), fcollect32, collect64, alltoall64, and *_to_all. */
#include "mp_util.h"

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pSync2[SHMEM_BCAST_SYNC_SIZE];
static int pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static int64_t a64[256], b64[256 * 64];
static int32_t a32[256], b32[256 * 64];
static int isrc[64], idst[64];

int main(void) {
    mp_init("active_set");
    const int n = mp_npes, me = mp_me;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) pSync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) pSync2[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (int round = 0; round < 30; ++round) {
        shmem_barrier(0, 0, n, pSync);
        /* broadcast64 from root = round % n over all PEs */
        const int root = round % n;
        for (int i = 0; i < 256; ++i) a64[i] = (int64_t)mp_splitmix64(mp_seeds[me] ^ (uint64_t)(round * 1000 + i));
        for (int i = 0; i < 256; ++i) b64[i] = -1;
        shmem_broadcast64(b64, a64, 256, root, 0, 0, n, pSync2);
        for (int i = 0; i < 256; ++i) {
            int64_t want = me == root ? -1 : (int64_t)mp_splitmix64(mp_seeds[root] ^ (uint64_t)(round * 1000 + i));
            if (b64[i] != want) mp_fail("broadcast64 round %d elem %d (root %d)", round, i, root);
        }
        /* fcollect32 */
        for (int i = 0; i < 16; ++i) a32[i] = me * 100 + i + round;
        shmem_fcollect32(b32, a32, 16, 0, 0, n, pSync);
        for (int p = 0; p < n; ++p)
            for (int i = 0; i < 16; ++i)
                if (b32[p * 16 + i] != p * 100 + i + round) mp_fail("fcollect32 round %d from %d elem %d", round, p, i);
        /* collect64: PE p contributes p+1 elements */
        for (int i = 0; i <= me; ++i) a64[i] = me * 1000 + i + round;
        shmem_collect64(b64, a64, (size_t)me + 1, 0, 0, n, pSync2);
        int off = 0;
        for (int p = 0; p < n; ++p)
            for (int i = 0; i <= p; ++i, ++off)
                if (b64[off] != p * 1000 + i + round) mp_fail("collect64 round %d from %d elem %d", round, p, i);
        /* alltoall64: 4 elements per pair */
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < 4; ++i) a64[j * 4 + i] = me * 10000 + j * 100 + i + round;
        shmem_alltoall64(b64, a64, 4, 0, 0, n, pSync);
        for (int p = 0; p < n; ++p)
            for (int i = 0; i < 4; ++i)
                if (b64[p * 4 + i] != p * 10000 + me * 100 + i + round) mp_fail("alltoall64 round %d from %d", round, p);
        /* int sum / max to_all */
        for (int i = 0; i < 64; ++i) isrc[i] = me * 7 + i - round;
        shmem_int_sum_to_all(idst, isrc, 64, 0, 0, n, pWrk, pSync);
        for (int i = 0; i < 64; ++i) {
            int s = 0;
            for (int p = 0; p < n; ++p) s += p * 7 + i - round;
            if (idst[i] != s) mp_fail("int_sum_to_all round %d elem %d: %d expected %d", round, i, idst[i], s);
        }
        shmem_int_max_to_all(idst, isrc, 64, 0, 0, n, pWrk, pSync2);
        for (int i = 0; i < 64; ++i)
            if (idst[i] != (n - 1) * 7 + i - round) mp_fail("int_max_to_all round %d elem %d", round, i);
    }
    /* pSync is back at SHMEM_SYNC_VALUE after the calls */
    shmem_barrier_all();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i)
        if (pSync[i] != SHMEM_SYNC_VALUE) mp_fail("pSync[%d] = %ld after the collectives (expected %ld)", i, pSync[i], (long)SHMEM_SYNC_VALUE);
    mp_pass();
    shmem_finalize();
    return 0;
}
