"""Shared by the header generators (gen_pshmem.py, gen_nvshmem_names.py): the source tree's headers
include the generated gshmem/version.h; write a stand-in (every @VALUE@ as 0) under dir/gshmem."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_version_stub(dir):
    os.makedirs(os.path.join(dir, 'gshmem'), exist_ok=True)
    with open(os.path.join(ROOT, 'include', 'gshmem', 'version.h.in')) as f:
        ver = re.sub(r'@\w+@', '0', f.read())
    with open(os.path.join(dir, 'gshmem', 'version.h'), 'w') as f:
        f.write(ver)
