#!/bin/sh
# mkfreeze.sh N: a Go source file of N lines for freeze
# (doc/cases/freeze-reads.md): a package line, then functions of 8
# lines each (a comment, a signature, a loop, a string, a return), cut
# at N lines (the last function may be left unclosed: freeze only lexes).
n=$1
awk -v n="$n" 'BEGIN {
	print "package gen"
	for (i = 1; i < n; i++) {
		k = int((i - 1) / 8); j = (i - 1) % 8
		if (j == 0) print "// F" k " adds the numbers below " k "."
		else if (j == 1) print "func F" k "(xs []int) (int, string) {"
		else if (j == 2) print "\ts := 0"
		else if (j == 3) print "\tfor i, x := range xs {"
		else if (j == 4) print "\t\ts += x * i // " k
		else if (j == 5) print "\t}"
		else if (j == 6) print "\treturn s, \"f" k "\""
		else print "}"
	}
}'
