#!/bin/sh
# mkmarkdown.sh KIND N: Markdown inputs of the goldmark driver
# (testdata/realbench/goldmarkdrive.go, doc/cases/goldmark-reads.md), on
# standard output.
#   paras     N paragraphs, each with emphasis, code, a link and a line break
#   quote     one line of N nested block quotes: > > > ... text
#   list      one line of N nested lists: - - - ... text
#   delims    one paragraph of N "*a_ ": N * openers, N _ closers, none match
#   openers   one paragraph of N "_a ": N _ openers and no closer
#   brackets  one paragraph: N [, a, N ] (nested brackets, no link)
#   unclosed  one paragraph of N "[a](<b": link destinations never closed
#   refs      N link reference definitions [rI]: /uI "tI" on consecutive
#             lines (one block), then N paragraphs each using [rI]
#   table     a GFM table of N rows of 3 cells
#   pipes     a GFM table of N rows whose cell has an escaped pipe in code:
#             `aI\|b`
#   emph      one paragraph of N nested emphasis: *a *a ... b* b* ...
#   ticks     one paragraph of backtick runs of length 1..N, each unmatched
#   flat      a fixed document of 200 paragraphs (N ignored)
kind=$1 n=$2
awk -v kind="$kind" -v n="$n" 'BEGIN {
	if (kind == "paras" || kind == "flat") {
		if (kind == "flat") n = 200
		for (i = 0; i < n; i++)
			printf "Paragraph %d with *emphasis*, **strong**, `code %d` and a [link](http://example.com/%d \"t\").  \nA second line.\n\n", i, i, i
	} else if (kind == "quote") {
		for (i = 0; i < n; i++) printf "> "
		print "text"
	} else if (kind == "list") {
		for (i = 0; i < n; i++) printf "- "
		print "text"
	} else if (kind == "delims") {
		for (i = 0; i < n; i++) printf "*a_ "
		print ""
	} else if (kind == "openers") {
		for (i = 0; i < n; i++) printf "_a "
		print ""
	} else if (kind == "brackets") {
		for (i = 0; i < n; i++) printf "["
		printf "a"
		for (i = 0; i < n; i++) printf "]"
		print ""
	} else if (kind == "unclosed") {
		for (i = 0; i < n; i++) printf "[a](<b"
		print ""
	} else if (kind == "refs") {
		for (i = 0; i < n; i++) printf "[r%d]: /u%d \"t%d\"\n", i, i, i
		print ""
		for (i = 0; i < n; i++) printf "See [r%d].\n\n", i
	} else if (kind == "table" || kind == "pipes") {
		print "| a | b | c |\n|---|:-:|--:|"
		for (i = 0; i < n; i++) {
			if (kind == "table") printf "| x%d | *y* | `z` |\n", i
			else printf "| x%d | `a%d\\|b` | z |\n", i, i
		}
	} else if (kind == "emph") {
		for (i = 0; i < n; i++) printf "*a "
		printf "b"
		for (i = 0; i < n; i++) printf "* b"
		print ""
	} else if (kind == "ticks") {
		for (i = 1; i <= n; i++) {
			for (j = 0; j < i; j++) printf "`"
			printf "a"
		}
		print ""
	} else {
		print "mkmarkdown.sh: unknown kind " kind > "/dev/stderr"
		exit 2
	}
}'
