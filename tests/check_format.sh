#!/usr/bin/env bash
# The library's sources are formatted as .clang-format (and device/.clang-format) say, with the
# clang-format the CI machine has (Debian 12: 14); skipped (77) without it or with another major
# version, whose output differs.
set -u
root=$1
cf=$(command -v clang-format-14 || command -v clang-format) || { echo "no clang-format; skipping"; exit 77; }
"$cf" --version | grep -q " 14\." || { echo "$("$cf" --version): not 14; skipping"; exit 77; }
cd "$root"
files=$(git ls-files 'src/*.cpp' 'src/*.hpp' 'src/*.cu' 'device/*.cuh' 'runtime/*.cpp' 2>/dev/null)
[ -n "$files" ] || { echo "not a git checkout; skipping"; exit 77; }
if ! "$cf" --dry-run --Werror $files 2> format.err; then
  grep -E "^[^ ].*(warning|error):" format.err | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
  rm -f format.err
  echo "run: clang-format -i \$(git ls-files 'src/*.cpp' 'src/*.hpp' 'src/*.cu' 'device/*.cuh' 'runtime/*.cpp')"
  exit 1
fi
rm -f format.err
echo "format: $(echo "$files" | wc -l) files as .clang-format says"
