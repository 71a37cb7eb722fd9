/* Proxy triggers: the fixed-size request a GPU thread (or a host thread) pushes into the proxy's
 * FIFO for an operation the proxy performs (put, get, signal, atomic to a PE on another node).
 * 128 bits per slot (two 64-bit words, written with one 16-byte store on the GPU); an operation
 * that needs more (source offset, signal value, atomic operands) takes a second, extension slot
 * right after it. Word 0 is written last and is never zero for a valid trigger.
 *
 *   w0: [0,4) op   [4,8) flags (bit 0: an extension slot follows)   [8,28) target PE
 *       [28,64) size in bytes (up to 64 GiB)
 *   w1: [0,48) destination offset in the target's segment   [48,52) segment   [52,64) version
 *   extension: e0 = source address (this process)   e1 = signal value / atomic operand
 *   segments: 0 host (control block + host heap), 1 globals, 2 device (control block + device heap)
 */
#ifndef GSHMEM_DEVICE_HOST_TRIGGER_H
#define GSHMEM_DEVICE_HOST_TRIGGER_H

#include <stdint.h>

#include "gshmem/device_host/ops.h"

#if defined(__CUDACC__)
#define GSHMEM_TRIG_HD __host__ __device__
#else
#define GSHMEM_TRIG_HD
#endif

#define GSHMEM_TRIGGER_VERSION 3u /* 2: FENCE; 3: AMO operands in gshmem_amo_op order (a, b) */

typedef struct gshmem_trigger {
  uint64_t w0;
  uint64_t w1;
} gshmem_trigger;

enum gshmem_trigger_op {
  GSHMEM_TRIG_NONE = 0, /* an empty slot */
  GSHMEM_TRIG_PUT = 1,
  GSHMEM_TRIG_GET = 2,
  GSHMEM_TRIG_PUT_SIGNAL = 3,
  GSHMEM_TRIG_SIGNAL = 4,
  GSHMEM_TRIG_AMO = 5,
  GSHMEM_TRIG_FLUSH = 6,
  GSHMEM_TRIG_FENCE = 7
};
#define GSHMEM_TRIG_FLAG_EXT 1u  /* one extension slot follows */
#define GSHMEM_TRIG_FLAG_EXT2 2u /* two extension slots follow */
#define GSHMEM_TRIG_FLAG_INLINE 4u /* PUT: the data (at most 16 bytes) is the extension slot itself */
#define GSHMEM_TRIG_INLINE_MAX 16u
#define GSHMEM_TRIG_SEG_HOST 0u
#define GSHMEM_TRIG_SEG_DATA 1u
#define GSHMEM_TRIG_SEG_DEVICE 2u
/* extension slots of a trigger with these flags */
#define GSHMEM_TRIG_EXT_SLOTS(flags) (((flags) & GSHMEM_TRIG_FLAG_EXT2) ? 2u : ((flags) & GSHMEM_TRIG_FLAG_EXT) ? 1u : 0u)

typedef struct gshmem_trigger_fields {
  uint32_t op, flags, pe, segment, version;
  uint64_t size, dst_off;
} gshmem_trigger_fields;

static inline GSHMEM_TRIG_HD gshmem_trigger gshmem_trigger_encode(uint32_t op, uint32_t flags, uint32_t pe,
                                                                  uint64_t size, uint64_t dst_off, uint32_t segment) {
  gshmem_trigger t;
  t.w0 = (uint64_t)(op & 0xfu) | ((uint64_t)(flags & 0xfu) << 4) | ((uint64_t)(pe & 0xfffffu) << 8) |
         ((size & 0xfffffffffull) << 28);
  t.w1 = (dst_off & 0xffffffffffffull) | ((uint64_t)(segment & 0xfu) << 48) |
         ((uint64_t)(GSHMEM_TRIGGER_VERSION & 0xfffu) << 52);
  return t;
}

static inline GSHMEM_TRIG_HD gshmem_trigger_fields gshmem_trigger_decode(gshmem_trigger t) {
  gshmem_trigger_fields f;
  f.op = (uint32_t)(t.w0 & 0xfu);
  f.flags = (uint32_t)((t.w0 >> 4) & 0xfu);
  f.pe = (uint32_t)((t.w0 >> 8) & 0xfffffu);
  f.size = (t.w0 >> 28) & 0xfffffffffull;
  f.dst_off = t.w1 & 0xffffffffffffull;
  f.segment = (uint32_t)((t.w1 >> 48) & 0xfu);
  f.version = (uint32_t)((t.w1 >> 52) & 0xfffu);
  return f;
}

/* What each operation carries (all but FLUSH and FENCE take one extension slot):
 *   PUT     size = bytes; dst_off/segment = destination on pe; e0 = source address (this process);
 *           with GSHMEM_TRIG_FLAG_INLINE the extension's 16 bytes are the data (size <= 16)
 *   GET     size = bytes; dst_off/segment = source on pe;      e0 = destination address
 *   SIGNAL  size = sig_op (0 SET, 1 ADD); dst_off = the signal word on pe; e1 = value. Performed after
 *           every earlier operation of the same producer to pe (put-with-signal = PUT then SIGNAL).
 *   AMO     two extension slots (flags = GSHMEM_TRIG_FLAG_EXT2): size = (gshmem_amo_op << 4) |
 *           operand bytes (4 or 8); dst_off = target on pe; first e0 = operand a, e1 = operand b
 *           (device_host/ops.h: cswap's a is the expected value, b the new one); second e0 =
 *           address that receives the old value (0: none), e1 = 0.
 *   FLUSH   nothing to do; a producer's quiet waits for the completion count past it.
 *   FENCE   no fields: every operation after it to a PE is performed after every operation before it
 *           to that PE (shmem_fence). Between fences an engine may perform the PUTs to one PE in any
 *           order and concurrently; GET, SIGNAL and AMO come after every earlier operation to their PE. */

#define GSHMEM_TRIGGER_MAX_PE 0xfffffu
#define GSHMEM_TRIGGER_MAX_SIZE 0xfffffffffull
#define GSHMEM_TRIGGER_MAX_OFFSET 0xffffffffffffull

/* Encoders for the operations above: *t and *ext receive the trigger and its extension. */
static inline GSHMEM_TRIG_HD void gshmem_trigger_put(uint32_t pe, uint32_t seg, uint64_t dst_off, uint64_t src_addr,
                                                     uint64_t bytes, gshmem_trigger *t, gshmem_trigger *ext) {
  *t = gshmem_trigger_encode(GSHMEM_TRIG_PUT, GSHMEM_TRIG_FLAG_EXT, pe, bytes, dst_off, seg);
  ext->w0 = src_addr;
  ext->w1 = 0;
}
/* data: size bytes (<= 16), copied into the extension */
static inline GSHMEM_TRIG_HD void gshmem_trigger_put_inline(uint32_t pe, uint32_t seg, uint64_t dst_off, uint64_t lo,
                                                            uint64_t hi, uint64_t bytes, gshmem_trigger *t,
                                                            gshmem_trigger *ext) {
  *t = gshmem_trigger_encode(GSHMEM_TRIG_PUT, GSHMEM_TRIG_FLAG_EXT | GSHMEM_TRIG_FLAG_INLINE, pe, bytes, dst_off, seg);
  ext->w0 = lo;
  ext->w1 = hi;
}
static inline GSHMEM_TRIG_HD void gshmem_trigger_get(uint32_t pe, uint32_t seg, uint64_t src_off, uint64_t dst_addr,
                                                     uint64_t bytes, gshmem_trigger *t, gshmem_trigger *ext) {
  *t = gshmem_trigger_encode(GSHMEM_TRIG_GET, GSHMEM_TRIG_FLAG_EXT, pe, bytes, src_off, seg);
  ext->w0 = dst_addr;
  ext->w1 = 0;
}
static inline GSHMEM_TRIG_HD void gshmem_trigger_signal(uint32_t pe, uint32_t seg, uint64_t off, uint64_t value,
                                                        uint32_t sig_op, gshmem_trigger *t, gshmem_trigger *ext) {
  *t = gshmem_trigger_encode(GSHMEM_TRIG_SIGNAL, GSHMEM_TRIG_FLAG_EXT, pe, sig_op, off, seg);
  ext->w0 = 0;
  ext->w1 = value;
}
static inline GSHMEM_TRIG_HD gshmem_trigger gshmem_trigger_fence(void) {
  return gshmem_trigger_encode(GSHMEM_TRIG_FENCE, 0, 0, 0, 0, 0);
}
/* ext: two slots */
static inline GSHMEM_TRIG_HD void gshmem_trigger_amo(uint32_t pe, uint32_t seg, uint64_t off, gshmem_amo_op op,
                                                     uint32_t bytes, uint64_t a, uint64_t b, uint64_t result_addr,
                                                     gshmem_trigger *t, gshmem_trigger *ext) {
  *t = gshmem_trigger_encode(GSHMEM_TRIG_AMO, GSHMEM_TRIG_FLAG_EXT2, pe, ((uint64_t)op << 4) | (bytes & 0xfu), off,
                             seg);
  ext[0].w0 = a;
  ext[0].w1 = b;
  ext[1].w0 = result_addr;
  ext[1].w1 = 0;
}

#ifdef __cplusplus
static_assert(sizeof(gshmem_trigger) == 16, "a trigger is one 16-byte slot");
#endif
#endif
