#!/usr/bin/env python3
"""docs/env.md must contain exactly the table that `gshmem-info --env-markdown` prints."""
import subprocess
import sys

info, doc = sys.argv[1], sys.argv[2]
table = subprocess.run([info, "--env-markdown"], check=True, capture_output=True, text=True).stdout
text = open(doc).read()
if table not in text:
    print("docs/env.md is out of date; regenerate the table with:\n  build/runtime/gshmem-info --env-markdown")
    print(table)
    sys.exit(1)
print("docs/env.md matches the config table")
