/* Operation codes shared by the host runtime, the transports, the proxy (trigger format) and
 * device code: comparisons and signal operations (the OpenSHMEM constants), atomic operations and
 * reduction operators. One definition each; everything else uses these names. */
#ifndef GSHMEM_DEVICE_HOST_OPS_H
#define GSHMEM_DEVICE_HOST_OPS_H

/* Point-to-point comparisons (OpenSHMEM 1.5, table "Point-to-Point Comparison Constants"). */
#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5

/* Signal operations of put-with-signal. */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* Atomic operations. Operands: a is the operand of set, swap, add, and, or and xor and the
 * expected value of cswap; b is cswap's new value. Every layer passes (a, b) in this order. */
typedef enum gshmem_amo_op {
  GSHMEM_AMO_FETCH = 0,
  GSHMEM_AMO_SET = 1,
  GSHMEM_AMO_SWAP = 2,
  GSHMEM_AMO_CSWAP = 3,
  GSHMEM_AMO_ADD = 4,
  GSHMEM_AMO_AND = 5,
  GSHMEM_AMO_OR = 6,
  GSHMEM_AMO_XOR = 7
} gshmem_amo_op;
#define GSHMEM_AMO_NOPS 8

/* Reduction operators (host, on-stream and in-kernel reductions). */
typedef enum gshmem_reduce_op {
  GSHMEM_REDUCE_AND = 0,
  GSHMEM_REDUCE_OR = 1,
  GSHMEM_REDUCE_XOR = 2,
  GSHMEM_REDUCE_MIN = 3,
  GSHMEM_REDUCE_MAX = 4,
  GSHMEM_REDUCE_SUM = 5,
  GSHMEM_REDUCE_PROD = 6
} gshmem_reduce_op;
#define GSHMEM_REDUCE_NOPS 7
/* The operator's name as it appears in the API's function names (shmem_int_sum_reduce). */
#define GSHMEM_REDUCE_OP_NAMES {"and", "or", "xor", "min", "max", "sum", "prod"}

#ifdef __cplusplus
#if defined(__CUDACC__)
#define GSHMEM_OPS_HD __host__ __device__ __forceinline__
#else
#define GSHMEM_OPS_HD inline
#endif
namespace gshmem {
/* What each reduction operator computes: one definition for host and device reductions. min and
 * max return the first argument on ties and on unordered (NaN) comparisons. */
template <int Op> struct Reduce;
template <> struct Reduce<GSHMEM_REDUCE_AND> { template <typename T> GSHMEM_OPS_HD T operator()(T a, T b) const { return a & b; } };
template <> struct Reduce<GSHMEM_REDUCE_OR> { template <typename T> GSHMEM_OPS_HD T operator()(T a, T b) const { return a | b; } };
template <> struct Reduce<GSHMEM_REDUCE_XOR> { template <typename T> GSHMEM_OPS_HD T operator()(T a, T b) const { return a ^ b; } };
template <> struct Reduce<GSHMEM_REDUCE_MIN> { template <typename T> GSHMEM_OPS_HD T operator()(T a, T b) const { return b < a ? b : a; } };
template <> struct Reduce<GSHMEM_REDUCE_MAX> { template <typename T> GSHMEM_OPS_HD T operator()(T a, T b) const { return a < b ? b : a; } };
template <> struct Reduce<GSHMEM_REDUCE_SUM> { template <typename T> GSHMEM_OPS_HD T operator()(T a, T b) const { return a + b; } };
template <> struct Reduce<GSHMEM_REDUCE_PROD> { template <typename T> GSHMEM_OPS_HD T operator()(T a, T b) const { return a * b; } };
}  // namespace gshmem
#endif

#endif
