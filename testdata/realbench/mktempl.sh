#!/bin/sh
# mktempl.sh N [DIR]: writes a templ file of N components to standard
# output, for templ generate: each with parameters, attributes with Go
# expressions, an if/else, a for loop, a switch, a comment and a call of
# the component before it. With DIR, writes the same N components to N
# files DIR/cI.templ instead, one a file. Used by doc/cases/templ-reads.md.
set -e
[ -z "$2" ] || mkdir -p "$2"
awk -v n="$1" -v dir="$2" '
function out(s) { if (dir == "") printf "%s", s; else printf "%s", s > f }
function header() { out("package main\n\nimport \"fmt\"\n\n") }
BEGIN {
  f = "/dev/stdout"
  if (dir == "") header()
  for (i = 0; i < n; i++) {
    if (dir != "") { if (i > 0) close(f); f = dir "/c" i ".templ"; header() }
    out(sprintf("// card%d shows part %d.\n", i, i))
    out(sprintf("templ card%d(name string, tags []string, count int) {\n", i))
    out(sprintf("\t<div class=\"card c%d\" id={ fmt.Sprintf(\"card-%%d-%%s\", %d, name) } data-count={ fmt.Sprint(count) }>\n", i, i))
    out(sprintf("\t\t<h2>{ name } (part %d)</h2>\n", i))
    out(sprintf("\t\tif len(tags) > %d {\n", i % 5))
    out("\t\t\t<ul>\n\t\t\t\tfor _, t := range tags {\n\t\t\t\t\t<li class=\"tag\">{ t }</li>\n\t\t\t\t}\n\t\t\t</ul>\n")
    out("\t\t} else {\n\t\t\t<p>no tags for { name }</p>\n\t\t}\n")
    out("\t\tswitch count % 3 {\n\t\t\tcase 0:\n\t\t\t\t<span>none</span>\n\t\t\tdefault:\n\t\t\t\t<span>{ fmt.Sprint(count) } left</span>\n\t\t}\n")
    out(sprintf("\t\t<!-- part %d -->\n", i))
    if (i > 0) out(sprintf("\t\t@card%d(name, tags[1:], count-1)\n", i - 1))
    out("\t</div>\n}\n\n")
  }
}'
