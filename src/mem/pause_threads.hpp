// Stop-the-world for the symmetric-globals remap: every other thread of the process waits inside a
// signal handler while a function runs, so no write of theirs can fall between a copy of memory and
// the mapping that replaces it.
#pragma once
#include "common/status.hpp"

// A function that runs while sanitizer-built threads are paused must not enter the sanitizer's
// runtime: its state lives in the executable's data segment, which is what is being copied.
#if defined(__clang__)
#if __has_attribute(disable_sanitizer_instrumentation)
#define GSHMEM_NO_INSTRUMENT \
  __attribute__((no_sanitize("address", "undefined", "thread"), disable_sanitizer_instrumentation))
#else
#define GSHMEM_NO_INSTRUMENT __attribute__((no_sanitize("address", "undefined", "thread")))
#endif
#else
#define GSHMEM_NO_INSTRUMENT __attribute__((no_sanitize_address, no_sanitize_thread, no_sanitize_undefined))
#endif

namespace gshmem::mem {

struct PauseReport {
  int paused = 0;             // threads that waited in the handler while fn ran
  int skipped = 0;            // threads that block the pause signal (a sanitizer's internal thread, say)
  int resent = 0;             // signals sent again to a thread not paused 50 ms after the previous one
  int stuck_tid = 0;          // on Status::timeout: a thread that did not reach the handler in time
  char stuck_info[256] = {};  // its name, state and system call (from /proc), for the warning
};

// Runs fn(arg) while every other thread of the process waits in a handler of the real-time signal
// SIGRTMAX-1 (installed for the duration, chaining any handler the program had for it). Every
// thread is sent the signal (again every 50 ms until it is in the handler); one that still blocks
// it 20 ms later cannot be paused and is counted in skipped (the handler then stays installed for
// its pending signal). fn must not allocate, lock,
// or call sanitizer-instrumented code (a paused thread may hold the lock). Returns ok once fn ran
// and every paused thread resumed; Status::timeout (fn not run) when a thread did not reach the
// handler within a second; system_error (fn not run) when a live thread could not be signalled.
// Without /proc (threads cannot be listed) fn runs unpaused.
Status run_with_threads_paused(void (*fn)(void*), void* arg, PauseReport* report);

}  // namespace gshmem::mem
