#!/bin/sh
# mkgoyaml.sh KIND N: writes a YAML document to standard output, for
# goyamldrive.go (doc/cases/goyaml-reads.md).
#   deep    N mappings nested in flow style, {k1: {k2: ... {kN: 1}...}}:
#           the input grows linearly with N (go-yaml's encoder shifts each
#           nested mapping's subtree once per level: N(N-1)/2 AddColumn calls)
#   keys    one block mapping of N keys, keyI: valueI (go-yaml's parser
#           recurses once per key and appends the rest at every level)
#   docs    N documents of one key each, ---\nk: I (go-yaml's parser
#           recurses once per document and appends the rest likewise)
#   records a sequence of N small records (testdata/realbench/mkyaml.sh)
set -e
k=$1
n=$2
case $k in
deep) awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "{k%d: ", i; printf "1"; for (i = 1; i <= n; i++) printf "}"; print "" }' ;;
keys) awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "key%d: value%d\n", i, i }' ;;
docs) awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "---\nk: %d\n", i }' ;;
records) sh "$(dirname "$0")/mkyaml.sh" "$n" ;;
*) echo "usage: mkgoyaml.sh deep|keys|docs|records N" >&2; exit 2 ;;
esac
