#!/bin/sh
# mkchroma.sh KIND N: the inputs of the chroma driver
# (testdata/realbench/chromadrive.go, doc/cases/chroma-reads.md), on
# standard output.
#   golines  N lines of Go: functions of 5 lines with a call, a string,
#            a comment, a raw string and numbers (lexer go)
#   longline one line of Go N tokens long: x := a0 + a1*2 + "s" + ... (go)
#   nest     N nested JSON objects {"kI": {...}} (each pushes two states
#            of chroma's JSON lexer), then N closing braces (json)
#   mdcode   a markdown document with N fenced code blocks, in go, css,
#            html and json in turn, each lexed by its sub-lexer (markdown)
#   escapes  one markdown line with N backslash escapes \* (each its own
#            Text token, merged again by Coalesce) (markdown)
#   unclosed N lines of Go each opening a /* comment that is never closed
#            (go)
#   tmpl     N lines of an HTML Go template, {{ }} actions inside tags and
#            text (go-html-template: chroma's DelegatingLexer, the template
#            lexer first, then the HTML lexer over the rest, then merged)
#   flat     a fixed Go file of 200 lines (N ignored) (go)
kind=$1 n=$2
awk -v kind="$kind" -v n="$n" 'BEGIN {
	if (kind == "golines") {
		print "package main\n\nimport \"fmt\"\n"
		for (i = 0; i < n; i += 5) {
			printf "// f%d does thing %d.\n", i, i
			printf "func f%d(a int, s string) (int, error) {\n", i
			printf "\tx := a*%d + 0x%x + len(`raw %d`)\n", i, i, i
			printf "\tfmt.Println(\"value\", x, s, %d.5)\n", i
			print "\treturn x, nil\n}"
		}
	} else if (kind == "longline") {
		printf "var x = a0"
		for (i = 1; i < n; i++) {
			m = i % 3
			if (m == 0) printf " + a%d", i
			else if (m == 1) printf " * %d", i
			else printf " + len(\"s%d\")", i
		}
		print ""
	} else if (kind == "nest") {
		for (i = 0; i < n; i++) printf "{\"k%d\": ", i
		printf "\"leaf\""
		for (i = 0; i < n; i++) printf "}"
		print ""
	} else if (kind == "mdcode") {
		print "# Document\n"
		for (i = 0; i < n; i++) {
			printf "Paragraph %d with *emphasis*, `code` and a [link](http://example.com/%d).\n\n", i, i
			m = i % 4
			if (m == 0) printf "```go\nfunc g%d() int { return %d }\n```\n\n", i, i
			else if (m == 1) printf "```css\n.c%d { color: #%06x; margin: %dpx }\n```\n\n", i, i, i
			else if (m == 2) printf "```html\n<div class=\"d%d\"><a href=\"/p/%d\">x</a></div>\n```\n\n", i, i
			else printf "```json\n{\"k%d\": [%d, true, \"v\"]}\n```\n\n", i, i
		}
	} else if (kind == "escapes") {
		printf "Escapes:"
		for (i = 0; i < n; i++) printf "\\*"
		print ""
	} else if (kind == "unclosed") {
		print "package main\n"
		for (i = 0; i < n; i++) printf "var v%d = %d /* open %d\n", i, i, i
	} else if (kind == "tmpl") {
		for (i = 0; i < n; i++)
			printf "<p class=\"c%d {{ .Class }}\">{{ .Name }} {{ if .X }}<b>x%d</b>{{ end }}</p>\n", i, i
	} else if (kind == "flat") {
		print "package main\n\nimport \"fmt\"\n"
		for (i = 0; i < 200; i += 5) {
			printf "// f%d does thing %d.\n", i, i
			printf "func f%d(a int, s string) (int, error) {\n", i
			printf "\tx := a*%d + 0x%x + len(`raw %d`)\n", i, i, i
			printf "\tfmt.Println(\"value\", x, s, %d.5)\n", i
			print "\treturn x, nil\n}"
		}
	} else {
		print "mkchroma.sh: unknown kind " kind > "/dev/stderr"
		exit 2
	}
}'
