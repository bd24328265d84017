#!/bin/sh
# mkcel.sh MODE N: print the CEL expression of one celdrive workload
# (doc/cases/celgo-reads.md). The list workloads name xs (N elements,
# made by celdrive.go itself) and print the same text at every N; the
# chain workloads print N terms.
#   exists   xs.exists(x, x == k)            (k is in no list: a full scan)
#   filter   xs.filter(x, x > 0).map(x, x * 2).size()
#   allex    xs.all(x, xs.exists(y, y == x))  (quadratic by itself)
#   in       key in m                          (m has N keys: the flat control)
#   plus     x + 1 + 2 + ... (N terms)
#   and      x == 0 && x == 1 && ... (N terms)
#   andlt    x < 0 && x < 1 && ... (N terms)
#   str      s + "a0" + "a1" + ... (N terms)
mode=$1 n=$2
case $mode in
exists) echo 'xs.exists(x, x == k)' ;;
filter) echo 'xs.filter(x, x > 0).map(x, x * 2).size()' ;;
allex) echo 'xs.all(x, xs.exists(y, y == x))' ;;
in) echo 'key in m' ;;
plus) awk -v n="$n" 'BEGIN { printf "x"; for (i = 1; i < n; i++) printf " + %d", i; print "" }' ;;
and) awk -v n="$n" 'BEGIN { printf "x == 0"; for (i = 1; i < n; i++) printf " && x == %d", i; print "" }' ;;
andlt) awk -v n="$n" 'BEGIN { printf "x < 0"; for (i = 1; i < n; i++) printf " && x < %d", i; print "" }' ;;
str) awk -v n="$n" 'BEGIN { printf "s"; for (i = 1; i < n; i++) printf " + \"a%d\"", i; print "" }' ;;
*) echo "mkcel.sh: unknown mode $mode" >&2; exit 2 ;;
esac
