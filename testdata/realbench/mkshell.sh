#!/bin/sh
# mkshell.sh N: writes a shell script of N functions to standard output,
# badly indented for shfmt to rewrite: each with a local, an if with a
# for loop and a pipe, a case, a comment and a here-document; then a main
# calling each. Used by doc/cases/shfmt-reads.md.
set -e
awk -v n="$1" 'BEGIN {
  print "#!/bin/sh"
  print "set -eu"
  for (i = 0; i < n; i++) {
    printf "# step%d: check and copy part %d\n", i, i
    printf "step%d() {\n", i
    printf "    local dir=\"${1:-/tmp/part%d}\"  count=0\n", i
    printf "  if [ -d \"$dir\" ] && [ \"$count\" -lt %d ]; then\n", i + 1
    printf "        for f in \"$dir\"/*.txt; do count=$((count + 1)); grep -c step%d \"$f\" | sort -n >>\"$dir/out\"; done\n", i
    printf "  else\n      echo \"missing $dir\" >&2\n  fi\n"
    printf "  case \"$count\" in\n    0) echo none ;;\n    [1-9]) echo few;;\n    *) echo \"many: $count\" ;;\n  esac\n"
    printf "  cat <<END\npart %d done: $count\nEND\n", i
    printf "}\n"
  }
  print "main() {"
  for (i = 0; i < n; i++) printf "  step%d \"$@\"\n", i
  print "}"
  print "main \"$@\""
}'
