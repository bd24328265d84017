#!/bin/sh
# mkhcl.sh DIR N [valid|for|lookup]: writes an hcldec spec, DIR/spec.hcldec,
# and an input, DIR/in.hcl, of size N for the command-line tools of
# github.com/hashicorp/hcl/v2/cmd/. Used by doc/cases/hcl-reads.md.
#
# By default and with valid: the spec is a map of "item" blocks by label,
# each with a number size and a list of strings tags, and in.hcl is N item
# blocks of five lines and a blank line, written unformatted (no spaces
# around = or after commas, the = not aligned), for
#
#	hcldec --spec DIR/spec.hcldec DIR/in.hcl
#	hclfmt DIR/in.hcl
#
# By default every block also sets colour, which the spec does not have:
# hcldec reports N "Unsupported argument" errors (exit 2), and its text
# diagnostics print each one's source line by scanning the whole file
# again (quadratic). With valid, no colour: no errors, hcldec prints the
# decoded map.
#
# With for and lookup: DIR/vars.hcl holds items, a list of N strings, and
# idx, an object mapping each to itself; the spec has one attribute,
# pairs, a list of lists of strings, for
#
#	hcldec --spec DIR/spec.hcldec -V DIR/vars.hcl DIR/in.hcl
#
# With for, pairs keeps for each item the items equal to it, a for
# expression over all N items per item (quadratic in HCL's evaluator);
# with lookup, it looks each item up in idx (linear in HCL). Both print
# the same value.
set -e
dir=$1 n=$2 mode=$3
case $mode in
"" | valid | for | lookup) ;;
*)
  echo "mkhcl.sh: mode is valid, for or lookup, not $mode" >&2
  exit 2
  ;;
esac
mkdir -p "$dir"
case $mode in
for | lookup)
  printf 'object {\n  attr "pairs" {\n    type = list(list(string))\n  }\n}\n' >"$dir/spec.hcldec"
  awk -v n="$n" 'BEGIN {
    printf "items = ["
    for (i = 0; i < n; i++) printf "%s\"k%d\"", (i ? ", " : ""), i
    print "]"
    printf "idx = {"
    for (i = 0; i < n; i++) printf "%s\"k%d\" = \"k%d\"", (i ? ", " : ""), i, i
    print "}"
  }' >"$dir/vars.hcl"
  if [ "$mode" = for ]; then
    echo 'pairs = [for a in items: [for b in items: b if b == a]]' >"$dir/in.hcl"
  else
    echo 'pairs = [for a in items: [idx[a]]]' >"$dir/in.hcl"
  fi
  exit 0
  ;;
esac
cat >"$dir/spec.hcldec" <<'SPEC'
object {
  block_map "item" {
    labels = ["name"]
    object {
      attr "size" {
        type = number
      }
      attr "tags" {
        type = list(string)
      }
    }
  }
}
SPEC
awk -v n="$n" -v mode="$mode" 'BEGIN {
  for (i = 0; i < n; i++) {
    printf "item \"i%d\" {\n  size=%d\n  tags=[\"t%d\",\"u%d\"]\n", i, i, i, i
    if (mode != "valid") printf "  colour=\"red\"\n"
    else printf "  # no colour\n"
    printf "}\n\n"
  }
}' >"$dir/in.hcl"
