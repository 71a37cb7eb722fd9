// oshrun: starts the PEs of an OpenSHMEM program on this host (uid bootstrap over loopback TCP),
// or hands the job to mpirun, srun or prterun. Supervises the PEs: forwards signals, stops the
// job when one PE fails and exits with that PE's status, and optionally tags every output line.
// It reads the environment through gshmem's configuration table (a malformed GSHMEM_* value, or a
// GSHMEM_BOOTSTRAP its PEs cannot use, stops it before it starts anything) and sets the bootstrap
// variables for the PEs. Every PE inherits the read end of a pipe whose write end only oshrun
// holds (GSHMEM_LAUNCHER_FD): when oshrun dies, even by SIGKILL, the PEs' health monitors see the
// pipe close and end them, also PEs started through a wrapper (oshrun -np 4 sh -c "./prog").
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bootstrap/uid.hpp"
#include "common/config.hpp"
#include "common/io.hpp"
#include "gshmem/version.h"
#include "oshrun_bind.hpp"

extern char** environ;

namespace {

constexpr int kTermGraceMs = 3000;      // after a PE failed: SIGTERM, then SIGKILL this much later
constexpr int kSignalGraceMs = 5000;    // after forwarding SIGINT/SIGTERM
constexpr int kDrainMs = 1000;          // after the last PE exited: wait this long for pipe EOFs
constexpr size_t kMaxLine = 64 * 1024;  // a longer line without '\n' is broken up
constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

struct Options {
  int np = 0;
  bool tag_output = false;
  std::string launcher;  // empty: start the PEs ourselves
  gshmem::oshrun::BindRequest bind;
  std::vector<std::string> prog;  // program and its arguments
};

// ---------------------------------------------------------------- command line

void print_help(FILE* f) {
  fprintf(f,
          "Usage: oshrun -np N [options] [--] program [args...]\n"
          "Start N processing elements (PEs) of an OpenSHMEM program on this host.\n\n"
          "Options:\n"
          "  -np N, -n N, --np N   number of PEs (required, N >= 1)\n"
          "  --tag-output          prefix every line a PE prints with '[pe K] '\n"
          "  --bind-to B           bind each PE to its own CPUs: core, hwthread or none (PEs\n"
          "                        run where oshrun may; the default, or with --launcher the\n"
          "                        launcher's own default)\n"
          "  --cpus-per-pe K       cores (or hardware threads) per PE (default 1; implies\n"
          "                        --bind-to core); a GPU PE with peers on other nodes wants 3\n"
          "  --launcher L          hand the job to L (mpirun, srun or prterun) instead of\n"
          "                        starting the PEs here\n"
          "  -h, --help            show this help and exit\n"
          "  --version             show the version and exit\n"
          "  --                    end of options\n\n"
          "When one PE fails, the others are stopped and oshrun exits with the first failing\n"
          "PE's status (128+N for signal N). SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and\n"
          "SIGUSR2 are forwarded to all PEs.\n");
}

[[noreturn]] __attribute__((format(printf, 1, 2))) void usage_error(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("oshrun: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\nTry 'oshrun --help' for more information.\n", stderr);
  exit(2);
}

bool parse_int(const char* s, int* out) {
  if (!s || !*s) return false;
  char* end = nullptr;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || *end != '\0' || v < INT_MIN || v > INT_MAX) return false;
  *out = static_cast<int>(v);
  return true;
}

Options parse_args(int argc, char** argv) {
  Options o;
  bool cpus_per_pe_given = false;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the program
    std::string val;
    bool has_val = false;
    if (a.rfind("--", 0) == 0) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        val = a.substr(eq + 1);
        a.resize(eq);
        has_val = true;
      }
    }
    auto value = [&]() -> std::string {
      if (has_val) return val;
      if (i + 1 >= argc) usage_error("option '%s' needs a value", a.c_str());
      return argv[++i];
    };
    auto no_value = [&]() {
      if (has_val) usage_error("option '%s' takes no value", a.c_str());
    };
    if (a == "-np" || a == "-n" || a == "--np") {
      std::string v = value();
      if (!parse_int(v.c_str(), &o.np) || o.np < 1)
        usage_error("bad number of PEs '%s' (need an integer >= 1)", v.c_str());
    } else if (a == "--tag-output") {
      no_value();
      o.tag_output = true;
    } else if (a == "--bind-to") {
      std::string v = value();
      if (!gshmem::oshrun::parse_bind_to(v, &o.bind.to))
        usage_error("unknown --bind-to value '%s' (use none, core or hwthread)", v.c_str());
    } else if (a == "--cpus-per-pe") {
      std::string v = value();
      if (!parse_int(v.c_str(), &o.bind.per_pe) || o.bind.per_pe < 1)
        usage_error("bad --cpus-per-pe '%s' (need an integer >= 1)", v.c_str());
      cpus_per_pe_given = true;
    } else if (a == "--launcher") {
      o.launcher = value();
      if (o.launcher != "mpirun" && o.launcher != "srun" && o.launcher != "prterun")
        usage_error("unknown launcher '%s' (use mpirun, srun or prterun)", o.launcher.c_str());
    } else if (a == "-h" || a == "--help") {
      no_value();
      print_help(stdout);
      exit(0);
    } else if (a == "--version") {
      no_value();
      printf("oshrun (gshmem) %s\n", GSHMEM_VERSION_STRING);
      exit(0);
    } else {
      usage_error("unknown option '%s'", argv[i]);
    }
  }
  for (; i < argc; ++i) o.prog.emplace_back(argv[i]);
  if (o.np == 0) usage_error("the number of PEs is required (-np N)");
  if (o.prog.empty()) usage_error("no program given");
  if (cpus_per_pe_given && o.bind.to == gshmem::oshrun::BindTo::unset) o.bind.to = gshmem::oshrun::BindTo::core;
  if (cpus_per_pe_given && o.bind.to == gshmem::oshrun::BindTo::none)
    usage_error("--cpus-per-pe needs --bind-to core or hwthread");
  return o;
}

// ---------------------------------------------------------------- hand-off to another launcher

[[noreturn]] void exec_launcher(const Options& o) {
  const std::string np = std::to_string(o.np);
  std::vector<std::string> args;
  if (o.launcher == "mpirun") {
    args = {"mpirun", "-np", np};
    if (geteuid() == 0) {
      args.emplace_back("--allow-run-as-root");
      args.emplace_back("--oversubscribe");
    }
    if (o.tag_output) args.emplace_back("--tag-output");
    for (char** e = environ; e && *e; ++e) {
      if (strncmp(*e, "SHMEM_", 6) != 0 && strncmp(*e, "GSHMEM_", 7) != 0) continue;
      const char* eq = strchr(*e, '=');
      args.emplace_back("-x");
      args.emplace_back(eq ? std::string(*e, static_cast<size_t>(eq - *e)) : std::string(*e));
    }
  } else if (o.launcher == "srun") {
    args = {"srun", "--mpi=pmix", "-n", np};
  } else {
    args = {"prterun", "-np", np};
  }
  if (o.tag_output && o.launcher != "mpirun")
    fprintf(stderr, "oshrun: --tag-output is not passed on to %s\n", o.launcher.c_str());
  for (auto& b : gshmem::oshrun::launcher_bind_args(o.launcher, o.bind)) args.push_back(b);
  args.insert(args.end(), o.prog.begin(), o.prog.end());
  std::vector<char*> av;
  for (auto& s : args) av.push_back(s.data());
  av.push_back(nullptr);
  execvp(av[0], av.data());
  fprintf(stderr, "oshrun: cannot run %s: %s\n", o.launcher.c_str(), strerror(errno));
  exit(127);
}

// ---------------------------------------------------------------- helpers

int64_t now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

std::string signal_name(int sig) {
  switch (sig) {
// clang-format off
#define S(n) \
  case n: return #n;
    S(SIGHUP) S(SIGINT) S(SIGQUIT) S(SIGILL) S(SIGTRAP) S(SIGABRT) S(SIGBUS) S(SIGFPE)
    S(SIGKILL) S(SIGUSR1) S(SIGSEGV) S(SIGUSR2) S(SIGPIPE) S(SIGALRM) S(SIGTERM) S(SIGCHLD)
    S(SIGCONT) S(SIGSTOP) S(SIGTSTP) S(SIGTTIN) S(SIGTTOU) S(SIGURG) S(SIGXCPU) S(SIGXFSZ)
    S(SIGVTALRM) S(SIGPROF) S(SIGWINCH) S(SIGIO) S(SIGSYS)
#ifdef SIGSTKFLT
    S(SIGSTKFLT)
#endif
#ifdef SIGPWR
    S(SIGPWR)
#endif
#undef S
    // clang-format on
  }
  if (sig >= SIGRTMIN && sig <= SIGRTMAX) return "SIGRTMIN+" + std::to_string(sig - SIGRTMIN);
  return "unknown signal";
}

// Writes all of s to fd; a closed or broken output (EPIPE...) is remembered and then skipped,
// so the PEs' pipes keep draining.
void write_all(int fd, const std::string& s) {
  static bool broken[3] = {false, false, false};
  if (fd < 0 || fd > 2 || broken[fd]) return;
  if (gshmem::write_full(fd, s.data(), s.size()) != gshmem::Io::ok) broken[fd] = true;
}

// ---------------------------------------------------------------- tagged output pump

struct Stream {
  int fd = -1;  // read end of the PE's stdout or stderr pipe; -1 once closed
  int out_fd;   // 1 or 2: where oshrun forwards it
  std::string prefix;
  std::string buf;  // bytes after the last complete line
};

// Forwards the complete lines of s.buf (all of it at EOF, with a '\n' added), each prefixed.
void emit(Stream& s, bool eof) {
  std::string out;
  size_t start = 0;
  for (size_t nl; (nl = s.buf.find('\n', start)) != std::string::npos; start = nl + 1) {
    out += s.prefix;
    out.append(s.buf, start, nl + 1 - start);
  }
  s.buf.erase(0, start);
  if (!s.buf.empty() && (eof || s.buf.size() >= kMaxLine)) {
    out += s.prefix;
    out += s.buf;
    out += '\n';
    s.buf.clear();
  }
  if (!out.empty()) write_all(s.out_fd, out);
}

void close_stream(Stream& s) {
  emit(s, true);
  close(s.fd);
  s.fd = -1;
}

// One read from a readable pipe; closes the stream at EOF or on an error.
void pump(Stream& s) {
  char buf[65536];
  ssize_t r;
  do r = read(s.fd, buf, sizeof buf);
  while (r < 0 && errno == EINTR);
  if (r > 0) {
    s.buf.append(buf, static_cast<size_t>(r));
    emit(s, false);
  } else if (r == 0 || errno != EAGAIN) {
    close_stream(s);
  }
}

// Reads what is in the pipe right now (without waiting for writers), then closes it.
void drain_and_close(Stream& s) {
  char buf[65536];
  for (;;) {
    ssize_t r = read(s.fd, buf, sizeof buf);
    if (r > 0) {
      s.buf.append(buf, static_cast<size_t>(r));
      emit(s, false);
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  close_stream(s);
}

// ---------------------------------------------------------------- starting the PEs

struct Job {
  std::vector<pid_t> pid;
  std::vector<bool> alive;
  int live = 0;
  std::vector<Stream> streams;  // with --tag-output: 2 per PE
};

[[noreturn]] void run_child(int pe, const Options& o, pid_t launcher_pid, int lfd, int watch_r, const std::string& uid,
                            int out_w, int err_w, const sigset_t& orig_mask, const std::vector<int>* cpus) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != launcher_pid) _exit(127);
  if (cpus) {
    if (!gshmem::oshrun::bind_to(*cpus)) {
      fprintf(stderr, "oshrun: pe %d: cannot bind to CPUs %s: %s\n", pe, gshmem::oshrun::cpu_list(*cpus).c_str(),
              strerror(errno));
      _exit(127);
    }
  }
  if (out_w >= 0 && (dup2(out_w, STDOUT_FILENO) < 0 || dup2(err_w, STDERR_FILENO) < 0)) _exit(127);
  // (the pipe fds themselves are O_CLOEXEC; dup2 leaves 1 and 2 inheritable)
  setenv("GSHMEM_BOOTSTRAP", "uid", 1);
  setenv("GSHMEM_BOOTSTRAP_UID", uid.c_str(), 1);
  setenv("GSHMEM_BOOTSTRAP_RANK", std::to_string(pe).c_str(), 1);
  setenv("GSHMEM_BOOTSTRAP_NRANKS", std::to_string(o.np).c_str(), 1);
  // the launcher pipe's read end stays open across exec (and whatever the program starts)
  const int wfl = fcntl(watch_r, F_GETFD);
  if (wfl < 0 || fcntl(watch_r, F_SETFD, wfl & ~FD_CLOEXEC) < 0) _exit(127);
  setenv("GSHMEM_LAUNCHER_FD", std::to_string(watch_r).c_str(), 1);
  if (pe == 0) {
    int fl = fcntl(lfd, F_GETFD);
    if (fl < 0 || fcntl(lfd, F_SETFD, fl & ~FD_CLOEXEC) < 0) _exit(127);
    setenv("GSHMEM_BOOTSTRAP_LISTEN_FD", std::to_string(lfd).c_str(), 1);
  } else {
    unsetenv("GSHMEM_BOOTSTRAP_LISTEN_FD");  // lfd is O_CLOEXEC: it closes at exec
  }
  sigprocmask(SIG_SETMASK, &orig_mask, nullptr);
  std::vector<char*> av;
  for (const auto& s : o.prog) av.push_back(const_cast<char*>(s.c_str()));
  av.push_back(nullptr);
  execvp(av[0], av.data());
  fprintf(stderr, "oshrun: pe %d: cannot execute '%s': %s\n", pe, av[0], strerror(errno));
  _exit(127);
}

// Kills and reaps the PEs started so far (start-up failed half way).
void abort_start(Job* job) {
  for (size_t i = 0; i < job->pid.size(); ++i) {
    if (!job->alive[i]) continue;
    kill(job->pid[i], SIGKILL);
    while (waitpid(job->pid[i], nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  for (auto& s : job->streams)
    if (s.fd >= 0) close(s.fd);
}

bool start_pes(const Options& o, const std::vector<std::vector<int>>& binding, const sigset_t& orig_mask, Job* job) {
  gshmem::boot::UniqueId id;
  int lfd = -1;
  if (gshmem::boot::uid_create_listener(/*loopback_only=*/true, "", &id, &lfd) != gshmem::Status::ok) {
    fprintf(stderr, "oshrun: cannot create the bootstrap listener\n");
    return false;
  }
  const std::string uid = gshmem::boot::uid_to_string(id);
  const pid_t self = getpid();
  // The launcher pipe: oshrun keeps the write end (O_CLOEXEC: no PE holds it) for its whole life.
  int watch[2];
  if (pipe2(watch, O_CLOEXEC) != 0) {
    fprintf(stderr, "oshrun: cannot create the launcher pipe: %s\n", strerror(errno));
    close(lfd);
    return false;
  }
  bool ok = true;
  for (int pe = 0; pe < o.np && ok; ++pe) {
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (o.tag_output && (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)) {
      fprintf(stderr, "oshrun: pe %d: cannot create a pipe: %s\n", pe, strerror(errno));
      for (int fd : {out[0], out[1]})
        if (fd >= 0) close(fd);
      ok = false;
      break;
    }
    pid_t p = fork();
    if (p == 0)
      run_child(pe, o, self, lfd, watch[0], uid, out[1], err[1], orig_mask, binding.empty() ? nullptr : &binding[pe]);
    if (p < 0) {
      fprintf(stderr, "oshrun: pe %d: fork failed: %s\n", pe, strerror(errno));
      ok = false;
    } else {
      job->pid.push_back(p);
      job->alive.push_back(true);
      ++job->live;
    }
    if (o.tag_output) {
      close(out[1]);
      close(err[1]);
      const std::string prefix = "[pe " + std::to_string(pe) + "] ";
      for (int k = 0; k < 2; ++k) {
        int fd = k == 0 ? out[0] : err[0];
        if (p < 0) {
          close(fd);
          continue;
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        job->streams.push_back(Stream{fd, k == 0 ? STDOUT_FILENO : STDERR_FILENO, prefix, {}});
      }
    }
  }
  close(lfd);
  close(watch[0]);  // watch[1] stays open until oshrun exits
  if (!ok) abort_start(job);
  return ok;
}

// ---------------------------------------------------------------- supervision

class Supervisor {
 public:
  Supervisor(Job& job, int sfd) : job_(job), sfd_(sfd) {}

  int run() {
    for (;;) {
      const int64_t now = now_ms();
      if (kill_at_ >= 0 && now >= kill_at_) {
        fprintf(stderr, "oshrun: killing %d PEs that did not stop in time\n", job_.live);
        signal_live(SIGKILL);
        kill_at_ = -1;
      }
      if (job_.live == 0) {
        if (drain_until_ < 0) drain_until_ = now + kDrainMs;
        if (now >= drain_until_) {  // a PE's descendants still hold its pipes: stop waiting
          for (auto& s : job_.streams)
            if (s.fd >= 0) drain_and_close(s);
        }
        if (!any_stream_open()) break;
      }
      wait_and_dispatch(now);
    }
    if (first_fail_code_ >= 0) return first_fail_code_;
    if (stop_signal_ != 0) return 128 + stop_signal_;
    return 0;
  }

 private:
  bool any_stream_open() const {
    for (const auto& s : job_.streams)
      if (s.fd >= 0) return true;
    return false;
  }

  void wait_and_dispatch(int64_t now) {
    std::vector<pollfd> pfds;
    std::vector<Stream*> who;
    pfds.push_back({sfd_, POLLIN, 0});
    for (auto& s : job_.streams) {
      if (s.fd < 0) continue;
      pfds.push_back({s.fd, POLLIN, 0});
      who.push_back(&s);
    }
    int64_t deadline = -1;
    if (kill_at_ >= 0) deadline = kill_at_;
    if (job_.live == 0 && (deadline < 0 || drain_until_ < deadline)) deadline = drain_until_;
    int timeout = -1;
    if (deadline >= 0) timeout = static_cast<int>(deadline > now ? deadline - now : 0);
    int n = poll(pfds.data(), pfds.size(), timeout);
    if (n < 0) {
      if (errno != EINTR) {
        fprintf(stderr, "oshrun: poll: %s\n", strerror(errno));
        sleep(1);  // should not happen; avoid spinning
      }
      return;
    }
    if (pfds[0].revents) read_signals();
    for (size_t k = 1; k < pfds.size(); ++k)
      if (pfds[k].revents && who[k - 1]->fd >= 0) pump(*who[k - 1]);
  }

  void read_signals() {
    signalfd_siginfo si;
    for (;;) {
      ssize_t r = read(sfd_, &si, sizeof si);
      if (r < 0 && errno == EINTR) continue;
      if (r != static_cast<ssize_t>(sizeof si)) return;  // EAGAIN: none left
      on_signal(static_cast<int>(si.ssi_signo));
    }
  }

  void on_signal(int sig) {
    if (sig == SIGCHLD) {
      reap();
      return;
    }
    if (job_.live == 0) return;
    if (sig != SIGINT && sig != SIGTERM) {
      signal_live(sig);
      return;
    }
    if (stop_requests_++ > 0) {  // a second SIGINT/SIGTERM: no more grace
      fprintf(stderr, "oshrun: got %s again; killing %d PEs\n", signal_name(sig).c_str(), job_.live);
      signal_live(SIGKILL);
      kill_at_ = -1;
      return;
    }
    if (!stopping_) stop_signal_ = sig;
    stopping_ = true;
    fprintf(stderr, "oshrun: got %s; forwarding it to %d PEs\n", signal_name(sig).c_str(), job_.live);
    signal_live(sig);
    const int64_t at = now_ms() + kSignalGraceMs;
    if (kill_at_ < 0 || at < kill_at_) kill_at_ = at;
  }

  void reap() {
    for (;;) {
      int st = 0;
      pid_t p = waitpid(-1, &st, WNOHANG);
      if (p < 0 && errno == EINTR) continue;
      if (p <= 0) return;  // 0: none left that exited; ECHILD: no children at all
      if (!WIFEXITED(st) && !WIFSIGNALED(st)) continue;
      for (size_t i = 0; i < job_.pid.size(); ++i)
        if (job_.pid[i] == p && job_.alive[i]) on_pe_exit(static_cast<int>(i), st);
    }
  }

  void on_pe_exit(int pe, int st) {
    job_.alive[pe] = false;
    --job_.live;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return;  // normal, even while others still run
    if (stopping_) return;                              // a consequence of stopping the job, not its cause
    stopping_ = true;
    const pid_t p = job_.pid[pe];
    if (WIFEXITED(st)) {
      first_fail_code_ = WEXITSTATUS(st);
      fprintf(stderr, "oshrun: pe %d (pid %d) exited with status %d\n", pe, int(p), first_fail_code_);
    } else {
      const int sig = WTERMSIG(st);
      first_fail_code_ = 128 + sig;
      fprintf(stderr, "oshrun: pe %d (pid %d) was killed by signal %d (%s)\n", pe, int(p), sig,
              signal_name(sig).c_str());
    }
    if (job_.live > 0) {
      fprintf(stderr, "oshrun: stopping the other %d PEs\n", job_.live);
      signal_live(SIGTERM);
      kill_at_ = now_ms() + kTermGraceMs;
    }
  }

  void signal_live(int sig) {
    for (size_t i = 0; i < job_.pid.size(); ++i)
      if (job_.alive[i]) kill(job_.pid[i], sig);  // not reaped yet, so the pid is still ours
  }

  Job& job_;
  int sfd_;
  bool stopping_ = false;
  int stop_requests_ = 0;     // SIGINT/SIGTERM received so far
  int stop_signal_ = 0;       // the SIGINT/SIGTERM that stopped the job (when no PE failed first)
  int first_fail_code_ = -1;  // exit code of the first failing PE
  int64_t kill_at_ = -1;      // when to SIGKILL the remaining PEs
  int64_t drain_until_ = -1;  // when to stop waiting for pipe EOFs after the last PE exited
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_args(argc, argv);
  // The PEs read the same table: a malformed value stops the job here, before any PE starts.
  const gshmem::Config* cfg = nullptr;
  if (gshmem::config_load(&cfg) != gshmem::Status::ok) {
    fprintf(stderr, "oshrun: the environment has invalid gshmem settings (the messages above say which)\n");
    return 2;
  }
  if (o.launcher.empty() && cfg->GSHMEM_BOOTSTRAP != "auto" && cfg->GSHMEM_BOOTSTRAP != "uid") {
    fprintf(stderr,
            "oshrun: GSHMEM_BOOTSTRAP=%s: oshrun starts its PEs itself with the unique-id bootstrap (uid); "
            "for %s use --launcher mpirun (or srun, prterun), or unset GSHMEM_BOOTSTRAP\n",
            cfg->GSHMEM_BOOTSTRAP.c_str(),
            cfg->GSHMEM_BOOTSTRAP == "single" ? "a single PE, run the program without oshrun" : "PMIx or MPI");
    return 2;
  }
  if (!o.launcher.empty()) exec_launcher(o);
  std::vector<std::vector<int>> binding;  // empty: the PEs keep oshrun's affinity
  if (o.bind.to == gshmem::oshrun::BindTo::core || o.bind.to == gshmem::oshrun::BindTo::hwthread) {
    std::string why;
    if (!gshmem::oshrun::plan_binding(o.bind, o.np, gshmem::oshrun::allowed_cpus(), &binding, &why)) {
      fprintf(stderr, "oshrun: --bind-to %s: %s; use --bind-to none, fewer PEs or a smaller --cpus-per-pe\n",
              o.bind.to == gshmem::oshrun::BindTo::core ? "core" : "hwthread", why.c_str());
      return 2;
    }
  }

  // Block the forwarded signals and SIGCHLD before forking so none is lost; the main loop reads
  // them from a signalfd. The PEs get the original mask back before exec.
  sigset_t mask, orig_mask;
  sigemptyset(&mask);
  for (int s : kForwarded) sigaddset(&mask, s);
  sigaddset(&mask, SIGCHLD);
  if (sigprocmask(SIG_BLOCK, &mask, &orig_mask) != 0) {
    fprintf(stderr, "oshrun: sigprocmask: %s\n", strerror(errno));
    return 1;
  }
  int sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sfd < 0) {
    fprintf(stderr, "oshrun: signalfd: %s\n", strerror(errno));
    return 1;
  }
  Job job;
  if (!start_pes(o, binding, orig_mask, &job)) return 1;
  signal(SIGPIPE, SIG_IGN);  // a closed stdout shows up as EPIPE in write_all (PEs keep the default)
  Supervisor sup(job, sfd);
  int code = sup.run();
  close(sfd);
  return code;
}
