/* NVSHMEM's error-reporting helpers for programs (its non_abi/nvshmemx_error.h, which nvshmem.h
 * brings): NVSHMEMI_ERROR_PRINT / _WARN_PRINT print "file:function:line: message" on stderr;
 * NVSHMEMI_ERROR_EXIT and the *_EXIT checks also end the program (exit(-1)): they expand in the
 * program's code, never in the library's. The *_ERROR_JMP checks set a status and jump to a label.
 * The status codes (NVSHMEMX_SUCCESS, NVSHMEMX_ERROR_*) are in gshmem/nvshmem/types.h. */
#ifndef GSHMEM_NVSHMEM_ERROR_H
#define GSHMEM_NVSHMEM_ERROR_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GSHMEM_NV_ERR_WHERE() fprintf(stderr, "%s:%s:%d: ", __FILE__, __func__, __LINE__)
#define NVSHMEMI_ERROR_PRINT(...) \
  do {                            \
    GSHMEM_NV_ERR_WHERE();        \
    fprintf(stderr, __VA_ARGS__); \
    fprintf(stderr, "\n");        \
  } while (0)
#define NVSHMEMI_WARN_PRINT(...)       \
  do {                                 \
    fprintf(stderr, "NVSHMEM WARN: "); \
    fprintf(stderr, __VA_ARGS__);      \
    fprintf(stderr, "\n");             \
  } while (0)
#define NVSHMEMI_ERROR_EXIT(...)      \
  do {                                \
    NVSHMEMI_ERROR_PRINT(__VA_ARGS__); \
    exit(-1);                         \
  } while (0)
/* status = err, print, goto label */
#define NVSHMEMI_ERROR_JMP(status, err, label, ...) \
  do {                                              \
    NVSHMEMI_ERROR_PRINT(__VA_ARGS__);              \
    status = err;                                   \
    goto label;                                     \
  } while (0)
#define NVSHMEMI_NULL_ERROR_JMP(var, status, err, label, ...)        \
  do {                                                               \
    if ((var) == NULL) NVSHMEMI_ERROR_JMP(status, err, label, __VA_ARGS__); \
  } while (0)
#define NVSHMEMI_EQ_ERROR_JMP(status, expected, err, label, ...)                 \
  do {                                                                           \
    if ((status) == (expected)) NVSHMEMI_ERROR_JMP(status, err, label, __VA_ARGS__); \
  } while (0)
#define NVSHMEMI_NE_ERROR_JMP(status, expected, err, label, ...)                 \
  do {                                                                           \
    if ((status) != (expected)) NVSHMEMI_ERROR_JMP(status, err, label, __VA_ARGS__); \
  } while (0)
#define NVSHMEMI_NZ_ERROR_JMP(status, err, label, ...)                    \
  do {                                                                    \
    if ((status) != 0) NVSHMEMI_ERROR_JMP(status, err, label, __VA_ARGS__); \
  } while (0)
#define NVSHMEMI_CHECK_ERROR_JMP(statement, status, err, label, ...)          \
  do {                                                                        \
    if (statement) NVSHMEMI_ERROR_JMP(status, err, label, __VA_ARGS__);        \
  } while (0)
#define NVSHMEMI_NZ_EXIT(status, ...)                                   \
  do {                                                                  \
    if ((status) != 0) {                                                \
      GSHMEM_NV_ERR_WHERE();                                            \
      fprintf(stderr, "status %d: ", (int)(status));                    \
      fprintf(stderr, __VA_ARGS__);                                     \
      fprintf(stderr, "\n");                                            \
      exit(-1);                                                         \
    }                                                                   \
  } while (0)
#define NVSHMEMI_NZ_SYSCHECK_EXIT(sys_status, ...)                      \
  do {                                                                  \
    if ((sys_status) != 0) {                                            \
      GSHMEM_NV_ERR_WHERE();                                            \
      fprintf(stderr, "%s: ", strerror(errno));                         \
      fprintf(stderr, __VA_ARGS__);                                     \
      fprintf(stderr, "\n");                                            \
      exit(-1);                                                         \
    }                                                                   \
  } while (0)

#endif
