/* NVSHMEM 3.x types and constants over gshmem's (the compatibility headers nvshmem.h and
 * nvshmemx.h include this; docs/nvshmem.md). Values a program can observe are NVSHMEM's: the
 * comparison and signal-operation constants (translated to gshmem's by the wrappers in
 * gshmem/nvshmem/wrappers.h), the team handles, the init flags and error codes, and the vendor
 * version (the NVSHMEM API level this layer implements, so programs that test it take their 3.x
 * paths). The structures have NVSHMEM's field names, laid out for gshmem. */
#ifndef GSHMEM_NVSHMEM_TYPES_H
#define GSHMEM_NVSHMEM_TYPES_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "../../shmem.h" /* by path: another OpenSHMEM's headers earlier on the include path */
#include "../../shmemx.h" /* cannot stand in */

#define GSHMEM_NVSHMEM_COMPAT 1

/* ---- versions (NVSHMEM_MAJOR/MINOR_VERSION: the OpenSHMEM level nvshmem_info_get_version reports) */
/* NVSHMEM 3.4.5's values: the OpenSHMEM version NVSHMEM declares (1.3), not gshmem's (1.6: SHMEM_*). */
#define NVSHMEM_MAJOR_VERSION 1
#define NVSHMEM_MINOR_VERSION 3
#define NVSHMEM_VENDOR_MAJOR_VERSION 3
#define NVSHMEM_VENDOR_MINOR_VERSION 4
#define NVSHMEM_VENDOR_PATCH_VERSION 5
#define NVSHMEM_VENDOR_PACKAGE_VERSION 0
#define NVSHMEM_VENDOR_VERSION \
  ((NVSHMEM_VENDOR_MAJOR_VERSION) * 10000 + (NVSHMEM_VENDOR_MINOR_VERSION) * 100 + (NVSHMEM_VENDOR_PATCH_VERSION))
#define NVSHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define NVSHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

/* ---- point-to-point comparisons and signal operations: NVSHMEM's values ---- */
typedef enum nvshmemi_cmp_type {
  NVSHMEM_CMP_EQ = 0,
  NVSHMEM_CMP_NE = 1,
  NVSHMEM_CMP_GT = 2,
  NVSHMEM_CMP_LE = 3,
  NVSHMEM_CMP_LT = 4,
  NVSHMEM_CMP_GE = 5,
  NVSHMEM_CMP_SENTINEL = INT_MAX
} nvshmemx_cmp_type_t;
typedef enum { NVSHMEM_SIGNAL_SET = 9, NVSHMEM_SIGNAL_ADD = 10 } nvshmemx_signal_op_t;

/* ---- threading ---- */
enum {
  NVSHMEM_THREAD_SINGLE = SHMEM_THREAD_SINGLE,
  NVSHMEM_THREAD_FUNNELED = SHMEM_THREAD_FUNNELED,
  NVSHMEM_THREAD_SERIALIZED = SHMEM_THREAD_SERIALIZED,
  NVSHMEM_THREAD_MULTIPLE = SHMEM_THREAD_MULTIPLE,
  NVSHMEM_THREAD_TYPE_SENTINEL = INT_MAX
};

/* ---- teams: the same small integers as gshmem's handles ---- */
typedef shmem_team_t nvshmem_team_t;
typedef nvshmem_team_t nvshmemx_team_t;
typedef uint64_t nvshmemx_team_uniqueid_t;
typedef enum {
  NVSHMEM_TEAM_INVALID = SHMEM_TEAM_INVALID,
  NVSHMEM_TEAM_WORLD = SHMEM_TEAM_WORLD,
  NVSHMEM_TEAM_WORLD_INDEX = SHMEM_TEAM_WORLD,
  NVSHMEM_TEAM_SHARED = SHMEM_TEAM_SHARED,
  NVSHMEM_TEAM_SHARED_INDEX = SHMEM_TEAM_SHARED,
  NVSHMEMX_TEAM_NODE = SHMEMX_TEAM_NODE,
  NVSHMEM_TEAM_NODE_INDEX = SHMEMX_TEAM_NODE
} nvshmem_team_id_t; /* NVSHMEMX_TEAM_SAME_MYPE_NODE: not provided (docs/nvshmem.md) */
typedef struct {
  int version;
  int num_contexts;
  nvshmemx_team_uniqueid_t uniqueid;
  char padding[48];
} nvshmem_team_config_t;
#define NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS 0x0000000000000001
#define NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID 0x0000000000000002
#define NVSHMEM_TEAM_CONFIG_INITIALIZER {(2 << 16) + (int)sizeof(nvshmem_team_config_t), 0, 0, {0}}

/* ---- initialisation ---- */
/* NVSHMEM's layout, 128 bytes: the version, then gshmem's id text (NUL-terminated, well under
 * 124 bytes) in internal. */
typedef struct {
  int version;
  char internal[124];
} nvshmemx_uniqueid_t;
#if defined(__cplusplus)
static_assert(sizeof(nvshmemx_uniqueid_t) == 128, "NVSHMEM's uniqueid is 128 bytes");
#else
_Static_assert(sizeof(nvshmemx_uniqueid_t) == 128, "NVSHMEM's uniqueid is 128 bytes");
#endif
#define NVSHMEMX_UNIQUEID_INITIALIZER {(1 << 16) + (int)sizeof(nvshmemx_uniqueid_t), {0}}
typedef struct {
  int version;
  nvshmemx_uniqueid_t *id;
  int myrank;
  int nranks;
} nvshmemx_uniqueid_args_t;
#define NVSHMEMX_UNIQUEID_ARGS_INITIALIZER {(1 << 16) + (int)sizeof(nvshmemx_uniqueid_args_t), NULL, -1, -1}
typedef struct {
  int version;
  nvshmemx_uniqueid_args_t uid_args;
  char content[96];
} nvshmemx_init_args_t;
#define NVSHMEMX_INIT_ARGS_INITIALIZER {(1 << 16) + (int)sizeof(nvshmemx_init_args_t), NVSHMEMX_UNIQUEID_ARGS_INITIALIZER, {0}}
typedef struct {
  int version;
  void *mpi_comm; /* NVSHMEMX_INIT_WITH_MPI_COMM: the address of the program's MPI_Comm */
  nvshmemx_init_args_t args;
} nvshmemx_init_attr_t;
#define NVSHMEMX_INIT_ATTR_INITIALIZER {(1 << 16) + (int)sizeof(nvshmemx_init_attr_t), NULL, NVSHMEMX_INIT_ARGS_INITIALIZER}
enum {
  NVSHMEMX_INIT_THREAD_PES = 1,
  NVSHMEMX_INIT_WITH_MPI_COMM = 1 << 1,
  NVSHMEMX_INIT_WITH_SHMEM = 1 << 2,
  NVSHMEMX_INIT_WITH_UNIQUEID = 1 << 3,
  NVSHMEMX_INIT_MAX = INT_MAX
};
typedef enum {
  NVSHMEM_STATUS_NOT_INITIALIZED = 0,
  NVSHMEM_STATUS_IS_BOOTSTRAPPED,
  NVSHMEM_STATUS_IS_INITIALIZED,
  NVSHMEM_STATUS_LIMITED_MPG,
  NVSHMEM_STATUS_FULL_MPG,
  NVSHMEM_STATUS_INVALID = INT_MAX
} nvshmemx_init_status_t;

/* ---- return codes of the nvshmemx_ host calls ---- */
enum {
  NVSHMEMX_SUCCESS = 0,
  NVSHMEMX_ERROR_INVALID_VALUE,
  NVSHMEMX_ERROR_OUT_OF_MEMORY,
  NVSHMEMX_ERROR_NOT_SUPPORTED,
  NVSHMEMX_ERROR_SYMMETRY,
  NVSHMEMX_ERROR_GPU_NOT_SELECTED,
  NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED,
  NVSHMEMX_ERROR_INTERNAL,
  NVSHMEMX_ERROR_SENTINEL = INT_MAX
};

#endif
