#!/bin/sh
# mkcue.sh N [flat]: writes a CUE file of N items to standard output, for
# cue export. Each item is unified with the definition #Item (a name, an
# id, a default weight, a list of deps: the item before it and the one at
# half its index). The file ends with users: for every item, a list
# comprehension over all N items and their deps that keeps those that
# depend on it, N*N iterations (quadratic). With "flat", users is replaced
# by depIDs: for every item, the ids of its own (at most two) deps, looked
# up by name, a constant amount of work an item (linear), the control.
# Used by doc/cases/cue-reads.md.
set -e
awk -v n="$1" -v mode="$2" '
BEGIN {
  print "package bench\n"
  print "#Item: {\n\tname:   string\n\tid:     int & >=0\n\tweight: *1 | int\n\tdeps: [...string]\n}\n"
  print "items: [Name=string]: #Item & {name: Name}"
  print "items: {"
  for (i = 0; i < n; i++) {
    d = ""
    if (i > 0) d = sprintf("\"i%d\"", i - 1)
    if (i > 1 && int(i / 2) != i - 1) d = d sprintf(", \"i%d\"", int(i / 2))
    printf "\ti%d: {id: %d, deps: [%s]}\n", i, i, d
  }
  print "}\n"
  if (mode == "flat")
    print "depIDs: {for k, v in items {(k): [for d in v.deps {items[d].id}]}}"
  else
    print "users: {for k, _ in items {(k): [for k2, v2 in items for d in v2.deps if d == k {k2}]}}"
}'
