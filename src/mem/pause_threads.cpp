#include "mem/pause_threads.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>

#include "common/log.hpp"

namespace gshmem::mem {
namespace {

constexpr int kMaxThreads = 4096;
constexpr uintptr_t kTag = 0x6773ULL;      // "gs", the top 16 bits of the signal's value
constexpr long kResendNs = 50000000L;      // 50 ms: a thread not paused by then gets the signal again
constexpr long kDeadlineNs = 1000000000L;  // a thread not in the handler after 1 s: give up

// Slot states: the main thread sets kSent, the paused thread kPaused and then kResumed; kSkipped:
// the thread kept the signal blocked past the grace period (its signal stays pending).
enum : int { kFree = 0, kSent = 1, kPaused = 2, kResumed = 3, kSkipped = 4 };
constexpr long kGraceNs = 20000000L;  // 20 ms: a thread blocking the signal longer is skipped

// Shared with the handler through plain volatile accesses and explicit fences: sanitizer runtimes
// instrument atomics even in uninstrumented functions, and the handler must not enter them.
struct PauseState {
  volatile int release;  // futex word: 1 once fn has run
  volatile int gen;      // this pause's number (bits 32-47 of the signal's value): late signals of
                         // an earlier pause are ignored
  volatile int slot[kMaxThreads];
  int tid[kMaxThreads];
  long sent_ns[kMaxThreads];       // first signal
  long last_sent_ns[kMaxThreads];  // latest signal (it is sent again every kResendNs)
  int nslots;
  pid_t pid;
  int signo;
  struct sigaction old_action;
};
PauseState g_pause;
bool g_busy = false;          // run_with_threads_paused is not reentrant (one caller: shmem_init)
bool g_keep_handler = false;  // a sent signal may still arrive: leave the handler installed

GSHMEM_NO_INSTRUMENT inline void full_fence() {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("mfence" ::: "memory");
#elif defined(__aarch64__)
  asm volatile("dmb ish" ::: "memory");
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

GSHMEM_NO_INSTRUMENT void pause_handler(int sig, siginfo_t* si, void* uc) {
  const auto v = reinterpret_cast<uintptr_t>(si ? si->si_value.sival_ptr : nullptr);
  if (si && si->si_code == SI_QUEUE && si->si_pid == g_pause.pid && (v >> 48) == kTag) {
    const int idx = static_cast<int>(v & 0xffffffffu);
    if (idx < 0 || idx >= kMaxThreads) return;
    full_fence();
    if (static_cast<int>((v >> 32) & 0xffffu) != (g_pause.gen & 0xffff) || g_pause.release != 0 ||
        g_pause.slot[idx] != kSent)
      return;  // a repeat of a signal already taken, or one of an earlier pause: nothing to do
    const int saved_errno = errno;
    full_fence();
    g_pause.slot[idx] = kPaused;
    full_fence();
    while (g_pause.release == 0) syscall(SYS_futex, &g_pause.release, FUTEX_WAIT_PRIVATE, 0, nullptr, nullptr, 0);
    full_fence();
    g_pause.slot[idx] = kResumed;
    errno = saved_errno;
    return;
  }
  // Not ours: hand it to what the program had installed.
  const struct sigaction& o = g_pause.old_action;
  if (o.sa_flags & SA_SIGINFO) {
    if (o.sa_sigaction) o.sa_sigaction(sig, si, uc);
  } else if (o.sa_handler != SIG_DFL && o.sa_handler != SIG_IGN && o.sa_handler) {
    o.sa_handler(sig);
  }
}

long now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

void nap() {
  timespec ts{0, 50000};  // 50 µs
  nanosleep(&ts, nullptr);
}

// The process's thread ids (raw getdents64: no allocation while other threads are paused).
int list_tasks(int* out, int max) {
  const int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -1;
  int n = 0;
  alignas(8) char buf[4096];
  for (;;) {
    const long got = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (got <= 0) break;
    for (long off = 0; off < got;) {
      const char* rec = buf + off;
      unsigned short reclen;
      std::memcpy(&reclen, rec + 16, sizeof reclen);  // d_ino(8) d_off(8) d_reclen(2) d_type(1) d_name
      const char* name = rec + 19;
      if (name[0] >= '0' && name[0] <= '9' && n < max) {
        int t = 0;
        for (const char* c = name; *c >= '0' && *c <= '9'; ++c) t = t * 10 + (*c - '0');
        out[n++] = t;
      }
      off += reclen;
    }
  }
  close(fd);
  return n;
}

// Opens /proc/self/task/<tid>/<leaf> read-only (no allocation); -1 once the thread has exited.
int open_task_file(int tid, const char* leaf) {
  char path[64] = "/proc/self/task/";
  char digits[16];
  int nd = 0;
  for (int t = tid; t > 0 && nd < 15; t /= 10) digits[nd++] = static_cast<char>('0' + t % 10);
  size_t len = std::strlen(path);
  while (nd > 0) path[len++] = digits[--nd];
  path[len++] = '/';
  for (const char* c = leaf; *c && len < sizeof path - 1; ++c) path[len++] = *c;
  path[len] = '\0';
  return open(path, O_RDONLY | O_CLOEXEC);
}

int open_status(int tid) { return open_task_file(tid, "status"); }

// Appends up to cap-1 bytes of /proc/self/task/<tid>/<leaf> (its first line) to out.
void append_task_line(int tid, const char* leaf, const char* label, char* out, size_t cap) {
  char buf[256];
  ssize_t got = -1;
  const int fd = open_task_file(tid, leaf);
  if (fd >= 0) {
    got = read(fd, buf, sizeof buf - 1);
    close(fd);
  }
  if (got < 0) got = 0;
  buf[got] = '\0';
  if (char* nl = std::strchr(buf, '\n')) *nl = '\0';
  size_t o = std::strlen(out);
  for (const char* c = label; *c && o + 1 < cap; ++c) out[o++] = *c;
  for (const char* c = buf; *c && o + 1 < cap; ++c) out[o++] = *c;
  out[o] = '\0';
}

// "name X, State: S (sleeping), syscall N ..." for a stuck thread's warning.
void describe_task(int tid, char* out, size_t cap) {
  out[0] = '\0';
  append_task_line(tid, "comm", "name ", out, cap);
  char state[128] = "";
  {
    const int fd = open_status(tid);
    if (fd >= 0) {
      char buf[2048];
      const ssize_t got = read(fd, buf, sizeof buf - 1);
      close(fd);
      if (got > 0) {
        buf[got] = '\0';
        size_t i = 0;
        static const char* const kKeys[] = {"State:", "SigPnd:", "SigBlk:"};
        for (const char* key : kKeys)
          if (const char* p = std::strstr(buf, key)) {
            if (i && i + 2 < sizeof state) state[i++] = ' ';
            for (; *p && *p != '\n' && i + 1 < sizeof state; ++p) state[i++] = *p == '\t' ? ' ' : *p;
          }
        state[i] = '\0';
      }
    }
  }
  size_t o = std::strlen(out);
  const char* parts[] = {", ", state};
  for (const char* part : parts)
    for (const char* c = part; *c && o + 1 < cap; ++c) out[o++] = *c;
  out[o] = '\0';
  append_task_line(tid, "syscall", ", syscall ", out, cap);
}

bool thread_exists(int tid) {
  const int fd = open_status(tid);
  if (fd < 0) return false;
  close(fd);
  return true;
}

// Whether thread tid blocks signal sig (its SigBlk mask in /proc/self/task/<tid>/status).
bool blocks_signal(int tid, int sig) {
  const int fd = open_status(tid);
  if (fd < 0) return false;  // gone: nothing to pause
  char buf[4096];
  const ssize_t got = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (got <= 0) return false;
  buf[got] = '\0';
  const char* p = std::strstr(buf, "SigBlk:");
  if (!p) return false;
  p += 7;
  while (*p == ' ' || *p == '\t') ++p;
  unsigned long long mask = 0;
  for (; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); ++p)
    mask = (mask << 4) | static_cast<unsigned>(*p <= '9' ? *p - '0' : *p - 'a' + 10);
  return (mask >> (sig - 1)) & 1ULL;
}

bool known(int tid) {
  for (int i = 0; i < g_pause.nslots; ++i)
    if (g_pause.tid[i] == tid) return true;
  return false;
}

// Sends the pause signal to slot idx's thread: 0 sent, 1 the thread has exited, -1 failed (warned).
int send_pause(int idx) {
  siginfo_t info;
  std::memset(&info, 0, sizeof info);
  info.si_signo = g_pause.signo;
  info.si_code = SI_QUEUE;
  info.si_pid = g_pause.pid;
  info.si_uid = getuid();
  const uintptr_t gen = static_cast<uintptr_t>(g_pause.gen & 0xffff);
  info.si_value.sival_ptr = reinterpret_cast<void*>((kTag << 48) | (gen << 32) | static_cast<uintptr_t>(idx));
  g_pause.last_sent_ns[idx] = now_ns();
  if (syscall(SYS_rt_tgsigqueueinfo, g_pause.pid, g_pause.tid[idx], g_pause.signo, &info) == 0) return 0;
  if (errno == ESRCH) return 1;
  GSHMEM_WARN(Subsys::mem, "pause: signal %d to thread %d: %s", g_pause.signo, g_pause.tid[idx], std::strerror(errno));
  return -1;
}

// Sends the pause signal to every thread not yet known (a thread that blocks it gets it pending);
// returns how many were new, or -1 when a signal could not be sent to a live thread.
int signal_new_threads(int self) {
  static int tids[kMaxThreads];
  const int n = list_tasks(tids, kMaxThreads);
  int fresh = 0;
  for (int i = 0; i < n; ++i) {
    const int t = tids[i];
    if (t == self || known(t) || g_pause.nslots >= kMaxThreads) continue;
    const int idx = g_pause.nslots++;
    g_pause.tid[idx] = t;
    ++fresh;
    g_pause.slot[idx] = kSent;
    g_pause.sent_ns[idx] = now_ns();
    full_fence();
    const int rc = send_pause(idx);
    if (rc == 1) {  // exited meanwhile
      g_pause.slot[idx] = kFree;
      continue;
    }
    if (rc < 0) {
      g_pause.slot[idx] = kFree;
      return -1;
    }
  }
  return fresh;
}

// Waits until no slot is in state `from`; returns 0, or the tid of a thread still there at the
// deadline. Waiting for kSent: a thread that exited is dropped, and one that still blocks the
// signal after the grace period is skipped (counted in rep).
int wait_slots_leave(int from, long deadline, PauseReport* rep) {
  for (;;) {
    int pending = 0;
    full_fence();
    for (int i = 0; i < g_pause.nslots; ++i)
      if (g_pause.slot[i] == from) {
        if (!thread_exists(g_pause.tid[i])) {  // exited with the signal pending
          g_pause.slot[i] = kFree;
          continue;
        }
        if (from == kSent && now_ns() - g_pause.sent_ns[i] > kGraceNs && blocks_signal(g_pause.tid[i], g_pause.signo)) {
          g_pause.slot[i] = kSkipped;
          if (rep) ++rep->skipped;
          GSHMEM_DEBUG(Subsys::mem, "pause: thread %d blocks signal %d, not paused", g_pause.tid[i], g_pause.signo);
          continue;
        }
        // Not there yet: send again now and then. (ThreadSanitizer's runtime, which defers a signal
        // to the thread's next intercepted call, was seen to hold one without ever delivering it.)
        if (from == kSent && now_ns() - g_pause.last_sent_ns[i] > kResendNs && send_pause(i) == 0 && rep) ++rep->resent;
        if (!pending) pending = g_pause.tid[i];
      }
    if (!pending) return 0;
    if (now_ns() > deadline) return pending;
    nap();
  }
}

}  // namespace

Status run_with_threads_paused(void (*fn)(void*), void* arg, PauseReport* report) {
  PauseReport local;
  PauseReport* rep = report ? report : &local;
  *rep = PauseReport{};
  if (g_busy) return Status::internal_error;
  const int self = static_cast<int>(syscall(SYS_gettid));
  {
    static int tids[kMaxThreads];
    const int n = list_tasks(tids, kMaxThreads);
    if (n < 0) {  // no /proc: threads cannot be found, let alone paused
      GSHMEM_INFO(Subsys::mem, "pause: /proc/self/task unreadable; other threads (if any) are not paused");
      fn(arg);
      return Status::ok;
    }
    if (n == 1 && tids[0] == self) {  // the common case: nobody else to pause
      fn(arg);
      return Status::ok;
    }
  }
  g_busy = true;
  g_pause.pid = getpid();
  g_pause.signo = SIGRTMAX - 1;
  g_pause.release = 0;
  g_pause.gen = g_pause.gen + 1;
  g_pause.nslots = 0;
  for (int i = 0; i < kMaxThreads; ++i) g_pause.slot[i] = kFree;
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = pause_handler;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset(&sa.sa_mask);  // nothing else runs on a paused thread
  if (!g_keep_handler && sigaction(g_pause.signo, &sa, &g_pause.old_action) != 0) {
    GSHMEM_WARN(Subsys::mem, "pause: sigaction(%d): %s", g_pause.signo, std::strerror(errno));
    g_busy = false;
    return Status::system_error;
  }
  const long deadline = now_ns() + kDeadlineNs;
  int stuck = 0;
  // A thread that was running may have started another before it paused: list again until the
  // set is stable with every listed thread paused.
  bool send_failed = false;
  for (int round = 0; round < 64; ++round) {
    stuck = wait_slots_leave(kSent, deadline, rep);
    if (stuck) break;
    const int fresh = signal_new_threads(self);
    if (fresh < 0) send_failed = true;
    if (fresh <= 0) break;
  }
  if (!stuck && !send_failed) stuck = wait_slots_leave(kSent, deadline, rep);
  if (stuck) describe_task(stuck, rep->stuck_info, sizeof rep->stuck_info);  // before it is released
  const bool run = !stuck && !send_failed;
  if (run) fn(arg);
  full_fence();
  g_pause.release = 1;
  full_fence();
  syscall(SYS_futex, &g_pause.release, FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
  for (int i = 0; i < g_pause.nslots; ++i)
    if (g_pause.slot[i] == kPaused || g_pause.slot[i] == kResumed) ++rep->paused;
  wait_slots_leave(kPaused, now_ns() + kDeadlineNs, nullptr);
  if (stuck) rep->stuck_tid = stuck;
  // A skipped or stuck thread's signal is still pending: the handler stays (it returns at once now
  // that release is set, and passes other senders' signals on).
  if (stuck || rep->skipped || rep->resent) g_keep_handler = true;
  else if (!g_keep_handler) sigaction(g_pause.signo, &g_pause.old_action, nullptr);
  g_busy = false;
  if (send_failed) return Status::system_error;
  return stuck ? Status::timeout : Status::ok;
}

}  // namespace gshmem::mem
