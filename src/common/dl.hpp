// Typed dlopen/dlsym wrappers: optional libraries (PMIx, MPI, CUDA driver, verbs) are loaded at
// run time so libgshmem starts on machines that lack them.
#pragma once
#include <dlfcn.h>

#include <string>

namespace gshmem {

class DynLib {
 public:
  DynLib() = default;
  DynLib(const DynLib&) = delete;
  DynLib& operator=(const DynLib&) = delete;
  ~DynLib() {
    // Libraries stay loaded for the life of the process: unloading a PMIx or CUDA library that
    // started threads is unsafe.
  }
  bool open(const char* name) {
    handle_ = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!handle_) error_ = dlerror();
    return handle_ != nullptr;
  }
  // Looks up in the whole process (for symbols of a library the program already linked).
  void use_process() { handle_ = RTLD_DEFAULT; }
  template <typename Fn>
  bool sym(const char* name, Fn* out) {
    void* p = dlsym(handle_, name);
    if (!p) {
      const char* e = dlerror();
      error_ = std::string(name) + ": " + (e ? e : "not found");
      return false;
    }
    *out = reinterpret_cast<Fn>(p);
    return true;
  }
  const std::string& error() const { return error_; }

 private:
  void* handle_ = nullptr;
  std::string error_;
};

}  // namespace gshmem
