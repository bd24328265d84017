#!/bin/sh
# mkgqlparser.sh KIND N: writes a GraphQL document to standard output, for
# a driver that loads a schema and validates a query with gqlparser
# (doc/cases/gqlparser-reads.md).
#
#   schema N  the schema: type Query { user: User, t0: T00000 } (no t0
#             if N is 0), type User with five scalar fields, and N object
#             types T00000, T00001, ..., each with an id, a name and a
#             field next of the type after it.
#   dup N     the query { user { name name ... } }: the field name N
#             times under one response name (legal: the copies merge).
#   alias N   the query { user { a00000: name a00001: name ... } }: N
#             aliased copies of the field, N response names.
#   fixed N   the query { user { id name email } } whatever N (the
#             control, with schema N).
# Names are of one width (five digits, N up to 100000), so the bytes of
# the input grow as N, not N log N.
set -e
case "$1" in schema|dup|alias|fixed) ;; *) echo "usage: mkgqlparser.sh schema|dup|alias|fixed N" >&2; exit 2;; esac
awk -v kind="$1" -v n="$2" '
BEGIN {
  if (kind == "schema") {
    print "type Query {\n  user: User" (n > 0 ? "\n  t0: T00000" : "") "\n}\n"
    print "type User {\n  id: ID!\n  name: String\n  email: String\n  age: Int\n  admin: Boolean\n}\n"
    for (i = 0; i < n; i++) {
      nx = (i + 1 < n) ? sprintf("\n  next: T%05d", i + 1) : ""
      printf "type T%05d {\n  id: ID!\n  name: String%s\n}\n\n", i, nx
    }
    exit
  }
  if (kind == "fixed") { print "{\n  user {\n    id\n    name\n    email\n  }\n}"; exit }
  print "{\n  user {"
  for (i = 0; i < n; i++) {
    if (kind == "dup") print "    name"
    else printf "    a%05d: name\n", i
  }
  print "  }\n}"
}'
