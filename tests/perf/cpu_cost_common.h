/* Shared by the small CPU cost programs (pe_quiet_cost.c, session_batch_cost.c): a monotonic clock
 * in microseconds, the median of a sample, and the -n rounds / -e max options. */
#ifndef GSHMEM_CPU_COST_COMMON_H
#define GSHMEM_CPU_COST_COMMON_H
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts t[0, n) and returns its median. */
static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return t[n / 2];
}

/* -n ROUNDS and -e MAX, left at their defaults when absent. */
static void parse_cost_args(int argc, char **argv, int *rounds, size_t *max) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n")) *rounds = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "-e")) *max = (size_t)strtoull(argv[i + 1], NULL, 0);
  }
}
#endif
