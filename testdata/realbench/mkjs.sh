#!/usr/bin/env bash
# mkjs.sh DIR FILES: writes into DIR a JavaScript project of FILES modules,
# each with functions nested 12 levels deep and 40 distinct identifiers
# per level, and an entry point that imports them all. Used by run.sh
# (PROGRAM=esbuild).
set -euo pipefail
dir=$1 files=$2
mkdir -p "$dir/src"
: > "$dir/src/entry.js"
for ((f = 0; f < files; f++)); do
  awk -v f=$f 'BEGIN {
    for (d = 0; d < 12; d++) {
      printf "%*sfunction level%d_%d(a%d) {\n", 2*d, "", f, d, d
      for (v = 0; v < 40; v++) printf "%*s  let name%d_%d_%d = a%d + %d;\n", 2*d, "", f, d, v, d, v
    }
    printf "%*s  return name%d_11_0;\n", 24, "", f
    for (d = 11; d >= 0; d--) {
      if (d < 11) printf "%*s  return level%d_%d(name%d_%d_1);\n", 2*d, "", f, d+1, f, d
      printf "%*s}\n", 2*d, ""
    }
    printf "export function run%d(x) { return level%d_0(x); }\n", f, f
  }' > "$dir/src/m$f.js"
  echo "import { run$f } from './m$f.js'; console.log(run$f($f));" >> "$dir/src/entry.js"
done
