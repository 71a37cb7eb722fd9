#!/usr/bin/env python3
"""NVSHMEM API coverage of gshmem's compatibility headers (docs/nvshmem.md).

Reads every public function NVSHMEM declares (nvshmem_* / nvshmemx_*) from NVSHMEM's own headers
(the nvidia-nvshmem-cu13 package), preprocessed as nvcc's host pass and device pass see
`#include <nvshmem.h>` + `#include <nvshmemx.h>`, and checks against gshmem's nvshmem.h/nvshmemx.h:
  1. every NVSHMEM name is provided (a function of the compat headers or a rename in
     gshmem/nvshmem/names.h), or matches a pattern of docs/nvshmem.md's "Not provided" table;
  2. no pattern of that table matches a name the headers provide (the docs would be wrong);
  3. every provided name has NVSHMEM 3.4.5's signature: a generated translation unit declares
     NVSHMEM's own declaration of each name (return type and parameters as its preprocessed
     headers spell them, attributes and specifiers dropped) in a namespace of its own, and
     initializes a pointer of that function-pointer type with the address of gshmem's name, in
     device code for the names NVSHMEM defines for device code (with the device pass's
     declaration) and in host code for its host names (the host pass's). The initialization
     compiles only if a function of exactly that type exists (overload resolution picks it), so a
     differing return or parameter type, a missing parameter, a rename that leads nowhere or to
     the wrong side, or a type NVSHMEM uses that the compat headers lack, fails. nvcc's errors
     are mapped back to names through the generated line numbers; each name that fails must match
     a pattern of docs/nvshmem.md's "Signature differences" table, and each pattern of that table
     must match a name that fails.

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


def nvshmem_missing(msg):
    """Without NVSHMEM: exit 77 (skip), or fail where GSHMEM_REQUIRE_NVSHMEM_HEADERS is set (CI)."""
    msg += ' (pip install nvidia-nvshmem-cu13==3.4.5)'
    if os.environ.get('GSHMEM_REQUIRE_NVSHMEM_HEADERS'):
        sys.exit(msg)
    print(msg + ': skipped')
    return 77


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


# what a declaration's head may carry besides its return type
SPECIFIERS = re.compile(r'__attribute__ ?\(\((?:[^()]|\([^()]*\))*\)\)|__location__ ?\([^()]*\)|\bextern "C"|'
                        r'\b(?:extern|static|inline|__inline__|__forceinline__|__noinline__|__host__|__device__)\b')


def signatures(text):
    """name -> sorted distinct (return type, parameter list) of its declarations and definitions in
    preprocessed text. A declaration is a name followed by a parameter list whose text since the
    previous ';', '{' or '}' is, without attributes and specifiers, a type (calls inside bodies
    have operators or keywords there and are skipped). Default arguments are cut."""
    out = {}
    flat = re.sub(r'\s+', ' ', text)
    for m in re.finditer(r'\b(' + NAME + r') ?\(', flat):
        start = max(flat.rfind(';', 0, m.start()), flat.rfind('}', 0, m.start()), flat.rfind('{', 0, m.start()))
        ret = re.sub(r'\s+', ' ', SPECIFIERS.sub(' ', flat[start + 1:m.start()])).strip()
        if not re.fullmatch(r'[A-Za-z_][\w :*&]*', ret) or re.search(r'\b(return|else|case|do|goto|throw)\b', ret):
            continue
        depth, i, params, arg = 1, m.end(), [], ''
        while depth:  # the parameters: split at commas outside parentheses, each cut at a default argument's '='
            c = flat[i]
            i += 1
            depth += {'(': 1, ')': -1}.get(c, 0)
            if depth == 1 and c == ',' or not depth:
                params.append(arg.split('=', 1)[0].strip())
                arg = ''
            else:
                arg += c
        out.setdefault(m.group(1), set()).add((ret, ', '.join(params)))
    return {n: sorted(v) for n, v in out.items()}


def doc_table(doc, heading):
    """The regexes of the rows "| `regex` | ... |" under "## heading" (a | in a cell is written \\|)."""
    sec = doc.split('## ' + heading, 1)[1].split('\n## ', 1)[0] if '## ' + heading in doc else ''
    return [(p, re.compile(p.replace('\\|', '|'))) for p in re.findall(r'^\| `([^`]+)` \|', sec, re.M)]


def signature_check(nvcc, incs, both, sides):
    """Compiles one translation unit that checks each name of sides, [(side, [(name, [(return
    type, parameters)...])...])...], against NVSHMEM's declarations: the k-th declaration text of a
    name goes to namespace gshmem_nvref_SIDE_k, so declarations that differ only in parameter names
    check alike and declarations of different types (NVSHMEM's headers disagreeing with
    themselves) are each checked rather than making the reference ambiguous. Returns ((side, name)
    -> why it differs, nvcc errors outside the generated lines)."""
    lines, where = both.rstrip('\n').split('\n'), {}  # where: line number -> (side, name, declaration)
    for side, items in sides:
        for k in range(max((len(d) for _, d in items), default=0)):
            lines.append(f'namespace gshmem_nvref_{side}_{k} {{')
            for n, decls in items:
                if k < len(decls):
                    where[len(lines) + 1] = (side, n, decls[k])
                    lines.append(f'__host__ __device__ {decls[k][0]} {n}({decls[k][1]});')
            lines.append('}')
    for side, items in sides:
        lines.append(('__device__ ' if side == 'device' else '') + f'void gshmem_sig_{side}(const void **out) {{')
        for i, (n, decls) in enumerate(items):
            for k, d in enumerate(decls):
                where[len(lines) + 1] = (side, n, d)
                lines.append(f'  {{ decltype(&gshmem_nvref_{side}_{k}::{n}) p = &{n}; out[{i}] = (const void *)p; }}')
        lines.append('}')
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'sig.cu')
        with open(src, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        r = subprocess.run([nvcc, '-c', '-std=c++17', '-gencode=arch=compute_90,code=sm_90', '-w',
                            '-Xcudafe', '--error_limit=1000000', '-o', os.path.join(tmp, 'sig.o')] +
                           [x for i in incs for x in ('-I', i)] + [src], capture_output=True, text=True)
    if not r.returncode:
        return {}, ''
    t = r'("[^"]*"(?: \(aka "[^"]*"\))?)'  # a type as nvcc prints it
    found, other = {}, []
    for m in re.finditer(r'^(.*?)\((\d+)\): error: (.*)', r.stderr, re.M):
        line = int(m.group(2))
        if not m.group(1).endswith('sig.cu') or line not in where:
            other.append(m.group(0))
            continue
        side, n, (ret, params) = where[line]
        msg = m.group(3)
        init = re.match(f'a value of type {t} cannot be used to initialize an entity of type {t}', msg)
        if init:
            why = f"gshmem's type {init.group(1)}, NVSHMEM 3.4.5's type {init.group(2)}"
        elif msg.startswith('no instance of overloaded function'):
            why = f"no overload of gshmem's has NVSHMEM 3.4.5's type {ret} ({params})"
        else:
            why = f"NVSHMEM 3.4.5's {ret} ({params}) against gshmem's headers: {msg}"
        whys = found.setdefault((side, n), [])
        if not any(w.startswith(f"NVSHMEM 3.4.5's {ret} ({params})") for w in whys) and why not in whys:
            whys.append(why)  # a name's first error per declaration: later ones follow from it
    for (side, n), whys in found.items():
        decls = dict(sides[[s for s, _ in sides].index(side)][1])[n]
        found[side, n] = '; '.join(whys) + (f' (NVSHMEM 3.4.5 declares it {len(decls)} ways)' if len(decls) > 1 else '')
    if not found and not other:
        other = [r.stderr[-3000:]]
    return found, '\n'.join(other)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nvcc', required=True)
    ap.add_argument('--include', action='append', required=True)
    ap.add_argument('--docs', required=True)
    ap.add_argument('--nvshmem-include')
    a = ap.parse_args()
    nvinc = nvshmem_include(a.nvshmem_include, os.path.dirname(os.path.dirname(os.path.abspath(a.docs))))
    if not nvinc:
        return nvshmem_missing('check_coverage: NVSHMEM headers not found')
    both = '#include <nvshmem.h>\n#include <nvshmemx.h>\n'

    # NVSHMEM's names: host pass (host-callable) and device pass (device attribute)
    nv_host_text = preprocess(a.nvcc, [nvinc], False, both)
    nv_dev_text = preprocess(a.nvcc, [nvinc], True, both)
    nv_host = set(declared(nv_host_text))
    nv_dev = {n for n, d in declared(nv_dev_text).items() if d}
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

    # the documented gaps and signature differences: rows "| `regex` | reason |"
    doc = open(a.docs).read()
    patterns = doc_table(doc, 'Not provided')
    sig_patterns = doc_table(doc, 'Signature differences')

    missing = sorted(n for n in nv_all - provided if not any(r.fullmatch(n) for _, r in patterns))
    stale = sorted(f'{p} matches provided {n}' for p, r in patterns for n in nv_all & provided if r.fullmatch(n))
    unused = sorted(p for p, r in patterns if not any(r.fullmatch(n) for n in nv_all))

    # signatures: every provided NVSHMEM name against NVSHMEM's declaration, on the side(s) NVSHMEM offers it
    names = {'device': sorted(nv_dev & provided), 'host': sorted(nv_host & provided)}
    dev, host = names['device'], names['host']
    nv_sig = {'host': signatures(nv_host_text), 'device': signatures(nv_dev_text)}
    sides = [(side, [(n, nv_sig[side][n]) for n in names[side] if n in nv_sig[side]]) for side in ('device', 'host')]
    sig_bad, compile_errors = signature_check(a.nvcc, a.include, both, sides)
    for side in names:  # a declaration signatures() does not recognize
        sig_bad.update({(side, n): "NVSHMEM 3.4.5's declaration not found by this test"
                        for n in names[side] if n not in nv_sig[side]})
    undocumented = sorted((n, side, why) for (side, n), why in sig_bad.items()
                          if not any(r.fullmatch(n) for _, r in sig_patterns))
    sig_unused = sorted(p for p, r in sig_patterns if not any(r.fullmatch(n) for _, n in sig_bad))
    sig_ok = {side: len(names[side]) - sum(1 for s, _ in sig_bad if s == side) for side in names}

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
    if undocumented:
        ok = False
        print(f'{len(undocumented)} signatures differ from NVSHMEM 3.4.5\'s and are not listed under '
              f'"Signature differences" in {a.docs}:')
        for n, side, why in undocumented[:int(os.environ.get("COVERAGE_SHOW", "200"))]:
            print(f'  {n} ({side}): {why}')
    if sig_unused:
        ok = False
        print('patterns in the "Signature differences" table that match no differing signature:')
        for p in sig_unused:
            print('  ' + p)
    if compile_errors:
        ok = False
        print('the signature check failed outside its generated lines:')
        print(compile_errors[-6000:])
    print(f'signatures as NVSHMEM 3.4.5 declares them: {sig_ok["device"]} of {len(dev)} device names, '
          f'{sig_ok["host"]} of {len(host)} host names; documented differences: '
          f'{len({n for _, n in sig_bad} - {n for n, _, _ in undocumented})} names')
    if ok:
        print(f'nvshmem coverage: ok ({len(dev)} device and {len(host)} host names compiled and signature-checked)')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
