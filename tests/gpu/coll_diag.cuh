// What a failed byte-collective check in gpu_coll found, printed to stderr: what the wrong bytes
// are (the poison, another member's source byte at that index, or neither), where they lie by
// 512-byte chunk (a warp's 16-byte stores in one step), whether they are still wrong 200 ms later
// (a late store, or one that never came), and, for team WORLD (slot 0), every row whose phase
// flags differ from its counter once the members are done (each collective leaves them equal).
// The caller's next step is a barrier, so the other PEs leave the buffers as the collective did.
#pragma once
#include <unistd.h>

#include <string>
#include <vector>

#include "gpu_util.cuh"
#include "gshmem/device_host/state.h"

// This PE's phase counters and flags of a team slot: counter of row r at [r], flag [r][j] at
// [GSHMEM_DEV_MAX_ROWS + r * GSHMEM_DEV_MAX_TEAM_PES + j] (device/gshmem/impl/team.cuh).
__global__ void read_phase_words(int slot, uint64_t* out) {
  using namespace gshmem::dev;
  for (int r = threadIdx.x; r < static_cast<int>(GSHMEM_DEV_MAX_ROWS); r += blockDim.x) {
    out[r] = *(reinterpret_cast<const volatile uint64_t*>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_PHASE_CNT)) +
               static_cast<size_t>(slot) * GSHMEM_DEV_MAX_ROWS + r);
    for (int j = 0; j < static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES); ++j)
      out[GSHMEM_DEV_MAX_ROWS + r * GSHMEM_DEV_MAX_TEAM_PES + j] =
          *const_cast<const volatile uint64_t*>(phase_flag(st().my_pe, slot, r, j));
  }
}

// dst: the device buffer checked; got: what was read from it; want: what it should hold.
// member_byte(p, i): byte i of team member p's source, when byte i of dst comes from byte i of
// some member's source (a broadcast); null otherwise, and the wrong bytes are not classified.
template <typename MemberByte>
void explain_wrong(int team, const unsigned char* dst, const std::vector<unsigned char>& got,
                   const std::vector<unsigned char>& want, const MemberByte* member_byte) {
  const int me = shmem_my_pe(), tn = shmem_team_n_pes(team);
  const size_t n = got.size();
  if (member_byte) {
    std::vector<size_t> as_src(static_cast<size_t>(tn), 0);
    size_t poison = 0, other = 0, bad = 0;
    for (size_t i = 0; i < n; ++i) {
      if (got[i] == want[i]) continue;
      ++bad;
      if (got[i] == 0xA5) {
        ++poison;
        continue;
      }
      bool any = false;
      for (int p = 0; p < tn; ++p)
        if (got[i] == (*member_byte)(p, i)) ++as_src[static_cast<size_t>(p)], any = true;
      other += !any;
    }
    std::string srcs;
    for (size_t v : as_src) srcs += " " + std::to_string(v);
    fprintf(stderr, "  pe %d: %zu wrong: %zu poison, %zu none of the sources; equal to member p's source byte:%s\n", me,
            bad, poison, other, srcs.c_str());
  }
  std::string chunks;
  size_t shown = 0;
  for (size_t k = 0; k * 512 < n && shown < 24; ++k) {
    size_t w = 0;
    for (size_t i = k * 512; i < n && i < (k + 1) * 512; ++i) w += got[i] != want[i];
    if (w) chunks += " " + std::to_string(k * 512) + ":" + std::to_string(w), ++shown;
  }
  fprintf(stderr, "  pe %d: wrong bytes by 512-byte chunk (offset:count):%s\n", me, chunks.c_str());
  usleep(200000);
  std::vector<unsigned char> again(n);
  CK(cudaMemcpy(again.data(), dst, n, cudaMemcpyDeviceToHost));
  size_t still = 0, changed = 0;
  for (size_t i = 0; i < n; ++i) {
    still += again[i] != want[i];
    changed += again[i] != got[i];
  }
  fprintf(stderr, "  pe %d: 200 ms later %zu bytes differ from the first read, %zu still wrong\n", me, changed, still);
  if (team != SHMEM_TEAM_WORLD) return;
  uint64_t* w = nullptr;
  const size_t nw = GSHMEM_DEV_MAX_ROWS * (1 + GSHMEM_DEV_MAX_TEAM_PES);
  CK(cudaMallocManaged(&w, nw * sizeof(uint64_t)));
  read_phase_words<<<1, 64>>>(0, w);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::string rows;
  const int tme = shmem_team_my_pe(team);
  for (int r = 0; r < static_cast<int>(GSHMEM_DEV_MAX_ROWS); ++r) {
    const uint64_t* f = w + GSHMEM_DEV_MAX_ROWS + static_cast<size_t>(r) * GSHMEM_DEV_MAX_TEAM_PES;
    bool odd = false;
    for (int j = 0; j < tn; ++j) odd |= j != tme && f[j] != w[r];
    if (!odd) continue;
    rows += " row " + std::to_string(r) + " cnt " + std::to_string(w[r]) + " flags";
    for (int j = 0; j < tn; ++j) rows += " " + std::to_string(f[j]);
    rows += ";";
  }
  fprintf(stderr, "  pe %d: phase rows of slot 0 whose flags differ from the counter:%s\n", me,
          rows.empty() ? " none" : rows.c_str());
  CK(cudaFree(w));
}
