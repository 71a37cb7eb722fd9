#!/usr/bin/env python3
"""NVSHMEM API coverage of gshmem's compatibility headers (docs/nvshmem.md).

Reads every public function NVSHMEM declares (nvshmem_* / nvshmemx_*) from NVSHMEM's own headers
(the nvidia-nvshmem-cu13 package), preprocessed as nvcc's host pass and device pass see
`#include <nvshmem.h>` + `#include <nvshmemx.h>`, and checks against gshmem's nvshmem.h/nvshmemx.h:
  1. every NVSHMEM name is provided (a function of the compat headers or a rename in
     gshmem/nvshmem/names.h), or matches a pattern of docs/nvshmem.md's "Not provided" table;
  2. no pattern of that table matches a name the headers provide (the docs would be wrong);
  3. a generated translation unit that takes the address of every provided name, in device code
     for the names NVSHMEM declares for device code and in host code for its host names, compiles
     with nvcc against the compat headers (renames that lead nowhere, or to the wrong side, fail).

usage: check_coverage.py --nvcc NVCC --include DIR [--include DIR...] --docs docs/nvshmem.md
                         [--nvshmem-include DIR]   (default: .deps/nvshmem of the checkout, which
                         scripts/install-deps.sh fills, else `import nvidia.nvshmem`)
Exit 77 (skip) when NVSHMEM's headers are not installed and GSHMEM_REQUIRE_NVSHMEM_HEADERS is unset.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

NAME = r'nvshmemx?_[A-Za-z0-9_]+'


def nvshmem_include(arg, root):
    if arg:
        return arg
    deps = os.path.join(root, '.deps', 'nvshmem', 'nvidia', 'nvshmem', 'include')  # scripts/install-deps.sh
    if os.path.exists(os.path.join(deps, 'nvshmem.h')):
        return deps
    try:
        import nvidia.nvshmem as m
        for p in m.__path__:
            inc = os.path.join(p, 'include')
            if os.path.exists(os.path.join(inc, 'nvshmem.h')):
                return inc
    except ImportError:
        pass
    return None


def preprocess(nvcc, incs, device, text, extra=()):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'p.cu')
        with open(src, 'w') as f:
            f.write(text)
        cmd = [nvcc, '-E', '-x', 'cu', '-std=c++17'] + [a for i in incs for a in ('-I', i)] + list(extra) + [src]
        cmd += ['-arch=sm_90'] if device else ['-Xcompiler', '-U__CUDA_ARCH__']
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            sys.exit(f'check_coverage: preprocessing failed:\n{r.stderr[-3000:]}')
        return '\n'.join(l for l in r.stdout.splitlines() if not l.startswith('#'))


def declared(text):
    """name -> True when text defines it (with a body) for device code. NVSHMEM declares some host
    routines __host__ __device__ without a device definition (the on-stream calls): a name counts
    as device code only where a definition with the device attribute exists."""
    out = {}
    flat = re.sub(r'\s+', ' ', text)
    for m in re.finditer(r'\b(' + NAME + r') ?\(', flat):
        start = max(flat.rfind(';', 0, m.start()), flat.rfind('}', 0, m.start()), flat.rfind('{', 0, m.start()))
        head = flat[start + 1:m.start()]
        dev = '__attribute__((device))' in head or '__location__(device)' in head
        if dev:  # a definition: the parameter list is followed by a body
            depth, i = 0, m.end() - 1
            while i < len(flat):
                depth += {'(': 1, ')': -1}.get(flat[i], 0)
                i += 1
                if depth == 0:
                    break
            dev = flat[i:i + 2].lstrip().startswith('{')
        out[m.group(1)] = out.get(m.group(1), False) or dev
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nvcc', required=True)
    ap.add_argument('--include', action='append', required=True)
    ap.add_argument('--docs', required=True)
    ap.add_argument('--nvshmem-include')
    a = ap.parse_args()
    nvinc = nvshmem_include(a.nvshmem_include, os.path.dirname(os.path.dirname(os.path.abspath(a.docs))))
    if not nvinc:
        msg = 'check_coverage: NVSHMEM headers not found (pip install nvidia-nvshmem-cu13==3.4.5)'
        if os.environ.get('GSHMEM_REQUIRE_NVSHMEM_HEADERS'):
            sys.exit(msg)
        print(msg + ': skipped')
        return 77
    both = '#include <nvshmem.h>\n#include <nvshmemx.h>\n'

    # NVSHMEM's names: host pass (host-callable) and device pass (device attribute)
    nv_host = set(declared(preprocess(a.nvcc, [nvinc], False, both)))
    nv_dev = {n for n, d in declared(preprocess(a.nvcc, [nvinc], True, both)).items() if d}
    nv_all = nv_host | nv_dev

    # gshmem's: functions of the compat headers and the renames
    ours = set(declared(preprocess(a.nvcc, a.include, False, both))) | set(declared(preprocess(a.nvcc, a.include, True, both)))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'p.cu')
        open(src, 'w').write(both)
        r = subprocess.run([a.nvcc, '-E', '-x', 'cu', '-std=c++17', '-Xcompiler', '-U__CUDA_ARCH__', '-Xcompiler', '-dM'] +
                           [x for i in a.include for x in ('-I', i)] + [src], capture_output=True, text=True, check=True)
    renames = set(re.findall(r'^#define (' + NAME + r') ', r.stdout, re.M))
    provided = ours | renames

    # the documented gaps: rows "| `regex` | reason |" under the heading "## Not provided"
    doc = open(a.docs).read()
    sec = doc.split('## Not provided', 1)[1].split('\n## ', 1)[0] if '## Not provided' in doc else ''
    # (a | inside a markdown table cell is written \|)
    patterns = [(p, re.compile(p.replace('\\|', '|'))) for p in re.findall(r'^\| `([^`]+)` \|', sec, re.M)]

    missing = sorted(n for n in nv_all - provided if not any(r.fullmatch(n) for _, r in patterns))
    stale = sorted(f'{p} matches provided {n}' for p, r in patterns for n in nv_all & provided if r.fullmatch(n))
    unused = sorted(p for p, r in patterns if not any(r.fullmatch(n) for n in nv_all))

    # compile check: the address of every provided NVSHMEM name, on the side(s) NVSHMEM offers it
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'cov.cu')
        dev = sorted(nv_dev & provided)
        host = sorted(nv_host & provided)
        with open(src, 'w') as f:
            f.write(both + '#include <cstdio>\n')
            f.write('__device__ void gshmem_cov_device(const void **out) {\n')
            f.writelines(f'  out[{i}] = (const void *)&{n};\n' for i, n in enumerate(dev))
            f.write('}\nvoid gshmem_cov_host(const void **out) {\n')
            f.writelines(f'  out[{i}] = (const void *)&{n};\n' for i, n in enumerate(host))
            f.write('}\n')
        r = subprocess.run([a.nvcc, '-c', '-std=c++17', '-gencode=arch=compute_90,code=sm_90', '-o',
                            os.path.join(tmp, 'cov.o')] + [x for i in a.include for x in ('-I', i)] + [src],
                           capture_output=True, text=True)
        compile_errors = r.stderr if r.returncode else ''

    print(f'NVSHMEM names: {len(nv_all)} ({len(nv_host)} host, {len(nv_dev)} device); provided {len(nv_all & provided)}; '
          f'documented as not provided {len(nv_all - provided) - len(missing)}; missing {len(missing)}')
    ok = True
    if missing:
        ok = False
        print(f'{len(missing)} NVSHMEM names neither provided nor listed in {a.docs}:')
        for n in missing[:int(os.environ.get("COVERAGE_SHOW", "200"))]:
            print('  ' + n)
    if stale:
        ok = False
        print('docs list names as not provided that the headers provide:')
        for s in stale[:50]:
            print('  ' + s)
    if unused:
        ok = False
        print('patterns in the "Not provided" table that match no NVSHMEM name:')
        for p in unused:
            print('  ' + p)
    if compile_errors:
        ok = False
        print('taking the address of every provided name failed:')
        print(compile_errors[-6000:])
    if ok:
        print(f'nvshmem coverage: ok ({len(dev)} device and {len(host)} host names compiled)')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
