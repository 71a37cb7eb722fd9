#!/bin/bash
# alignment probe + put_bw --bidir / st_bw with shmem_malloc alignment variants (XALIGN, experiment build)
export NCCL_NVLS_ENABLE=0 NVSHMEM_DISABLE_NVLS=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
X=/tmp/gx/prefix; mkdir -p $X; [ -f $X/lib/libgshmem.so ] || tar xJf .deps/gx-prefix.tar.xz -C $X
bins=/tmp/nvshmem-perftest-bins; [ -d $bins/gshmem ] || { mkdir -p $bins; tar xJf .deps/pt39.tar.xz -C $bins; }
nvlib=$(python3 -c 'import nvidia.nvshmem as m; print(m.__path__[0])')/lib
export LD_LIBRARY_PATH=$X/lib:$nvlib NVSHMEMTEST_USE_UID_BOOTSTRAP=1 NVSHMEM_MACHINE_READABLE_OUTPUT=1
M="mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_LIBRARY_PATH -x NVSHMEM_DISABLE_NVLS -x NVSHMEMTEST_USE_UID_BOOTSTRAP -x NVSHMEM_MACHINE_READABLE_OUTPUT"
echo "== align_probe"; timeout 60 $M .deps/diag/align_probe 2>&1 | grep -v "^$" | head -60
echo "== bidir_probe"; timeout 60 $M .deps/diag/bidir_probe 2>&1 | grep probe
echo "== allocations"
export XALIGN_LOG=1
timeout 30 $M -x XALIGN_LOG $bins/gshmem/shmem_put_bw --bidir -n 200 -w 20 -c 4 -t 1024 -e 32M 2>&1 | grep XALIGN | head -12
timeout 30 $M -x XALIGN_LOG $bins/gshmem/shmem_st_bw -n 10 -w 10 -t 1024 -c 4 -e 32M 2>&1 | grep XALIGN | head -12
unset XALIGN_LOG
for r in 1 2 3; do for v in nv 0 128 256 512 4096; do
  if [ $v = nv ]; then exe=$bins/nvshmem; envx=""; else exe=$bins/gshmem; export XALIGN=$v; envx="-x XALIGN"; fi
  a=$(timeout 30 $M $envx $exe/shmem_put_bw --bidir -n 200 -w 20 -c 4 -t 1024 -e 32M 2>&1 | grep -E "size__(524288|2097152|33554432)___" | awk '{printf "%s ", $4}')
  b=$(timeout 30 $M $envx $exe/shmem_st_bw -n 10 -w 10 -t 1024 -c 4 -e 32M 2>&1 | grep -E "size__(8192|524288|33554432)___" | awk '{printf "%s ", $4}')
  echo "r$r $v put_bw_bidir 512K/2M/32M: $a | st_bw 8K/512K/32M: $b"
  unset XALIGN
done; done
