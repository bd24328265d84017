#!/bin/sh
# mkrevive.sh MODE N DIR: writes Go code for revive to lint into DIR (a
# module, example.com/gen, go 1.22). Used by doc/cases/revive-reads.md.
#
#	files N DIR  one package, DIR/p, of N files, each one "unit"
#	funcs N DIR  one package, DIR/p, of one file of N units
#	pkgs  N DIR  N packages, DIR/p0 ... DIR/pN-1, one unit each
#
# A unit is an exported type without a doc comment, two methods on it
# (one with an unused parameter), a function with a typed var
# (`var n int = I`, which revive's var-declaration rule checks with
# types.Eval) and an if/else, and an exported function whose line ends
# with `//revive:disable-line:exported` (a directive of revive).
set -e
mode=$1 n=$2 dir=$3
[ -n "$dir" ] || { echo "usage: mkrevive.sh files|funcs|pkgs N DIR" >&2; exit 2; }
mkdir -p "$dir"
printf 'module example.com/gen\n\ngo 1.22\n' >"$dir/go.mod"
awk -v mode="$mode" -v n="$n" -v dir="$dir" '
function header(pkg) { printf "package %s\n\nimport \"fmt\"\n\n", pkg > f }
function unit(i) {
  printf "type T%d struct {\n\tName string\n\tN    int\n}\n\n", i > f
  printf "func (t *T%d) Get(key string) string { return t.Name }\n\n", i > f
  printf "func (t T%d) Count() int {\n\tif t.N > %d {\n\t\treturn t.N\n\t} else {\n\t\treturn %d\n\t}\n}\n\n", i, i % 7, i > f
  printf "func make%d(s string) *T%d {\n\tvar n int = %d\n\tfmt.Println(s)\n\treturn &T%d{Name: s, N: n}\n}\n\n", i, i, i, i > f
  printf "func Use%d() int { //revive:disable-line:exported\n\treturn make%d(\"u%d\").Count()\n}\n\n", i, i, i > f
}
BEGIN {
  if (mode == "files") {
    system("mkdir -p " dir "/p")
    for (i = 0; i < n; i++) { f = dir "/p/f" i ".go"; header("p"); unit(i); close(f) }
  } else if (mode == "funcs") {
    system("mkdir -p " dir "/p")
    f = dir "/p/all.go"; header("p")
    for (i = 0; i < n; i++) unit(i)
    close(f)
  } else if (mode == "pkgs") {
    for (i = 0; i < n; i++) {
      system("mkdir -p " dir "/p" i)
      f = dir "/p" i "/f.go"; header("p" i); unit(i); close(f)
    }
  } else { print "mkrevive.sh: unknown mode " mode > "/dev/stderr"; exit 2 }
}'
