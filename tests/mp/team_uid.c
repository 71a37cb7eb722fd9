/* Teams from a unique id (shmemx_team_get_uniqueid / shmemx_team_init, NVSHMEM's
 * nvshmemx_team_get_uniqueid / nvshmemx_team_init): no parent team. Each round shuffles the PEs (a
 * permutation every PE derives from PE 0's seed) and cuts them into groups of random sizes; a
 * group's first PE makes an id and puts it to the others, who wait for it (no world barrier), so
 * the groups form at the same time. Each PE passes its position in the shuffled group: the team's
 * order is that, not world order. Checked per team: n_pes, my_pe, translate_pe to the world, a
 * sum reduction of fresh values (every member's contribution), a broadcast of random payload from
 * the team's index 0, team_sync; destroyed at the end of the round (slots are reused over 12
 * rounds, more than the free slots). Bad arguments return nonzero with SHMEM_TEAM_INVALID. */
#include "mp_util.h"

#include <shmemx.h>

#define ROUNDS 12
#define BCAST 16

static uint64_t g_uid[ROUNDS]; /* the group's id, put here by the group's first PE */

int main(void)
{
    mp_init("team_uid");
    const int n = mp_npes, me = mp_me;
    int64_t *val = shmem_malloc(sizeof(int64_t));
    int64_t *sum = shmem_malloc(sizeof(int64_t));
    uint64_t *bsrc = shmem_malloc(BCAST * sizeof(uint64_t));
    uint64_t *bdst = shmem_malloc(BCAST * sizeof(uint64_t));
    int *perm = malloc((size_t)n * sizeof(int));
    int *group = malloc((size_t)n * sizeof(int)); /* group number of each position */
    MP_CHECK(val && sum && bsrc && bdst && perm && group, "allocation failed");
    shmem_barrier_all();

    for (int r = 0; r < ROUNDS; r++) {
        uint64_t s = mp_stream(mp_seeds[0], mp_tag("team_uid", (uint64_t)r));
        for (int i = 0; i < n; i++)
            perm[i] = i;
        for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
            const int j = (int)(mp_rand64(&s) % (uint64_t)(i + 1));
            const int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        /* groups: consecutive runs of perm with random lengths */
        int ng = 0;
        for (int at = 0; at < n; ng++) {
            const int len = 1 + (int)(mp_rand64(&s) % (uint64_t)(n - at));
            for (int k = 0; k < len; k++)
                group[at + k] = ng;
            at += len;
        }
        int pos = -1;
        for (int i = 0; i < n; i++)
            if (perm[i] == me)
                pos = i;
        int first = pos;
        while (first > 0 && group[first - 1] == group[pos])
            first--;
        int size = 0;
        while (first + size < n && group[first + size] == group[pos])
            size++;
        const int idx = pos - first;

        if (idx == 0) {
            uint64_t id = 0;
            MP_CHECK(shmemx_team_get_uniqueid(&id) == 0 && id != 0, "round %d: shmemx_team_get_uniqueid gave 0", r);
            g_uid[r] = id;
            for (int k = 1; k < size; k++)
                shmem_uint64_p(&g_uid[r], id, perm[first + k]);
            shmem_quiet();
        } else {
            shmem_uint64_wait_until(&g_uid[r], SHMEM_CMP_NE, 0);
        }
        shmem_team_t team = SHMEM_TEAM_INVALID;
        shmem_team_config_t cfg = {.num_contexts = 1 + r % 3};
        const int rc = shmemx_team_init(g_uid[r], size, idx, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &team);
        MP_CHECK(rc == 0 && team != SHMEM_TEAM_INVALID, "round %d: shmemx_team_init(size %d, idx %d) returned %d", r,
                 size, idx, rc);
        MP_CHECK_EQ("shmem_team_n_pes", size, shmem_team_n_pes(team));
        MP_CHECK_EQ("shmem_team_my_pe", idx, shmem_team_my_pe(team));
        for (int k = 0; k < size; k++)
            MP_CHECK_EQ("shmem_team_translate_pe to the world", perm[first + k],
                        shmem_team_translate_pe(team, k, SHMEM_TEAM_WORLD));
        shmem_team_config_t got = {0};
        MP_CHECK(shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0, "round %d: get_config failed", r);
        MP_CHECK_EQ("num_contexts of the config", cfg.num_contexts, got.num_contexts);

        /* a sum of fresh values: each member's (world pe, round, its draw) */
        uint64_t vs = mp_stream(mp_seeds[0], mp_tag("team_uid values", (uint64_t)r));
        int64_t expect = 0;
        for (int i = 0; i < n; i++) {
            const int64_t v = (int64_t)(mp_rand64(&vs) % 1000003) * (perm[i] + 1);
            if (perm[i] == me)
                *val = v;
            if (group[i] == group[pos])
                expect += v;
        }
        *sum = -1;
        MP_CHECK(shmem_int64_sum_reduce(team, sum, val, 1) == 0, "round %d: sum_reduce failed", r);
        MP_CHECK_EQ("sum over the team from a unique id", expect, *sum);

        /* a broadcast from the team's index 0 (the group's first PE) */
        mp_fill(bsrc, BCAST * sizeof(uint64_t), perm[first], mp_tag("team_uid bcast", (uint64_t)r));
        if (idx != 0)
            mp_poison(bsrc, BCAST * sizeof(uint64_t));
        mp_poison(bdst, BCAST * sizeof(uint64_t));
        MP_CHECK(shmem_uint64_broadcast(team, bdst, bsrc, BCAST, 0) == 0, "round %d: broadcast failed", r);
        uint64_t want[BCAST];
        mp_fill(want, sizeof want, perm[first], mp_tag("team_uid bcast", (uint64_t)r));
        for (int k = 0; k < BCAST; k++)
            MP_CHECK_EQ("broadcast from the team's index 0", want[k], bdst[k]);
        shmem_team_sync(team);
        shmem_team_destroy(team);
        shmem_barrier_all(); /* the next round's ids go to fresh words; nothing else needs it */
    }

    /* bad arguments: nonzero, no team (each reported on stderr naming the PE) */
    shmem_team_t t = SHMEM_TEAM_WORLD;
    MP_CHECK(shmemx_team_init(0, 1, 0, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID, "id 0 was accepted");
    t = SHMEM_TEAM_WORLD;
    MP_CHECK(shmemx_team_init(12345, 0, 0, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID, "npes 0 was accepted");
    t = SHMEM_TEAM_WORLD;
    MP_CHECK(shmemx_team_init(12345, n + 1, 0, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID, "npes > n was accepted");
    t = SHMEM_TEAM_WORLD;
    MP_CHECK(shmemx_team_init(12345, 1, 1, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID, "index >= npes was accepted");
    /* a one-PE team of this PE alone works */
    uint64_t solo = 0;
    shmemx_team_get_uniqueid(&solo);
    MP_CHECK(shmemx_team_init(solo, 1, 0, NULL, 0, &t) == 0 && shmem_team_n_pes(t) == 1, "a one-PE team failed");
    shmem_team_destroy(t);

    free(perm);
    free(group);
    shmem_free(val);
    shmem_free(sum);
    shmem_free(bsrc);
    shmem_free(bdst);
    mp_pass();
    shmem_finalize();
    return 0;
}
