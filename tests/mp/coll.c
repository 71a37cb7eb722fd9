/* Team collectives on WORLD and on a strided team that skips PEs: broadcast, collect (different
 * counts per PE), fcollect, alltoall, alltoalls, reductions (several types and ops, in place too),
 * back to back with no sync in between. Every output element is checked against the value every
 * PE can compute from the per-PE seeds. */
#include "mp_util.h"

#define NMAX 1000

static uint64_t val(int pe, uint64_t tag, size_t i) { return mp_splitmix64(mp_seeds[pe] ^ mp_tag("coll", tag) ^ i); }

static uint64_t *src, *dst; /* symmetric, allocated once by every PE */

static void run(shmem_team_t team, const char *tname, int round) {
    const int tn = shmem_team_n_pes(team), ti = shmem_team_my_pe(team);
    if (ti < 0) return;
    int world_of[64];
    for (int i = 0; i < tn; ++i) world_of[i] = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
    const uint64_t tag = (uint64_t)round * 100;
    const size_t cnt = 1 + (size_t)(val(0, tag, 7) % NMAX);

    /* broadcast from a random root, typed */
    const int root = (int)(val(0, tag + 1, 0) % (uint64_t)tn);
    for (size_t i = 0; i < cnt; ++i) src[i] = val(world_of[ti], tag + 1, i);
    mp_poison(dst, cnt * 8);
    shmem_uint64_broadcast(team, dst, src, cnt, root);
    for (size_t i = 0; i < cnt; ++i)
        if (dst[i] != val(world_of[root], tag + 1, i)) mp_fail("%s broadcast root %d: element %zu", tname, root, i);

    /* fcollect */
    for (size_t i = 0; i < cnt; ++i) src[i] = val(world_of[ti], tag + 2, i);
    mp_poison(dst, cnt * 8 * (size_t)tn);
    shmem_uint64_fcollect(team, dst, src, cnt);
    for (int p = 0; p < tn; ++p)
        for (size_t i = 0; i < cnt; ++i)
            if (dst[(size_t)p * cnt + i] != val(world_of[p], tag + 2, i)) mp_fail("%s fcollect: block %d elem %zu", tname, p, i);

    /* collect: member p contributes p+1 + (tag % 5) elements */
    const size_t mine = (size_t)ti + 1 + tag % 5;
    for (size_t i = 0; i < mine; ++i) src[i] = val(world_of[ti], tag + 3, i);
    mp_poison(dst, NMAX * 8);
    shmem_collectmem(team, dst, src, mine * 8);
    size_t off = 0;
    for (int p = 0; p < tn; ++p) {
        const size_t c = (size_t)p + 1 + tag % 5;
        for (size_t i = 0; i < c; ++i)
            if (dst[off + i] != val(world_of[p], tag + 3, i)) mp_fail("%s collect: member %d elem %zu", tname, p, i);
        off += c;
    }

    /* alltoall: block for member j = val(me, tag+4, j*cnt + i) */
    const size_t bc = 1 + cnt % 64;
    for (int j = 0; j < tn; ++j)
        for (size_t i = 0; i < bc; ++i) src[(size_t)j * bc + i] = val(world_of[ti], tag + 4, (size_t)j * bc + i);
    mp_poison(dst, bc * 8 * (size_t)tn);
    shmem_uint64_alltoall(team, dst, src, bc);
    for (int p = 0; p < tn; ++p)
        for (size_t i = 0; i < bc; ++i)
            if (dst[(size_t)p * bc + i] != val(world_of[p], tag + 4, (size_t)ti * bc + i))
                mp_fail("%s alltoall: from member %d elem %zu", tname, p, i);

    /* alltoalls, strides 3 (dest) and 2 (source) */
    const size_t ne = 1 + cnt % 7;
    for (size_t k = 0; k < (size_t)tn * ne; ++k) src[k * 2] = val(world_of[ti], tag + 5, k);
    mp_poison(dst, ((size_t)tn * ne * 3) * 8);
    shmem_uint64_alltoalls(team, dst, src, 3, 2, ne);
    for (int p = 0; p < tn; ++p)
        for (size_t e = 0; e < ne; ++e)
            if (dst[((size_t)p * ne + e) * 3] != val(world_of[p], tag + 5, (size_t)ti * ne + e))
                mp_fail("%s alltoalls: from member %d elem %zu", tname, p, e);

    /* reductions */
    int *ia = (int *)src, *ib = (int *)dst;
    const size_t rn = cnt;
    for (size_t i = 0; i < rn; ++i) ia[i] = (int)(val(world_of[ti], tag + 6, i) % 1000) - 500;
    shmem_int_sum_reduce(team, ib, ia, rn);
    for (size_t i = 0; i < rn; ++i) {
        long s = 0;
        for (int p = 0; p < tn; ++p) s += (int)(val(world_of[p], tag + 6, i) % 1000) - 500;
        if (ib[i] != (int)s) mp_fail("%s int sum: elem %zu got %d expected %ld", tname, i, ib[i], s);
    }
    shmem_int_max_reduce(team, ib, ia, rn);
    for (size_t i = 0; i < rn; ++i) {
        int m = -1000000;
        for (int p = 0; p < tn; ++p) { int v = (int)(val(world_of[p], tag + 6, i) % 1000) - 500; m = v > m ? v : m; }
        if (ib[i] != m) mp_fail("%s int max: elem %zu", tname, i);
    }
    unsigned long *ua = (unsigned long *)src, *ub = (unsigned long *)dst;
    for (size_t i = 0; i < rn; ++i) ua[i] = val(world_of[ti], tag + 7, i);
    shmem_ulong_xor_reduce(team, ub, ua, rn);
    for (size_t i = 0; i < rn; ++i) {
        unsigned long x = 0;
        for (int p = 0; p < tn; ++p) x ^= val(world_of[p], tag + 7, i);
        if (ub[i] != x) mp_fail("%s ulong xor: elem %zu", tname, i);
    }
    /* in place: dest == source */
    double *da = (double *)src;
    for (size_t i = 0; i < rn; ++i) da[i] = (double)(val(world_of[ti], tag + 8, i) % 4096) * 0.25;
    shmem_double_sum_reduce(team, da, da, rn);
    for (size_t i = 0; i < rn; ++i) {
        double s = 0;
        for (int p = 0; p < tn; ++p) s += (double)(val(world_of[p], tag + 8, i) % 4096) * 0.25;
        if (da[i] != s) mp_fail("%s double sum in place: elem %zu got %g expected %g", tname, i, da[i], s);
    }
}

int main(void) {
    mp_init("coll");
    const int n = mp_npes;
    src = shmem_malloc(NMAX * 64 * sizeof(uint64_t));
    dst = shmem_malloc(NMAX * 64 * sizeof(uint64_t));
    shmem_team_t odd;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    for (int round = 0; round < 20; ++round) {
        run(SHMEM_TEAM_WORLD, "WORLD", round);
        run(odd, "odd PEs", round); /* only the odd PEs take part (others return at once) */
    }
    mp_pass();
    if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
    shmem_finalize();
    return 0;
}
