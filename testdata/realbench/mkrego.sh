#!/bin/sh
# mkrego.sh DIR N [index|eq]: writes DIR/input.json, N items (an id and a
# list of deps: the item before it and the one at half its index), and
# DIR/policy.rego, package bench, whose rule users gives, for every item,
# the sorted names of the items that depend on it, for
#
#	opa eval -d DIR/policy.rego -i DIR/input.json data.bench.users
#
# By default users is what a Rego user writes first: for every item, a
# comprehension over all N items that keeps those whose deps hold it
# (k in v2.deps), N*N iterations (quadratic). With index, a partial set
# dependents (deps to items) is built once, N iterations, and users looks
# each item up in it (linear). With eq, the comprehension of the default
# with the membership written as some d in v2.deps; d == k: OPA's
# comprehension indexing sees the equality with the outer k and builds
# the index itself (linear). The three print the same users. Used by
# doc/cases/opa-reads.md.
set -e
dir=$1 n=$2 mode=$3
case $mode in
"" | index | eq) ;;
*)
  echo "mkrego.sh: mode is index or eq, not $mode" >&2
  exit 2
  ;;
esac
mkdir -p "$dir"
awk -v n="$n" 'BEGIN {
  printf "{\"items\": {"
  for (i = 0; i < n; i++) {
    d = ""
    if (i > 0) d = sprintf("\"i%d\"", i - 1)
    if (i > 1 && int(i / 2) != i - 1) d = d sprintf(", \"i%d\"", int(i / 2))
    printf "%s\n  \"i%d\": {\"id\": %d, \"deps\": [%s]}", (i ? "," : ""), i, i, d
  }
  print "\n}}"
}' >"$dir/input.json"
{
  printf 'package bench\n\n'
  case $mode in
  index)
    printf 'dependents[d] contains k2 if {\n\tsome k2, v2 in input.items\n\tsome d in v2.deps\n}\n\n'
    printf 'users[k] := ks if {\n\tsome k, _ in input.items\n\tks := sort([k2 | some k2 in object.get(dependents, k, set())])\n}\n'
    ;;
  eq)
    printf 'users[k] := ks if {\n\tsome k, _ in input.items\n\tks := [k2 | some k2, v2 in input.items; some d in v2.deps; d == k]\n}\n'
    ;;
  *)
    printf 'users[k] := ks if {\n\tsome k, _ in input.items\n\tks := [k2 | some k2, v2 in input.items; k in v2.deps]\n}\n'
    ;;
  esac
} >"$dir/policy.rego"
