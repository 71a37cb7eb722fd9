// The UCP entry points the ucx transport calls, loaded at run time (dlopen of libucp.so.0, or the
// library GSHMEM_UCX_LIBRARY names), so libgshmem starts on machines without UCX. Built against
// UCX's own headers (Debian's libucx-dev, a site's HPC-X or the libucx wheels); the UCP API keeps
// its structures extensible by field masks, so a newer UCX at run time accepts what an older
// header describes.
#pragma once
#include <ucp/api/ucp.h>

#include <string>

namespace gshmem::transport::ucx {

struct Ucp {
  unsigned major = 0, minor = 0, release = 0;  // the loaded library's version
  void (*get_version)(unsigned*, unsigned*, unsigned*) = nullptr;
  ucs_status_t (*config_read)(const char*, const char*, ucp_config_t**) = nullptr;
  void (*config_release)(ucp_config_t*) = nullptr;
  ucs_status_t (*init_version)(unsigned, unsigned, const ucp_params_t*, const ucp_config_t*, ucp_context_h*) = nullptr;
  void (*cleanup)(ucp_context_h) = nullptr;
  ucs_status_t (*context_query)(ucp_context_h, ucp_context_attr_t*) = nullptr;
  ucs_status_t (*worker_create)(ucp_context_h, const ucp_worker_params_t*, ucp_worker_h*) = nullptr;
  void (*worker_destroy)(ucp_worker_h) = nullptr;
  ucs_status_t (*worker_get_address)(ucp_worker_h, ucp_address_t**, size_t*) = nullptr;
  void (*worker_release_address)(ucp_worker_h, ucp_address_t*) = nullptr;
  unsigned (*worker_progress)(ucp_worker_h) = nullptr;
  ucs_status_t (*worker_get_efd)(ucp_worker_h, int*) = nullptr;
  ucs_status_t (*worker_arm)(ucp_worker_h) = nullptr;
  ucs_status_t (*worker_fence)(ucp_worker_h) = nullptr;
  ucs_status_ptr_t (*worker_flush_nbx)(ucp_worker_h, const ucp_request_param_t*) = nullptr;
  ucs_status_t (*worker_set_am_recv_handler)(ucp_worker_h, const ucp_am_handler_param_t*) = nullptr;
  ucs_status_t (*ep_create)(ucp_worker_h, const ucp_ep_params_t*, ucp_ep_h*) = nullptr;
  ucs_status_ptr_t (*ep_close_nbx)(ucp_ep_h, const ucp_request_param_t*) = nullptr;
  ucs_status_ptr_t (*ep_flush_nbx)(ucp_ep_h, const ucp_request_param_t*) = nullptr;
  ucs_status_t (*mem_map)(ucp_context_h, const ucp_mem_map_params_t*, ucp_mem_h*) = nullptr;
  ucs_status_t (*mem_unmap)(ucp_context_h, ucp_mem_h) = nullptr;
  ucs_status_t (*rkey_pack)(ucp_context_h, ucp_mem_h, void**, size_t*) = nullptr;
  void (*rkey_buffer_release)(void*) = nullptr;
  ucs_status_t (*ep_rkey_unpack)(ucp_ep_h, const void*, ucp_rkey_h*) = nullptr;
  void (*rkey_destroy)(ucp_rkey_h) = nullptr;
  ucs_status_ptr_t (*put_nbx)(ucp_ep_h, const void*, size_t, uint64_t, ucp_rkey_h,
                              const ucp_request_param_t*) = nullptr;
  ucs_status_ptr_t (*get_nbx)(ucp_ep_h, void*, size_t, uint64_t, ucp_rkey_h, const ucp_request_param_t*) = nullptr;
  ucs_status_ptr_t (*atomic_op_nbx)(ucp_ep_h, ucp_atomic_op_t, const void*, size_t, uint64_t, ucp_rkey_h,
                                    const ucp_request_param_t*) = nullptr;
  ucs_status_ptr_t (*am_send_nbx)(ucp_ep_h, unsigned, const void*, size_t, const void*, size_t,
                                  const ucp_request_param_t*) = nullptr;
  ucs_status_t (*request_check_status)(void*) = nullptr;
  void (*request_free)(void*) = nullptr;
  const char* (*status_string)(ucs_status_t) = nullptr;  // libucs, loaded with libucp

  const char* str(ucs_status_t s) const { return status_string ? status_string(s) : "?"; }
};

// Loads the library once per process (later calls return the same table). False with *why
// naming the library and what is missing.
bool load_ucp(const std::string& library, const Ucp** out, std::string* why);

}  // namespace gshmem::transport::ucx
