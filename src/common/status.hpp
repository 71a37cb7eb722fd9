// Status codes and the propagate macro. A failing call logs once where the error is found;
// callers propagate with GSHMEM_CHECK, which leaves a file:line breadcrumb at trace level.
#pragma once
#include <cstdint>

namespace gshmem {

enum class Status : int32_t {
  ok = 0,
  invalid_argument,
  out_of_memory,
  system_error,   // a syscall failed; errno was logged
  not_available,  // a library, device or feature is absent
  bootstrap_error,
  timeout,
  peer_failed,
  internal_error,
};

const char* status_name(Status s) noexcept;

}  // namespace gshmem

#define GSHMEM_CHECK(expr)                                                               \
  do {                                                                                   \
    ::gshmem::Status gshmem_st_ = (expr);                                                \
    if (gshmem_st_ != ::gshmem::Status::ok) {                                            \
      GSHMEM_TRACE(::gshmem::Subsys::all, "%s:%d <- %s (%s)", __FILE__, __LINE__, #expr, \
                   ::gshmem::status_name(gshmem_st_));                                   \
      return gshmem_st_;                                                                 \
    }                                                                                    \
  } while (0)
