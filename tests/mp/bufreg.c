/* User buffer registration on CPU PEs (docs/buffers.md): memory from shmemx_mem_alloc and from
 * malloc registered with shmemx_buffer_register is the local side of put, get, strided and
 * signalling puts and nbi fetches (fresh random payloads, poisoned destinations); every misuse
 * returns its error code with one message naming the call, the PE and the address: NULL, heap
 * memory, double and overlapping registration, unregistering what is not registered (or not its
 * start), freeing a registered buffer, freeing what shmemx_mem_alloc did not return; symmetric
 * registration, which needs a GPU PE's device heap, returns NULL on every PE. */
#include "mp_util.h"

#include <fcntl.h>
#include <shmemx.h>
#include <unistd.h>

#define NBYTES (256 * 1024)

/* Runs with stderr captured; checks the message names call, this PE and the address text. */
static char captured[4096];
static int saved_fd = -1;
static char cap_path[64];

static void capture_begin(void)
{
    fflush(stderr);
    snprintf(cap_path, sizeof cap_path, "/tmp/gshmem-bufreg-%d-XXXXXX", (int)getpid());
    int fd = mkstemp(cap_path);
    MP_CHECK(fd >= 0, "mkstemp (expected >= 0 got %d)", fd);
    saved_fd = dup(2);
    dup2(fd, 2);
    close(fd);
}

static void capture_end(void)
{
    fflush(stderr);
    dup2(saved_fd, 2);
    close(saved_fd);
    int fd = open(cap_path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, captured, sizeof captured - 1) : -1;
    captured[n > 0 ? n : 0] = '\0';
    if (fd >= 0)
        close(fd);
    unlink(cap_path);
}

static void expect_error(const char *what, int rc, int want_rc, const char *call, const void *addr)
{
    capture_end();
    MP_CHECK_EQ(what, want_rc, rc);
    char pe[32], a[32];
    snprintf(pe, sizeof pe, "[pe %d]", mp_me);
    snprintf(a, sizeof a, "%p", addr);
    MP_CHECK(strstr(captured, call) && strstr(captured, pe) && (!addr || strstr(captured, a)),
             "%s: the message must name %s, %s and %s (got \"%s\")", what, call, pe, addr ? a : "-", captured);
}

static void move_data(unsigned char *local, const char *kind, unsigned char *heap)
{
    const uint64_t tag = mp_tag("bufreg", (uint64_t)kind[0]);
    /* put: local -> right PE's heap */
    mp_fill(local, NBYTES, mp_me, tag);
    mp_poison(heap, NBYTES);
    shmem_barrier_all();
    shmem_putmem(heap, local, NBYTES, mp_right());
    shmem_barrier_all();
    mp_check_bytes("putmem from a registered buffer", heap, NBYTES, mp_left(), tag);
    /* get: left PE's heap -> local (the left PE's heap holds what its own left PE put) */
    mp_poison(local, NBYTES);
    shmem_getmem(local, heap, NBYTES, mp_left());
    mp_check_bytes("getmem into a registered buffer", local, NBYTES, (mp_left() + mp_npes - 1) % mp_npes, tag);
    /* strided get of every other 8-byte word, then a put with signal of the first 4 KiB */
    uint64_t *w = (uint64_t *)local;
    for (int i = 0; i < 64; i++)
        w[i] = 0;
    shmem_uint64_iget(w, (const uint64_t *)heap, 1, 2, 32, mp_left());
    uint64_t s = mp_pe_stream((mp_left() + mp_npes - 1) % mp_npes, tag);
    uint64_t expect[64];
    mp_fill_s(expect, sizeof expect, s);
    for (int i = 0; i < 32; i++)
        MP_EXPECT_VAL(uint64_t, "iget into a registered buffer", (size_t)i, expect[2 * i], w[i]);
    shmem_barrier_all();
    /* nbi fetch into the registered buffer */
    uint64_t *ctr = (uint64_t *)shmem_malloc(sizeof(uint64_t));
    *ctr = 1000 + (uint64_t)mp_me;
    shmem_barrier_all();
    shmem_uint64_atomic_fetch_nbi(w, ctr, mp_right());
    shmem_quiet();
    MP_CHECK_EQ("atomic_fetch_nbi into a registered buffer", 1000 + mp_right(), w[0]);
    shmem_barrier_all();
    shmem_free(ctr);
}

int main(void)
{
    mp_init("bufreg");
    unsigned char *heap = (unsigned char *)shmem_malloc(NBYTES);
    unsigned char *a = (unsigned char *)shmemx_mem_alloc(NBYTES);
    unsigned char *m = (unsigned char *)malloc(NBYTES);
    MP_CHECK(heap && a && m, "allocation (expected non-NULL got NULL)");

    MP_CHECK_EQ("shmemx_buffer_register of shmemx_mem_alloc memory", SHMEMX_SUCCESS,
                shmemx_buffer_register(a, NBYTES));
    MP_CHECK_EQ("shmemx_buffer_register of malloc memory", SHMEMX_SUCCESS, shmemx_buffer_register(m, NBYTES));
    move_data(a, "alloc", heap);
    move_data(m, "malloc", heap);

    int rc;
    capture_begin();
    rc = shmemx_buffer_register(a, NBYTES);
    expect_error("double registration", rc, SHMEMX_ERROR_INVALID_VALUE, "shmemx_buffer_register", a);
    capture_begin();
    rc = shmemx_buffer_register(a + 4096, 100);
    expect_error("overlapping registration", rc, SHMEMX_ERROR_INVALID_VALUE, "shmemx_buffer_register", a + 4096);
    capture_begin();
    rc = shmemx_buffer_register(heap, 64);
    expect_error("registering heap memory", rc, SHMEMX_ERROR_INVALID_VALUE, "shmemx_buffer_register", heap);
    capture_begin();
    rc = shmemx_buffer_register(NULL, 64);
    expect_error("registering NULL", rc, SHMEMX_ERROR_INVALID_VALUE, "shmemx_buffer_register", NULL);
    capture_begin();
    rc = shmemx_buffer_unregister(a + 64);
    expect_error("unregistering inside a registration", rc, SHMEMX_ERROR_INVALID_VALUE,
                 "shmemx_buffer_unregister", a + 64);
    capture_begin();
    rc = shmemx_mem_free(a);
    expect_error("freeing a registered buffer", rc, SHMEMX_ERROR_INVALID_VALUE, "shmemx_mem_free", a);
    capture_begin();
    rc = shmemx_mem_free(m);
    expect_error("shmemx_mem_free of malloc memory", rc, SHMEMX_ERROR_INVALID_VALUE, "shmemx_mem_free", m);

    /* the refused free left the buffer registered and usable */
    move_data(a, "again", heap);
    MP_CHECK_EQ("shmemx_buffer_unregister", SHMEMX_SUCCESS, shmemx_buffer_unregister(a));
    capture_begin();
    rc = shmemx_buffer_unregister(a);
    expect_error("unregistering twice", rc, SHMEMX_ERROR_INVALID_VALUE, "shmemx_buffer_unregister", a);
    MP_CHECK_EQ("shmemx_mem_free after unregister", SHMEMX_SUCCESS, shmemx_mem_free(a));
    shmemx_buffer_unregister_all();
    capture_begin();
    rc = shmemx_buffer_unregister(m);
    expect_error("unregistering after unregister_all", rc, SHMEMX_ERROR_INVALID_VALUE,
                 "shmemx_buffer_unregister", m);
    /* unregistered memory stays usable as the local side (staged where a NIC needs it) */
    move_data(m, "unreg", heap);

    unsigned char *b = (unsigned char *)shmemx_mem_alloc(NBYTES);
    capture_begin();
    void *sym = shmemx_buffer_register_symmetric(b, NBYTES, 0);
    capture_end();
    MP_CHECK(sym == NULL, "shmemx_buffer_register_symmetric on a CPU PE (expected NULL got %p)", sym);
    MP_CHECK(strstr(captured, "shmemx_buffer_register_symmetric") && strstr(captured, "CPU PE"),
             "register_symmetric on a CPU PE: message (got \"%s\")", captured);
    MP_CHECK_EQ("shmemx_mem_free", SHMEMX_SUCCESS, shmemx_mem_free(b));
    MP_CHECK_EQ("shmemx_mem_free(NULL)", SHMEMX_SUCCESS, shmemx_mem_free(NULL));

    free(m);
    shmem_free(heap);
    mp_pass();
    shmem_finalize();
    return 0;
}
