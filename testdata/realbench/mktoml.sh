#!/bin/sh
# mktoml.sh N: writes a TOML configuration of N services to standard
# output, for tomlv (github.com/BurntSushi/toml's cmd/tomlv) to parse and
# type: per service a [services.svcI] table with strings, an integer, a
# bool, a float, a date-time, an array, a dotted key, an inline table and
# a multi-line string, then a [[deploy]] array-of-tables element naming
# it, and a comment. Used by doc/cases/tomlv-reads.md.
#
#	sh mktoml.sh 1000 >c1000.toml
set -e
awk -v n="$1" 'BEGIN {
  print "# generated: " n " services"
  print "title = \"fleet\""
  print "[owner]"
  print "name = \"ops\"  # who to page"
  for (i = 0; i < n; i++) {
    printf "\n# service %d\n[services.svc%d]\n", i, i
    printf "name = \"svc-%d\"\nhost = \"10.0.%d.%d\"\nport = %d\n", i, int(i / 250) % 256, i % 250, 8000 + i
    printf "enabled = %s\nweight = %d.%d\n", (i % 3 ? "true" : "false"), i % 10, i % 7
    printf "started = 2024-%02d-%02dT%02d:%02d:00Z\n", i % 12 + 1, i % 28 + 1, i % 24, i % 60
    printf "tags = [\"t%d\", \"zone-%d\", \"tier-%d\"]\n", i, i % 4, i % 3
    printf "limits.cpu = %d\nlimits.mem = \"%dMi\"\n", i % 8 + 1, 128 * (i % 16 + 1)
    printf "check = { path = \"/health/%d\", every = %d, timeout = %d.5 }\n", i, 10 + i % 50, i % 5
    printf "motd = \"\"\"\nservice %d\nline two with \\\"quotes\\\"\n\"\"\"\n", i
    printf "\n[[deploy]]\nservice = \"svc-%d\"\nreplicas = %d\n", i, i % 5 + 1
  }
}'
