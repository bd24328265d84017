#!/bin/sh
# mkexpr.sh N [X]: the input of the expr driver (doc/cases/expr-reads.md):
# N items "i V G" (V = 0..N-1, G = V mod 10), N others "o V" that match
# no item (V = -1..-N), and X extra items "x V G" no expression names.
n=$1 x=${2:-0}
awk -v n="$n" -v x="$x" 'BEGIN {
	for (i = 0; i < n; i++) print "i", i, i % 10
	for (i = 0; i < n; i++) print "o", -1 - i
	for (i = 0; i < x; i++) print "x", i, i % 10
}'
