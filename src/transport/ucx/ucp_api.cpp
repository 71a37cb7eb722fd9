#include "transport/ucx/ucp_api.hpp"

#include <mutex>

#include "common/dl.hpp"

namespace gshmem::transport::ucx {

bool load_ucp(const std::string& library, const Ucp** out, std::string* why) {
  static std::mutex mu;
  static Ucp ucp;
  static DynLib lib;
  static int state = 0;  // 0 not tried, 1 loaded, -1 failed
  static std::string error;
  std::lock_guard<std::mutex> lock(mu);
  if (state == 0) {
    bool ok = lib.open(library.c_str());
#define GSHMEM_UCP_SYM(field, name) ok = ok && lib.sym(name, &ucp.field)
    GSHMEM_UCP_SYM(get_version, "ucp_get_version");
    GSHMEM_UCP_SYM(config_read, "ucp_config_read");
    GSHMEM_UCP_SYM(config_release, "ucp_config_release");
    GSHMEM_UCP_SYM(init_version, "ucp_init_version");
    GSHMEM_UCP_SYM(cleanup, "ucp_cleanup");
    GSHMEM_UCP_SYM(context_query, "ucp_context_query");
    GSHMEM_UCP_SYM(worker_create, "ucp_worker_create");
    GSHMEM_UCP_SYM(worker_destroy, "ucp_worker_destroy");
    GSHMEM_UCP_SYM(worker_get_address, "ucp_worker_get_address");
    GSHMEM_UCP_SYM(worker_release_address, "ucp_worker_release_address");
    GSHMEM_UCP_SYM(worker_progress, "ucp_worker_progress");
    GSHMEM_UCP_SYM(worker_get_efd, "ucp_worker_get_efd");
    GSHMEM_UCP_SYM(worker_arm, "ucp_worker_arm");
    GSHMEM_UCP_SYM(worker_fence, "ucp_worker_fence");
    GSHMEM_UCP_SYM(worker_flush_nbx, "ucp_worker_flush_nbx");
    GSHMEM_UCP_SYM(worker_set_am_recv_handler, "ucp_worker_set_am_recv_handler");
    GSHMEM_UCP_SYM(ep_create, "ucp_ep_create");
    GSHMEM_UCP_SYM(ep_close_nbx, "ucp_ep_close_nbx");
    GSHMEM_UCP_SYM(ep_flush_nbx, "ucp_ep_flush_nbx");
    GSHMEM_UCP_SYM(mem_map, "ucp_mem_map");
    GSHMEM_UCP_SYM(mem_unmap, "ucp_mem_unmap");
    GSHMEM_UCP_SYM(rkey_pack, "ucp_rkey_pack");
    GSHMEM_UCP_SYM(rkey_buffer_release, "ucp_rkey_buffer_release");
    GSHMEM_UCP_SYM(ep_rkey_unpack, "ucp_ep_rkey_unpack");
    GSHMEM_UCP_SYM(rkey_destroy, "ucp_rkey_destroy");
    GSHMEM_UCP_SYM(put_nbx, "ucp_put_nbx");
    GSHMEM_UCP_SYM(get_nbx, "ucp_get_nbx");
    GSHMEM_UCP_SYM(atomic_op_nbx, "ucp_atomic_op_nbx");
    GSHMEM_UCP_SYM(am_send_nbx, "ucp_am_send_nbx");
    GSHMEM_UCP_SYM(request_check_status, "ucp_request_check_status");
    GSHMEM_UCP_SYM(request_free, "ucp_request_free");
    GSHMEM_UCP_SYM(status_string, "ucs_status_string");
#undef GSHMEM_UCP_SYM
    if (ok) {
      ucp.get_version(&ucp.major, &ucp.minor, &ucp.release);
      state = 1;
    } else {
      state = -1;
      error = "UCX (" + library + ") cannot be loaded: " + lib.error() + " (install UCX, or set GSHMEM_UCX_LIBRARY)";
    }
  }
  if (state < 0) {
    *why = error;
    return false;
  }
  *out = &ucp;
  return true;
}

}  // namespace gshmem::transport::ucx
