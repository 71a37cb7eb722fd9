// Errors that end the job, and the one format every error message has:
//   gshmem[pe N]: <call>: <what>        (gshmem[pid P]: ... before the PE number is known)
// fatal() is the library's only way to end the process on an error: it prints the message, hands
// it to the job-abort hook (set by the runtime once a bootstrap exists: every other PE and the
// launcher learn of it) and terminates. terminate() is the only place the library exits a process.
#pragma once

namespace gshmem {

// Writes "gshmem[pe N]: call: what" to stderr in one write (lines of concurrent PEs do not mix).
void report_error(const char* call, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// Formats the message into buf (for a relay); returns buf.
const char* format_error(char* buf, unsigned long size, const char* call, const char* what);

using JobAbortHook = void (*)(int status, const char* msg);
void set_job_abort_hook(JobAbortHook hook) noexcept;

[[noreturn]] void fatal(const char* call, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
// The same with an exit status other than 1.
[[noreturn]] void fatal_status(int status, const char* call, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
// Flushes stdio and ends this process with status (no atexit handlers, no destructors).
[[noreturn]] void terminate(int status) noexcept;

}  // namespace gshmem
