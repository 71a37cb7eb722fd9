#!/usr/bin/env python3
"""Table of an ab_compare.sh log: for each suite and size, base / new / NVSHMEM figures (every
repetition, first one used for the ratios), new / NVSHMEM and new / base."""
import collections
import re
import sys

IMPLS = ["base", "new", "nvshmem"]


def main(path):
    data = collections.defaultdict(list)
    cur = None
    order = []
    for line in open(path):
        m = re.match(r"== (\w+) (\w+) ?(.*)", line)
        if m:
            cur = (m.group(2) + " " + m.group(3).strip(), m.group(1))
            if cur[0] not in order:
                order.append(cur[0])
            continue
        m = re.match(r"\s+(\d+)\s+(\S+)\s+([\d.]+)\s+(\S+)", line)
        if m and cur:
            data[cur].append((int(m.group(1)), m.group(2), float(m.group(3)), m.group(4)))
    for suite in order:
        print("##", suite)
        rows = collections.OrderedDict()
        for impl in IMPLS:
            for size, metric, value, unit in data.get((suite, impl), []):
                rows.setdefault((size, metric, unit), {}).setdefault(impl, []).append(value)
        for (size, metric, unit), d in rows.items():
            cols = " ".join("%s %s" % (i, "/".join("%.3f" % v for v in d.get(i, [])) or "-") for i in IMPLS)
            first = {i: d[i][0] for i in IMPLS if d.get(i)}
            ratio = lambda a, b: "%.3f" % (first[a] / first[b]) if a in first and b in first and first[b] else "-"
            print("%10d %-10s %-5s %s  new/nvshmem %s new/base %s" % (size, metric, unit, cols, ratio("new", "nvshmem"),
                                                                   ratio("new", "base")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
