#include "mem/host_segment.hpp"

#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "common/log.hpp"
#include "mem/pause_threads.hpp"

namespace gshmem::mem {

HostSegment& HostSegment::operator=(HostSegment&& o) noexcept {
  if (this != &o) {
    reset();
    base_ = o.base_;
    size_ = o.size_;
    fd_ = o.fd_;
    unmap_ = o.unmap_;
    o.base_ = nullptr;
    o.size_ = 0;
    o.fd_ = -1;
  }
  return *this;
}

void HostSegment::reset() noexcept {
  if (base_ && unmap_) munmap(base_, size_);
  if (fd_ >= 0) close(fd_);
  base_ = nullptr;
  size_ = 0;
  fd_ = -1;
}

Status HostSegment::create(const char* name, size_t bytes, size_t align, size_t align_offset) {
  reset();
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) {
    GSHMEM_WARN(Subsys::mem, "memfd_create(%s): %s", name, strerror(errno));
    return Status::system_error;
  }
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    GSHMEM_WARN(Subsys::mem, "ftruncate(%s, %zu): %s", name, bytes, strerror(errno));
    close(fd);
    return Status::out_of_memory;
  }
  void* hint = nullptr;
  if (align) {
    // Reserve address space with slack, then place the mapping on the aligned address in it.
    void* res = mmap(nullptr, bytes + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (res != MAP_FAILED) {
      const uintptr_t r = reinterpret_cast<uintptr_t>(res);
      const uintptr_t t = ((r + align_offset + align - 1) & ~(uintptr_t(align) - 1)) - align_offset;
      if (t > r) munmap(res, t - r);
      if (r + bytes + align > t + bytes) munmap(reinterpret_cast<void*>(t + bytes), r + bytes + align - t - bytes);
      hint = reinterpret_cast<void*>(t);
    }
  }
  return map_fd(fd, bytes, hint, name);
}

Status HostSegment::map_peer(int fd, size_t bytes) {
  reset();
  return map_fd(fd, bytes, nullptr, "peer segment");
}

Status HostSegment::map_fd(int fd, size_t bytes, void* fixed_at, const char* what) {
  void* p =
      mmap(fixed_at, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | (fixed_at ? MAP_FIXED : 0), fd, 0);
  if (p == MAP_FAILED) {
    GSHMEM_WARN(Subsys::mem, "mmap of %s (%zu bytes): %s", what, bytes, strerror(errno));
    close(fd);
    return Status::out_of_memory;
  }
  base_ = p;
  size_ = bytes;
  fd_ = fd;
  unmap_ = true;
  return Status::ok;
}

void HostSegment::adopt(void* base, size_t bytes, int fd, bool unmap_on_reset) {
  reset();
  base_ = base;
  size_ = bytes;
  fd_ = fd;
  unmap_ = unmap_on_reset;
}

namespace {
struct Range {
  uintptr_t start = 0, end = 0;  // the writable data past RELRO (.data and .bss)
  bool after_relro = false;      // start is RELRO's end (round up to a page, not down)
};
// The main executable's writable data outside RELRO. GNU ld puts RELRO, .data and .bss in one
// writable PT_LOAD (RELRO at its start); lld gives RELRO a writable PT_LOAD of its own and
// .data/.bss the next: each writable segment is trimmed by RELRO and the last non-empty one wins.
int find_exe_data(dl_phdr_info* info, size_t, void* arg) {
  // The first object reported is the main executable.
  auto* r = static_cast<Range*>(arg);
  uintptr_t relro_lo = 0, relro_hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      relro_lo = info->dlpi_addr + ph.p_vaddr;
      relro_hi = relro_lo + ph.p_memsz;
    }
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    const uintptr_t hi = lo + ph.p_memsz;
    const bool trimmed = relro_hi > relro_lo && relro_lo <= lo && relro_hi > lo;  // RELRO at the start
    if (trimmed) lo = relro_hi;
    if (lo < hi && lo >= r->start) {
      r->start = lo;
      r->end = hi;
      r->after_relro = trimmed;
    }
  }
  return 1;
}
// Reads the program's data segment raw: a program built with -fsanitize=address has redzones
// (poisoned shadow) between its globals, and libc's memcmp/memcpy are intercepted and checked
// against them, so this loop is neither (no sanitizer instrumentation, volatile stores that the
// compiler cannot turn back into a memcpy call).
GSHMEM_NO_INSTRUMENT void copy_page_unless_zero(char* dst, uintptr_t src, size_t page) {
  const auto* s = reinterpret_cast<const uint64_t*>(src);  // page-aligned
  const size_t words = page / sizeof(uint64_t);
  uint64_t any = 0;
  for (size_t i = 0; i < words; ++i) any |= s[i];
  if (!any) return;
  auto* d = reinterpret_cast<volatile uint64_t*>(dst);
  for (size_t i = 0; i < words; ++i) d[i] = s[i];
}

struct Swap {
  uintptr_t lo, hi, page;
  char* copy;  // the memfd mapped elsewhere
  int fd;
  void* mapped;  // result: MAP_FAILED on error
  int err;
};

// Copies the segment into the memfd and maps the memfd over it, while every other thread is paused
// (run_with_threads_paused): a write made between the two would be lost. Nothing here enters a
// sanitizer runtime (whose state, in a sanitizer build, is part of the segment being copied): the
// copy is uninstrumented and the mmap is the raw system call, not the interceptor.
GSHMEM_NO_INSTRUMENT void swap_in(void* arg) {
  auto* w = static_cast<Swap*>(arg);
  // Copy page by page, skipping all-zero pages so an untouched large .bss stays uncommitted.
  for (uintptr_t p = w->lo; p < w->hi; p += w->page) copy_page_unless_zero(w->copy + (p - w->lo), p, w->page);
  const long m = syscall(SYS_mmap, w->lo, w->hi - w->lo, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, w->fd, 0L);
  if (m == -1) {  // syscall() returns -1 and sets errno
    w->mapped = MAP_FAILED;
    w->err = errno;
    return;
  }
  w->mapped = reinterpret_cast<void*>(m);
  // The new mapping starts with no page-table entries: every page the program had touched would
  // fault again on its next access (a minor fault each, in whatever the program does first after
  // shmem_init). Map the copied pages now, with one read each; holes of the memfd (zero pages never copied) stay
  // unmapped and uncommitted. mincore reports which memfd pages exist, a chunk at a time.
  unsigned char vec[4096];
  for (uintptr_t p = w->lo; p < w->hi; p += sizeof vec * w->page) {
    const size_t n = (w->hi - p) / w->page < sizeof vec ? (w->hi - p) / w->page : sizeof vec;
    if (syscall(SYS_mincore, p, n * w->page, vec) != 0) return;  // only a lost speed-up
    for (size_t i = 0; i < n; ++i)
      if (vec[i] & 1) (void)*reinterpret_cast<volatile const char*>(p + i * w->page);
  }
}

}  // namespace

Status share_data_segment(HostSegment* out) {
  Range r;
  dl_iterate_phdr(find_exe_data, &r);
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  if (r.start == 0) {
    GSHMEM_WARN(Subsys::mem, "symmetric data: the executable has no writable segment");
    return Status::not_available;
  }
  // The segment's first page is its own (mappings are page-granular); after RELRO, the first whole
  // page past it (the loader made RELRO read-only page by page).
  const uintptr_t lo = r.after_relro ? (r.start + page - 1) & ~(page - 1) : r.start & ~(page - 1);
  const uintptr_t hi = (r.end + page - 1) & ~(page - 1);
  if (hi <= lo) return Status::not_available;
  const size_t len = hi - lo;
  int fd = memfd_create("gshmem-data", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(len)) != 0) {
    GSHMEM_WARN(Subsys::mem, "symmetric data: memfd of %zu bytes: %s", len, strerror(errno));
    if (fd >= 0) close(fd);
    return Status::system_error;
  }
  void* tmp = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (tmp == MAP_FAILED) {
    close(fd);
    return Status::system_error;
  }
  Swap w{lo, hi, page, static_cast<char*>(tmp), fd, MAP_FAILED, 0};
  PauseReport rep;
  const Status st = run_with_threads_paused(swap_in, &w, &rep);
  munmap(tmp, len);
  if (st != Status::ok) {
    if (st == Status::timeout)
      GSHMEM_WARN(Subsys::mem,
                  "symmetric data: thread %d (%s) did not pause within a second (signal %d); the data segment is "
                  "not remapped",
                  rep.stuck_tid, rep.stuck_info, SIGRTMAX - 1);
    else
      GSHMEM_WARN(Subsys::mem,
                  "symmetric data: the other threads could not be paused; the data segment is not remapped");
    close(fd);
    return st;
  }
  if (w.mapped == MAP_FAILED) {
    GSHMEM_WARN(Subsys::mem, "symmetric data: remapping [%p, +%zu): %s", reinterpret_cast<void*>(lo), len,
                strerror(w.err));
    close(fd);
    return Status::system_error;
  }
  out->adopt(w.mapped, len, fd, /*unmap_on_reset=*/false);
  GSHMEM_DEBUG(Subsys::mem, "symmetric data segment [%p, +%zu); %d other threads paused, %d skipped, %d signals resent",
               w.mapped, len, rep.paused, rep.skipped, rep.resent);
  return Status::ok;
}

}  // namespace gshmem::mem
