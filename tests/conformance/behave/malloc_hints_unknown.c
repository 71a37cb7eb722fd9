/* malloc_hints_unknown: shmem_malloc_with_hints allocates usable symmetric memory for hints 0,
 * SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE, their OR, and -- last, reported
 * separately -- hint bits the implementation does not define; size 0 gives a null pointer.
 *
 * OpenSHMEM 1.5, shmem_malloc_with_hints (specification LaTeX, content/shmem_malloc_hints.tex):
 *   "The shmem_malloc_with_hints routine, like shmem_malloc, returns a pointer to a block of at
 *    least size bytes, which shall be suitably aligned so that it may be assigned to a pointer to
 *    any type of object. This space is allocated from the symmetric heap (similar to
 *    shmem_malloc). When the size is zero, the shmem_malloc_with_hint routine performs no action
 *    and returns a null pointer."
 *   "The hints describes the expected manner in which the OpenSHMEM program may use the allocated
 *    memory. ... Multiple hints may be requested by combining them with a bitwise OR operation."
 *   "The information provided by the hints is used to optimize for performance by the
 *    implementation. If the implementation cannot optimize, the behavior is same as
 *    shmem_malloc. If more than one hint is provided, the implementation will make the best
 *    effort to use one or more hints to optimize performance."
 *   "... the routine will call a barrier on exit. This ensures that all PEs participate in the
 *    memory allocation, and that the memory on other PEs can be used as soon as the local PE
 *    returns."
 *   Hint table: a "no hint" entry, "Behavior same as shmem_malloc" (value 0).
 *   1.5 changelog: "Added shmem_malloc_with_hints interface and corresponding hints
 *    SHMEM_MALLOC_ATOMICS_REMOTE and SHMEM_MALLOC_SIGNAL_REMOTE."
 * The unknown-bit part relies on "hints ... used to optimize" / "If the implementation cannot
 * optimize, the behavior is same as shmem_malloc": the hints are advice, so bits the
 * implementation cannot use must not turn the call into a failure. (The 1.5 text does not name
 * the case of undefined bits; this is the weakest check here and is reported on its own.)
 *
 * PE counts: any N >= 1 (meant for 2, 3, 4; the right neighbour is itself at N = 1). */
#define BEHAVE_NAME "malloc_hints_unknown"
#include "behave.h" /* first: sets _POSIX_C_SOURCE, includes <shmem.h> */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

#define NLONG 64

static int null_count[16]; /* symmetric: per call, how many PEs got NULL (counted on PE 0) */
static int ncalls;

static void use_block(const char *label, long hints, int defined_hint) {
  const int me = bh_me, n = bh_npes, right = (me + 1) % n, left = (me - 1 + n) % n;
  const int call = ncalls++;
  long *p = (long *)shmem_malloc_with_hints(NLONG * sizeof(long), hints);
  if (p == NULL)
    bh_fail("%s hints %#lx: shmem_malloc_with_hints returned NULL%s", label, hints,
            defined_hint ? "" : " (unknown hint bits were not treated as advice)");
  /* Agree on whether every PE got a block, so all PEs make the same collective calls. */
  shmem_barrier_all();
  if (p == NULL) shmem_int_atomic_inc(&null_count[call], 0);
  shmem_barrier_all();
  if (shmem_int_atomic_fetch(&null_count[call], 0) != 0) {
    if (p != NULL) shmem_free(p);
    return;
  }
  BH_CHECK(((uintptr_t)p % alignof(max_align_t)) == 0, "%s hints %#lx: block %p not aligned to %zu",
           label, hints, (void *)p, (size_t)alignof(max_align_t));
  BH_CHECK(shmem_addr_accessible(p, right), "%s hints %#lx: block not accessible on PE %d", label,
           hints, right);
  for (int i = 0; i < NLONG; i++) p[i] = -1;
  shmem_barrier_all();
  long src[NLONG];
  for (int i = 0; i < NLONG; i++) src[i] = (long)me * 1000 + i;
  shmem_long_put(p, src, NLONG, right);
  shmem_barrier_all();
  int bad = -1;
  for (int i = 0; i < NLONG; i++)
    if (p[i] != (long)left * 1000 + i) { bad = i; break; }
  BH_CHECK(bad < 0, "%s hints %#lx: element %d is %ld after a put from PE %d, want %ld", label,
           hints, bad, bad >= 0 ? p[bad] : 0L, left, bad >= 0 ? (long)left * 1000 + bad : 0L);
  /* get back what the right neighbour received from me */
  long back[NLONG];
  shmem_long_get(back, p, NLONG, right);
  bad = -1;
  for (int i = 0; i < NLONG; i++)
    if (back[i] != src[i]) { bad = i; break; }
  BH_CHECK(bad < 0, "%s hints %#lx: get from PE %d: element %d wrong", label, hints, right, bad);
  shmem_barrier_all();
  /* the uses the defined hints announce: remote atomics and signals */
  p[0] = 0;
  shmem_barrier_all();
  shmem_long_atomic_add(&p[0], 1, right);
  shmem_barrier_all();
  BH_CHECK(p[0] == 1, "%s hints %#lx: atomic add from PE %d: value %ld, want 1", label, hints, left,
           p[0]);
  uint64_t *sig = (uint64_t *)&p[NLONG - 1];
  *sig = 0;
  shmem_barrier_all();
  long payload = 7700 + me;
  shmem_long_put_signal(&p[1], &payload, 1, sig, 1, SHMEM_SIGNAL_SET, right);
  shmem_barrier_all();
  BH_CHECK(*sig == 1 && p[1] == 7700 + left, "%s hints %#lx: put_signal from PE %d: sig %llu data %ld",
           label, hints, left, (unsigned long long)*sig, p[1]);
  shmem_barrier_all();
  shmem_free(p);
}

int main(void) {
  bh_start();

  /* size 0: no action, null pointer (every PE calls it, with the same arguments) */
  void *z = shmem_malloc_with_hints(0, 0);
  BH_CHECK(z == NULL, "size 0 with hints 0 returned %p, want NULL", z);
  z = shmem_malloc_with_hints(0, SHMEM_MALLOC_ATOMICS_REMOTE);
  BH_CHECK(z == NULL, "size 0 with SHMEM_MALLOC_ATOMICS_REMOTE returned %p, want NULL", z);

  use_block("zero", 0L, 1);
  use_block("SHMEM_MALLOC_ATOMICS_REMOTE", SHMEM_MALLOC_ATOMICS_REMOTE, 1);
  use_block("SHMEM_MALLOC_SIGNAL_REMOTE", SHMEM_MALLOC_SIGNAL_REMOTE, 1);
  use_block("ATOMICS|SIGNAL", SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE, 1);

  /* Bits that are neither hint (chosen away from both defined hints' bits). */
  long defined = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
  long unknown[4] = {1L << 10, 1L << 20, 1L << 30, (1L << 12) | (1L << 17)};
  for (int k = 0; k < 4; k++) {
    long h = unknown[k] & ~defined;
    if (h == 0) continue;
    use_block("unknown bits", h, 0);
  }
  use_block("ATOMICS|unknown bit", SHMEM_MALLOC_ATOMICS_REMOTE | ((1L << 24) & ~defined), 0);

  /* ordinary allocation still fine afterwards */
  long *q = (long *)shmem_malloc(8 * sizeof(long));
  BH_CHECK(q != NULL, "shmem_malloc after the hinted allocations returned NULL");
  shmem_barrier_all();
  if (q) shmem_free(q);
  return bh_finish();
}
