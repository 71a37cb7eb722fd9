#include <cstdint>
#include <vector>

#include "bootstrap/bootstrap.hpp"

namespace gshmem::boot {

Status all_ok(Bootstrap& b, bool ok, bool* all, int* first_bad) {
  std::vector<int32_t> v(static_cast<size_t>(b.size()), 0);
  v[static_cast<size_t>(b.rank())] = ok ? 1 : 0;
  *all = false;
  if (first_bad) *first_bad = -1;
  const Status st = b.allgather(v.data(), sizeof(int32_t));
  if (st != Status::ok) return st;
  *all = true;
  for (int pe = 0; pe < b.size(); ++pe)
    if (!v[static_cast<size_t>(pe)]) {
      if (*all && first_bad) *first_bad = pe;
      *all = false;
    }
  return Status::ok;
}

}  // namespace gshmem::boot
