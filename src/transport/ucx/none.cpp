// The ucx transport's table line in a gshmem built without UCX's headers: never usable.
#include "transport/ucx/ucx.hpp"

namespace gshmem::transport {

Probe ucx_probe(const Config& cfg, bool gpu) {
  (void)cfg, (void)gpu;
  Probe p;
  p.why = "this gshmem was built without UCX's headers (libucx-dev, or -Ducx_include=...)";
  return p;
}

Result ucx_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out) {
  (void)env, (void)peers, (void)out;
  return Result::fail(Status::not_available, "this gshmem was built without UCX's headers");
}

}  // namespace gshmem::transport
