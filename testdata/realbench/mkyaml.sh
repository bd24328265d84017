#!/bin/sh
# mkyaml.sh N: writes a YAML document of N records (a sequence of
# mappings with a name, numbers, a nested mapping and a list of tags) to
# standard output. Used by run.sh for gojq --yaml-input, and by
# doc/cases/yq-reads.md for yq.
set -e
n=$1
i=1
while [ "$i" -le "$n" ]; do
  printf -- '- name: item%d\n  id: %d\n  price: %d.%02d\n  active: %s\n  owner:\n    login: user%d\n    team: t%d\n  tags: [t%d, u%d, v%d]\n' \
    "$i" "$i" $((i % 997)) $((i % 100)) "$([ $((i % 3)) -eq 0 ] && echo true || echo false)" $((i % 50)) $((i % 7)) $((i % 5)) $((i % 11)) $((i % 13))
  i=$((i + 1))
done
