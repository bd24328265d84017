#!/bin/sh
# mkparticiple.sh KIND N: writes a program in participledrive.go's small
# statement language to standard output (doc/cases/participle-reads.md).
#   index  one statement x = a[a[...a[x]...]]; of N nested indexes: at each
#          level the parser first tries a generic call f[T](...), parses
#          the rest of the brackets as a type, fails at the missing "(" and
#          backs off (N(N+1)/2 types parsed)
#   stmts  N statements of fixed shape (an index, a generic call, a call,
#          arithmetic): the linear control
set -e
k=$1
n=$2
case $k in
index) awk -v n="$n" 'BEGIN { printf "x = "; for (i = 1; i <= n; i++) printf "a[\n"; printf "x"; for (i = 1; i <= n; i++) printf "]"; print ";" }' ;;
stmts) awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "v%d = a%d[b[i]] + f[int, map[K]](y%d, 2) * g(z) - (%d / 3);\n", i, i, i, i }' ;;
*) echo "usage: mkparticiple.sh index|stmts N" >&2; exit 2 ;;
esac
