// A PyTorch CUDA extension whose kernel calls gshmem's device API (installed headers, no -rdc):
// each PE's block pushes its tensor into the next PE's symmetric tensor with a signal, waits for
// its own signal, and then scales what arrived. Built by run.py with torch.utils.cpp_extension.
#include <shmem.h>
#include <shmemx.h>
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void shift_scale(float* inbox, const float* outbox, size_t n, uint64_t* sig, uint64_t round, float scale) {
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  shmemx_putmem_signal_block(inbox, outbox, n * sizeof(float), sig, round, SHMEM_SIGNAL_SET, (me + 1) % npes);
  if (threadIdx.x == 0) shmem_signal_wait_until(sig, SHMEM_CMP_GE, round);
  __syncthreads();
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) inbox[i] *= scale;
}

// inbox, outbox: symmetric float32 CUDA tensors of one size; sig: a symmetric uint64 tensor.
void shift(torch::Tensor inbox, torch::Tensor outbox, torch::Tensor sig, int64_t round, double scale) {
  TORCH_CHECK(inbox.is_cuda() && outbox.is_cuda() && sig.is_cuda(), "shift: CUDA tensors expected");
  TORCH_CHECK(inbox.scalar_type() == torch::kFloat32 && outbox.scalar_type() == torch::kFloat32, "shift: float32");
  TORCH_CHECK(inbox.numel() == outbox.numel() && inbox.is_contiguous() && outbox.is_contiguous(), "shift: sizes");
  TORCH_CHECK(sig.scalar_type() == torch::kUInt64 && sig.numel() == 1, "shift: one uint64 signal");
  shift_scale<<<1, 512, 0, at::cuda::getCurrentCUDAStream()>>>(
      inbox.data_ptr<float>(), outbox.data_ptr<float>(), static_cast<size_t>(inbox.numel()),
      reinterpret_cast<uint64_t*>(sig.data_ptr()), static_cast<uint64_t>(round), static_cast<float>(scale));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("shift", &shift, "push to the next PE, wait, scale"); }
