/* Linkage of the public C API. libgshmem is compiled with hidden visibility (docs/abi.md): the
 * declarations between GSHMEM_EXTERN_C_BEGIN and GSHMEM_EXTERN_C_END are its exports, and
 * nothing else. In programs that include these headers both macros only open and close an
 * extern "C" block (C++), or expand to nothing (C). */
#ifndef GSHMEM_EXPORT_H
#define GSHMEM_EXPORT_H

#if defined(GSHMEM_BUILDING_LIBRARY) && defined(__GNUC__)
#define GSHMEM_VISIBILITY_PUSH_ _Pragma("GCC visibility push(default)")
#define GSHMEM_VISIBILITY_POP_ _Pragma("GCC visibility pop")
#else
#define GSHMEM_VISIBILITY_PUSH_
#define GSHMEM_VISIBILITY_POP_
#endif

#ifdef __cplusplus
#define GSHMEM_EXTERN_C_BEGIN extern "C" { GSHMEM_VISIBILITY_PUSH_
#define GSHMEM_EXTERN_C_END GSHMEM_VISIBILITY_POP_ }
#else
#define GSHMEM_EXTERN_C_BEGIN GSHMEM_VISIBILITY_PUSH_
#define GSHMEM_EXTERN_C_END GSHMEM_VISIBILITY_POP_
#endif

#endif /* GSHMEM_EXPORT_H */
