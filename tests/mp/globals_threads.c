/* Threads of the program keep writing global variables while shmem_init makes the data segment
 * symmetric (it copies the segment and maps the copy in its place): no write may be lost, and the
 * globals are symmetric afterwards. Each of NTHREADS threads increments its own global counter
 * (and a private one) in a loop that runs from before shmem_init until after it; a 32 MiB
 * initialised static array makes the copy long enough that the threads run during it. Then every
 * global counter must equal its private count, and a put into each PE's globals must land. */
#include "mp_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* Under ThreadSanitizer a thread takes a signal only at its next intercepted call
 * (docs/host-heap.md): the workers make one per iteration there. */
#if defined(__SANITIZE_THREAD__)
#define TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN_BUILD 1
#endif
#endif

#define NTHREADS 3
#define BIG ((size_t)32 << 20)

static volatile uint64_t g_count[NTHREADS]; /* .bss: written by the threads during init */
static atomic_int g_running = 1;
static unsigned char g_big[BIG] = {1};       /* .data: 32 MiB the remap copies */
static uint64_t g_seen[NTHREADS];            /* written by the left PE after init */
static atomic_int g_started;

struct worker {
    int idx;
    uint64_t mine; /* the private count, outside the data segment (main's stack) */
};

static void *work(void *arg)
{
    struct worker *w = (struct worker *)arg;
    atomic_fetch_add(&g_started, 1);
    while (atomic_load_explicit(&g_running, memory_order_relaxed)) {
        g_count[w->idx] = g_count[w->idx] + 1;
        w->mine++;
#ifdef TSAN_BUILD
        struct timespec ts = {0, 0};
        nanosleep(&ts, NULL);
#endif
    }
    return NULL;
}

int main(void)
{
    memset(g_big, 0x5a, BIG); /* every page non-zero: the remap copies all of them */
    struct worker w[NTHREADS];
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        w[i].idx = i;
        w[i].mine = 0;
        if (pthread_create(&t[i], NULL, work, &w[i]) != 0) {
            fprintf(stderr, "FAIL globals_threads: pthread_create\n");
            return 1;
        }
    }
    while (atomic_load(&g_started) < NTHREADS)
        ;
    mp_init("globals_threads"); /* shmem_init while the threads write */
    shmem_barrier_all();
    atomic_store(&g_running, 0);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < NTHREADS; i++) {
        MP_CHECK(w[i].mine > 0, "thread %d never ran", i);
        MP_CHECK_EQ("a global counter a thread incremented during shmem_init vs its private count",
                    w[i].mine, g_count[i]);
    }
    MP_CHECK_EQ("the 32 MiB static array after the remap", 0x5a, g_big[BIG - 1]);

    /* symmetric now: each PE sends its counters to the right PE's g_seen */
    uint64_t mine[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        mine[i] = g_count[i];
    shmem_uint64_put(g_seen, mine, NTHREADS, mp_right());
    shmem_barrier_all();
    uint64_t expect[NTHREADS];
    shmem_uint64_get(expect, (const uint64_t *)g_count, NTHREADS, mp_left());
    for (int i = 0; i < NTHREADS; i++)
        MP_CHECK_EQ("the left PE's counter put into a global", expect[i], g_seen[i]);
    mp_pass();
    shmem_finalize();
    return 0;
}
