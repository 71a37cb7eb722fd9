/* Typed RMA for every type of the OpenSHMEM 1.5 standard RMA type table:
 * shmem_TYPE_{put,get,p,g,iput,iget,put_nbi,get_nbi}. Each PE writes to its
 * right neighbour and reads from its left one, on shmem_malloc'd buffers;
 * destinations are poisoned first and every element (plus guard elements
 * and strided gaps) is checked afterwards. */
#include "mp_util.h"

#define N 1000     /* contiguous elements */
#define NS 300     /* strided elements */
#define DST_STRIDE 3
#define SRC_STRIDE 2
#define NP 64      /* elements moved with p / g */
#define MAXELEM 16 /* sizeof(long double) on the usual ABIs */
#define SLOTS (N + 2) /* guard + N elements + guard; N >= NS * DST_STRIDE */
#define BUFBYTES ((size_t)SLOTS * MAXELEM)

enum { OP_PUT, OP_SRC, OP_P, OP_IPUT, OP_NBI };

static unsigned char *sdst; /* symmetric: written by the left PE */
static unsigned char *ssrc; /* symmetric: read by the right PE */
static unsigned char *lsrc; /* private */
static unsigned char *ldst; /* private */

MP_RMA_TYPES(MP_DEF_TYPED_HELPERS)

#define DEF_TEST(NAME, T, K)                                                    \
    static void test_##NAME(void)                                               \
    {                                                                           \
        const int right = mp_right(), left = mp_left();                         \
        T *d = (T *)sdst + 1, *src = (T *)ssrc, *ls = (T *)lsrc, *ld = (T *)ldst + 1; \
        const uint64_t t_put = mp_tag(#NAME, OP_PUT), t_src = mp_tag(#NAME, OP_SRC); \
        const uint64_t t_p = mp_tag(#NAME, OP_P), t_iput = mp_tag(#NAME, OP_IPUT); \
        const uint64_t t_nbi = mp_tag(#NAME, OP_NBI);                           \
                                                                                \
        mpt_fill_##NAME(src, N, mp_me, t_src);                                  \
        mp_poison(sdst, BUFBYTES);                                              \
        shmem_barrier_all();                                                    \
                                                                                \
        /* put; the source may be reused as soon as the call returns */         \
        mpt_fill_##NAME(ls, N, mp_me, t_put);                                   \
        shmem_##NAME##_put(d, ls, N, right);                                    \
        mp_poison(ls, N * sizeof(T));                                           \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_" #NAME "_put", d, N, 1, 1, left, t_put);       \
                                                                                \
        /* get */                                                               \
        mp_poison(ldst, BUFBYTES);                                              \
        shmem_##NAME##_get(ld, src, N, left);                                   \
        mpt_check_##NAME("shmem_" #NAME "_get", ld, N, 1, 1, left, t_src);      \
                                                                                \
        /* p */                                                                 \
        mp_poison(sdst, BUFBYTES);                                              \
        shmem_barrier_all();                                                    \
        {                                                                       \
            uint64_t s = mp_pe_stream(mp_me, t_p);                              \
            for (size_t i = 0; i < NP; i++)                                     \
                shmem_##NAME##_p(d + i, MP_RAND(K, T, &s), right);              \
        }                                                                       \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_" #NAME "_p", d, NP, 1, 1, left, t_p);          \
                                                                                \
        /* g */                                                                 \
        mp_poison(ldst, BUFBYTES);                                              \
        for (size_t i = 0; i < NP; i++)                                         \
            ld[i] = shmem_##NAME##_g(src + i, left);                            \
        mpt_check_##NAME("shmem_" #NAME "_g", ld, NP, 1, 1, left, t_src);       \
                                                                                \
        /* iput: dest stride 3, source stride 2 */                              \
        mp_poison(sdst, BUFBYTES);                                              \
        shmem_barrier_all();                                                    \
        mpt_fill_##NAME(ls, NS * SRC_STRIDE, mp_me, t_iput);                    \
        shmem_##NAME##_iput(d, ls, DST_STRIDE, SRC_STRIDE, NS, right);          \
        mp_poison(ls, NS * SRC_STRIDE * sizeof(T));                             \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_" #NAME "_iput", d, NS, DST_STRIDE, SRC_STRIDE, left, t_iput); \
                                                                                \
        /* iget: dest stride 2, source stride 3 */                              \
        mp_poison(ldst, BUFBYTES);                                              \
        shmem_##NAME##_iget(ld, src, SRC_STRIDE, DST_STRIDE, NS, left);         \
        mpt_check_##NAME("shmem_" #NAME "_iget", ld, NS, SRC_STRIDE, DST_STRIDE, left, t_src); \
                                                                                \
        /* put_nbi: source untouched until shmem_quiet */                       \
        mp_poison(sdst, BUFBYTES);                                              \
        shmem_barrier_all();                                                    \
        mpt_fill_##NAME(ls, N, mp_me, t_nbi);                                   \
        shmem_##NAME##_put_nbi(d, ls, N, right);                                \
        shmem_quiet();                                                          \
        mp_poison(ls, N * sizeof(T));                                           \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_" #NAME "_put_nbi", d, N, 1, 1, left, t_nbi);   \
                                                                                \
        /* get_nbi: destination valid after shmem_quiet */                      \
        mp_poison(ldst, BUFBYTES);                                              \
        shmem_##NAME##_get_nbi(ld, src, N, left);                               \
        shmem_quiet();                                                          \
        mpt_check_##NAME("shmem_" #NAME "_get_nbi", ld, N, 1, 1, left, t_src);  \
                                                                                \
        /* the right PE is done reading src before anyone refills it */         \
        shmem_barrier_all();                                                    \
    }
MP_RMA_TYPES(DEF_TEST)

int main(void)
{
    mp_init("rma_typed");
    _Static_assert(sizeof(long double) <= MAXELEM, "MAXELEM too small");
    _Static_assert(N >= NS * DST_STRIDE && N >= NS * SRC_STRIDE && N >= NP, "N too small");

    sdst = (unsigned char *)shmem_malloc(BUFBYTES);
    ssrc = (unsigned char *)shmem_malloc(BUFBYTES);
    lsrc = (unsigned char *)malloc(BUFBYTES);
    ldst = (unsigned char *)malloc(BUFBYTES);
    MP_CHECK(sdst && ssrc && lsrc && ldst, "buffer allocation (expected non-NULL got NULL)");

#define RUN(NAME, T, K) test_##NAME();
    MP_RMA_TYPES(RUN)
#undef RUN

    shmem_free(sdst);
    shmem_free(ssrc);
    free(lsrc);
    free(ldst);
    mp_pass();
    shmem_finalize();
    return 0;
}
