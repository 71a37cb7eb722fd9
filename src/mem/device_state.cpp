#include "mem/device_state.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace gshmem::mem {

namespace {
using Updater = void (*)(const gshmem_device_state*);
std::mutex g_reg_mu;
std::vector<Updater>& registry() {
  static std::vector<Updater> r;
  return r;
}
gshmem_device_state g_state{};
bool g_published = false;
std::atomic<uint64_t> g_generation{0};
}  // namespace

uint64_t published_device_state(gshmem_device_state* out) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  *out = g_state;
  return g_generation.load();
}

uint64_t published_device_generation() { return g_generation.load(std::memory_order_acquire); }

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
}

}  // namespace gshmem::mem

extern "C" int gshmemi_register_device_state(void (*update)(const gshmem_device_state*)) {
  std::lock_guard<std::mutex> lock(gshmem::mem::g_reg_mu);
  gshmem::mem::registry().push_back(update);
  if (gshmem::mem::g_published) update(&gshmem::mem::g_state);
  return 0;
}
