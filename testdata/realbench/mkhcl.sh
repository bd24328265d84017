#!/bin/sh
# mkhcl.sh DIR N [valid]: writes DIR/spec.hcldec, an hcldec spec (a map of
# "item" blocks by label, each with a number size and a list of strings
# tags), and DIR/in.hcl, N item blocks of five lines and a blank line,
# written unformatted (no spaces around = or after commas, the = not
# aligned), for
#
#	hcldec --spec DIR/spec.hcldec DIR/in.hcl
#	hclfmt DIR/in.hcl
#
# of github.com/hashicorp/hcl/v2/cmd/. By default every block also sets
# colour, which the spec does not have: hcldec reports N "Unsupported
# argument" errors (exit 2), and its text diagnostics print each one's
# source line by scanning the whole file again (quadratic). With valid,
# no colour: no errors, hcldec prints the decoded map. Used by
# doc/cases/hcl-reads.md.
set -e
dir=$1 n=$2 mode=$3
case $mode in
"" | valid) ;;
*)
  echo "mkhcl.sh: mode is valid, not $mode" >&2
  exit 2
  ;;
esac
mkdir -p "$dir"
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
