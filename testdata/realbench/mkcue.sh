#!/bin/sh
# mkcue.sh N [flat|tree]: writes a CUE file of N items to standard output,
# for cue export. Each item is unified with the definition #Item (a name,
# an id, a default weight, a list of deps: the item before it and the one
# at half its index). The file ends with users: for every item, a list
# comprehension over all N items and their deps that keeps those that
# depend on it, N*N iterations (quadratic).
#
# With flat, users is replaced by depIDs: for every item, the ids of its
# own (at most two) deps, looked up by name. With tree, the same items and
# depIDs, but the items are nested ten a struct, items.gA.hB.iC (A = C/100,
# B = C/10 mod 10), and a dep is a path: no struct has more than ten
# fields up to N = 1000 (CUE adds and looks up a field by scanning its
# struct's fields, so in flat both grow with N). Used by
# doc/cases/cue-reads.md.
set -e
awk -v n="$1" -v mode="$2" '
function path(i) { return sprintf("[\"g%d\", \"h%d\", \"i%d\"]", int(i / 100), int(i / 10) % 10, i) }
function dep(i) { return mode == "tree" ? path(i) : sprintf("\"i%d\"", i) }
BEGIN {
  print "package bench\n"
  printf "#Item: {\n\tname:   string\n\tid:     int & >=0\n\tweight: *1 | int\n\tdeps: [...%s]\n}\n\n", mode == "tree" ? "[...string]" : "string"
  if (mode == "tree") print "items: [string]: [string]: [Name=string]: #Item & {name: Name}"
  else print "items: [Name=string]: #Item & {name: Name}"
  print "items: {"
  for (i = 0; i < n; i++) {
    d = ""
    if (i > 0) d = dep(i - 1)
    if (i > 1 && int(i / 2) != i - 1) d = d ", " dep(int(i / 2))
    if (mode == "tree") printf "\tg%d: h%d: i%d: {id: %d, deps: [%s]}\n", int(i / 100), int(i / 10) % 10, i, i, d
    else printf "\ti%d: {id: %d, deps: [%s]}\n", i, i, d
  }
  print "}\n"
  if (mode == "tree")
    print "depIDs: {for a, ga in items {(a): {for b, gb in ga {(b): {for k, v in gb {(k): [for d in v.deps {items[d[0]][d[1]][d[2]].id}]}}}}}}"
  else if (mode == "flat")
    print "depIDs: {for k, v in items {(k): [for d in v.deps {items[d].id}]}}"
  else
    print "users: {for k, _ in items {(k): [for k2, v2 in items for d in v2.deps if d == k {k2}]}}"
}'
