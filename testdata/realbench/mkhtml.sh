#!/bin/sh
# mkhtml.sh KIND N: the inputs of the bluemonday driver
# (doc/cases/bluemonday-reads.md), HTML on standard output.
#   para    N paragraphs, each with allowed (b, em), dropped (font, an
#           onclick) and skipped (script) markup
#   nest    N nested <div><a onclick> (the a loses its one attribute, so its
#           end tag is skipped by bluemonday's stack), then N closing pairs
#   attrs   one <a href> with N attributes: title, onclick, data-*,
#           x-aI (allowed by a regexp in -policy rich), style
#   links   N <a href> and N <img src> with query strings
#   styles  one <p style> with N declarations (allowed and not)
#   escapes one <p style="color: ..."> whose value has N CSS escapes \61
#   tokens  one <p style="color: red a0 a1 ..."> whose value has N more
#           tokens
#   flat    a fixed document of 200 paragraphs (N ignored)
kind=$1 n=$2
awk -v kind="$kind" -v n="$n" 'BEGIN {
	if (kind == "para") {
		for (i = 0; i < n; i++)
			printf "<p onclick=\"f(%d)\">para %d with <b>bold</b>, <font color=red>red</font> and <em>em</em><script>bad(%d)</script></p>\n", i, i, i
	} else if (kind == "nest") {
		for (i = 0; i < n; i++) printf "<div><a onclick=\"f(%d)\">%d ", i, i
		for (i = 0; i < n; i++) printf "</a></div>"
		print ""
	} else if (kind == "attrs") {
		printf "<a href=\"http://example.com/\""
		for (i = 0; i < n; i++) {
			m = i % 5
			if (m == 0) printf " title=\"t%d\"", i
			else if (m == 1) printf " onclick=\"f(%d)\"", i
			else if (m == 2) printf " data-k%d=\"v%d\"", i, i
			else if (m == 3) printf " x-a%d=\"v%d-ok%d\"", i % 40, i % 40, i
			else printf " style=\"color: red; width: %dpx\"", i
		}
		print ">link</a>"
	} else if (kind == "links") {
		for (i = 0; i < n; i++)
			printf "<a href=\"http://example.com/p/%d?q=%d&amp;r=x\">link %d</a> <img src=\"/img/%d.png\" alt=\"i%d\">\n", i, i, i, i, i
	} else if (kind == "styles") {
		printf "<p style=\""
		for (i = 0; i < n; i++) {
			m = i % 4
			if (m == 0) printf "color: #%06x; ", i
			else if (m == 1) printf "-webkit-margin: %dpx; ", i
			else if (m == 2) printf "text-align: center; "
			else printf "position: fixed; "
		}
		print "\">styled</p>"
	} else if (kind == "escapes") {
		printf "<p style=\"color: "
		for (i = 0; i < n; i++) printf "\\61 "
		print "\">escaped</p>"
	} else if (kind == "tokens") {
		printf "<p style=\"color: red"
		for (i = 0; i < n; i++) printf " a%d", i
		print "\">tokens</p>"
	} else if (kind == "flat") {
		for (i = 0; i < 200; i++)
			printf "<p onclick=\"f(%d)\">para %d with <b>bold</b> and <a href=\"http://example.com/%d\">a link</a><script>bad()</script></p>\n", i, i, i
	} else {
		print "mkhtml.sh: unknown kind " kind > "/dev/stderr"
		exit 2
	}
}'
