/* Locks: every PE does K lock-protected read-modify-writes (g, +1, p) of a counter on PE 0; the
 * exact count proves mutual exclusion. test_lock is exercised too. */
#include "mp_util.h"

static long lock;
static long counter;

int main(void) {
    mp_init("locks");
    const int K = 200;
    for (int i = 0; i < K; ++i) {
        if (i % 10 == 0) {
            while (shmem_test_lock(&lock) != 0) {
            }
        } else {
            shmem_set_lock(&lock);
        }
        long v = shmem_long_g(&counter, 0);
        shmem_long_p(&counter, v + 1, 0);
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    if (mp_me == 0 && counter != (long)K * mp_npes)
        mp_fail("counter %ld after lock-protected increments (expected %ld)", counter, (long)K * mp_npes);
    mp_pass();
    shmem_finalize();
    return 0;
}
