/* Helper for the launcher tests: initialises gshmem, touches the heap and a global, then
 * behaves as told by argv: "ok", "exit:PE:CODE", "kill:PE:SIG", "hang" (wait forever on a flag
 * nobody sets; ends only when another PE dies). */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long flag;

int main(int argc, char **argv) {
  shmem_init();
  int me = shmem_my_pe();
  long *buf = shmem_malloc(1 << 20);
  memset(buf, me, 1 << 20);
  shmem_long_p(&flag, 0, (me + 1) % shmem_n_pes());
  shmem_barrier_all();
  const char *mode = argc > 1 ? argv[1] : "ok";
  int pe = -1, val = 0;
  if (sscanf(mode, "exit:%d:%d", &pe, &val) == 2 && pe == me) {
    fprintf(stderr, "pe %d exiting with %d\n", me, val);
    _exit(val);
  }
  if (sscanf(mode, "kill:%d:%d", &pe, &val) == 2 && pe == me) {
    signal(val, SIG_DFL); /* die of the signal itself, even where a sanitizer catches SIGSEGV */
    raise(val);
  }
  if (!strcmp(mode, "hang") || !strncmp(mode, "exit", 4) || !strncmp(mode, "kill", 4))
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 12345);
  printf("line from pe %d\n", me);
  shmem_free(buf);
  shmem_finalize();
  return 0;
}
