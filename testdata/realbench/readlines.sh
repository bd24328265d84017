#!/bin/sh
# readlines.sh REF TRACE: checks that every event of TRACE (a
# -reads trace) names a field its stack's first frame reads at that line,
# as far as REF (a trace of the same binary on a small input, recorded
# with GOMAXPROCS=1) shows: it counts the events of TRACE whose (field,
# first frame's function and line) pair never occurs in REF. A field
# read at a line where the program reads no such field (lexer.pos at
# `if lx.atEOF {`) is an event shown under a stack that is not its own.
# The suncat binary is $SUNCAT (default: suncat on the PATH). Used by
# doc/cases/tomlv-reads.md:
#
#	SUNCAT=/tmp/suncat-bin sh readlines.sh ref.suncat n1000.suncat
#	8539739 events, 0 (0 pairs) at a line REF never reads that field at
set -e
[ $# -eq 2 ] || { echo "usage: readlines.sh REF TRACE" >&2; exit 2; }
pairs() {
  "${SUNCAT:-suncat}" events -stacks "$1" | awk '
    /^stack [0-9]+ / { cur = $2; top[cur] = ""; next }
    /^\t\t/ { if (!(cur in line)) { n = split($0, a, "/"); line[cur] = a[n] } ; next }
    /^\t/ { if (top[cur] == "") { sub(/^\t/, ""); top[cur] = $0 } ; next }
    /^[0-9]+ / { c[$4 "\t" $5]++ }
    END { for (k in c) { split(k, p, "\t"); print c[k] "\t" p[1] "\t" top[p[2]] ":" line[p[2]] } }'
}
ref=$(mktemp) && trap 'rm -f "$ref"' EXIT
pairs "$1" >"$ref"
pairs "$2" | awk -F '\t' -v ref="$ref" '
  BEGIN { while ((getline l < ref) > 0) { split(l, a, "\t"); ok[a[2] "\t" a[3]] = 1 } }
  { tot += $1; if (!(($2 "\t" $3) in ok)) { bad += $1; nb++ } }
  END { printf "%d events, %d (%d pairs) at a line REF never reads that field at\n", tot, bad, nb }'
