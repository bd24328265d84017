#!/bin/sh
# mkstarlark.sh N MODE: writes a Starlark script of size N to standard
# output, for go.starlark.net's cmd/starlark to run. MODE is one of:
#   in      an int list built with "if i not in lst: lst.append(i)": the
#           interpreter's List.Has scans the whole list each turn
#           (N*N/2 Int comparisons in Go, quadratic)
#   instr   the same with strings ("k%d" % i): quadratic likewise, but
#           Equal's fast path for strings compares with == (no field read)
#   linear  a dict of N int keys filled and looked up, sorted() of N ints
#           and a list comprehension over them (linear and n log n)
#   stride  a dict of N int keys i*S (S the third argument, default
#           65536), filled and looked up: Int.Hash keeps the low bits
#           (12582917*(i+3) mod 2**32), so with S = 65536 every key lands
#           in one bucket chain and each insert and lookup walks it
#           (quadratic, in hashtable.go); S = 65537 spreads them (linear)
#   flat    the flat control: N is only printed; the work (a list of 100
#           ints and 1,000 membership tests on it) is the same at every N
# Used by doc/cases/starlark-reads.md.
#
#	sh mkstarlark.sh 1000 in >in1000.star
#	sh mkstarlark.sh 1000 stride 65537 >odd1000.star
set -e
n=$1
case $2 in
in) cat <<STAR
def main(n):
    lst = []
    for i in range(n):
        if i not in lst:
            lst.append(i)
    print(n, len(lst), lst[-1])
main($n)
STAR
;;
instr) cat <<STAR
def main(n):
    lst = []
    for i in range(n):
        k = "k%d" % i
        if k not in lst:
            lst.append(k)
    print(n, len(lst), lst[-1])
main($n)
STAR
;;
linear) cat <<STAR
def main(n):
    d = {}
    for i in range(n):
        d[(i * 7919) % n] = i
    hits = 0
    for i in range(n):
        if i in d:
            hits += 1
    s = sorted([(i * 7919) % n for i in range(n)])
    sq = [x * x for x in s if x % 3 != 0]
    print(n, len(d), hits, s[0], s[-1], len(sq))
main($n)
STAR
;;
stride) cat <<STAR
def main(n, s):
    d = {}
    for i in range(n):
        d[i * s] = i
    hits = 0
    for i in range(n):
        if i * s in d:
            hits += 1
    print(n, s, len(d), hits)
main($n, ${3:-65536})
STAR
;;
flat) cat <<STAR
def main(n):
    lst = list(range(100))
    hits = 0
    for i in range(1000):
        if (i % 150) in lst:
            hits += 1
    print(n, hits)
main($n)
STAR
;;
*) echo "usage: mkstarlark.sh N in|instr|linear|stride [S]|flat" >&2; exit 2;;
esac
