#include "mem/device_state.hpp"

#include <atomic>
#include <mutex>
#include <vector>

#include "common/log.hpp"

namespace gshmem::mem {

namespace {
using Updater = void (*)(const gshmem_device_state*);
std::mutex g_reg_mu;
std::vector<Updater>& registry() {
  static std::vector<Updater> r;
  return r;
}
gshmem_device_state g_state{};
#if GSHMEM_HAVE_CUDA
struct ModuleCopy {
  const cu::Driver* drv;
  CUcontext ctx;
  const void* key;
  CUdeviceptr dptr;
};
std::vector<ModuleCopy> g_modules;
CUresult copy_to(const ModuleCopy& m, const gshmem_device_state& s) {
  CUcontext cur = nullptr;
  m.drv->cuCtxGetCurrent(&cur);
  if (cur != m.ctx) m.drv->cuCtxSetCurrent(m.ctx);
  const CUresult r = m.drv->cuMemcpyHtoD(m.dptr, &s, sizeof s);
  if (cur != m.ctx) m.drv->cuCtxSetCurrent(cur);
  return r;
}
#endif
bool g_published = false;
bool g_mismatch = false;
unsigned g_mismatch_version = 0, g_mismatch_size = 0;
std::atomic<uint64_t> g_generation{0};
}  // namespace

uint64_t published_device_state(gshmem_device_state* out) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  *out = g_state;
  return g_generation.load();
}

uint64_t published_device_generation() { return g_generation.load(std::memory_order_acquire); }

bool device_state_mismatch(unsigned* version, unsigned* size) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  *version = g_mismatch_version;
  *size = g_mismatch_size;
  return g_mismatch;
}

bool device_code_present() {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  return !registry().empty();
}

void publish_device_state(const gshmem_device_state& s) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  g_state = s;
  g_published = true;
  ++g_generation;
  for (Updater u : registry()) u(&g_state);
#if GSHMEM_HAVE_CUDA
  for (const ModuleCopy& m : g_modules) {
    const CUresult r = copy_to(m, g_state);
    if (r != CUDA_SUCCESS)
      GSHMEM_WARN(Subsys::mem, "updating a loaded module's device state failed: %s", cu::error_string(r));
  }
#endif
}

#if GSHMEM_HAVE_CUDA
Status add_module_state(const cu::Driver* drv, CUcontext ctx, const void* key, CUdeviceptr dptr) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  const ModuleCopy m{drv, ctx, key, dptr};
  const CUresult r = copy_to(m, g_state);
  if (r != CUDA_SUCCESS) {
    GSHMEM_WARN(Subsys::mem, "copying the device state into a loaded module failed: %s", cu::error_string(r));
    return Status::system_error;
  }
  for (ModuleCopy& e : g_modules)
    if (e.key == key) {
      e = m;
      return Status::ok;
    }
  g_modules.push_back(m);
  return Status::ok;
}

bool remove_module_state(const void* key) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  for (size_t i = 0; i < g_modules.size(); ++i)
    if (g_modules[i].key == key) {
      g_modules.erase(g_modules.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
  return false;
}

void forget_module_states() {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  g_modules.clear();
}
#endif

}  // namespace gshmem::mem

// A unit of another layout is not given the state (it would read fields where they are not);
// shmem_init then fails naming both versions (core/runtime.cpp). A unit loaded after shmem_init
// (a shared library opened later) is reported here: its device code sees a zeroed state.
extern "C" int gshmemi_register_device_state2(void (*update)(const gshmem_device_state*), unsigned version,
                                              unsigned size) {
  namespace m = gshmem::mem;
  std::lock_guard<std::mutex> lock(m::g_reg_mu);
  if (version != GSHMEM_DEVICE_STATE_VERSION || size != sizeof(gshmem_device_state)) {
    if (!m::g_mismatch) {
      m::g_mismatch = true;
      m::g_mismatch_version = version;
      m::g_mismatch_size = size;
    }
    if (m::g_published)
      GSHMEM_WARN(gshmem::Subsys::mem,
                  "a CUDA translation unit loaded after shmem_init was compiled against other gshmem headers "
                  "(device state version %u, %u bytes; this library's: version %u, %zu bytes); its device code "
                  "gets no state: rebuild it against this gshmem",
                  version, size, GSHMEM_DEVICE_STATE_VERSION, sizeof(gshmem_device_state));
    return -1;
  }
  m::registry().push_back(update);
  if (m::g_published) update(&m::g_state);
  return 0;
}

// What units compiled against headers before device-state version 7 call.
extern "C" int gshmemi_register_device_state(void (*update)(const gshmem_device_state*)) {
  return gshmemi_register_device_state2(update, 0, 0);
}
