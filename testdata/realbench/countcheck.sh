#!/usr/bin/env bash
# countcheck.sh: checks that the per-site counts of a suncat -reads run are
# the program's own, against go build -cover -covermode=count of the same
# packages on the same input: gojq (the jq clone github.com/itchyny/gojq,
# GOJQ_VERSION) reading a generated YAML document of RECORDS records
# (mkyaml.sh). Not part of CI or go test: it fetches gojq from the module
# proxy.
#
# usage: testdata/realbench/countcheck.sh [NAME=SUNCAT_BINARY ...]
#
# Each NAME=SUNCAT_BINARY instruments gojq with -reads with that suncat
# (with none, suncat is built from this checkout and called "inst"); for
# each, sitecounts.go prints every site (field read at a line) with its
# events, the count of the cover block that holds its line and a verdict,
# into $WORK/sites.NAME, and the summary lines here; with two or more,
# the files are compared: the per-site counts of the suncat versions must
# be the same.
#
# Environment: WORK (/tmp/realbench-gojq), RECORDS (2000), GOJQ_VERSION
# (v0.12.17).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/gojq.sh"
if [ $# -eq 0 ]; then
  (cd "$repo" && go build -o "$WORK/suncat" ./cmd/suncat)
  set -- "inst=$WORK/suncat"
fi
bash "$here/mkyaml.sh" "$RECORDS" >"$WORK/count.yaml"
args=(--yaml-input '[.[] | select(.tags | length > 1) | .name] | length' "$WORK/count.yaml")

echo "== gojq $version, -cover -covermode=count"
(cd "$src" && go build -cover -covermode=count -coverpkg="$module/..." -o "$WORK/gojq-count" ./cmd/gojq)
rm -rf "$WORK/covcount" && mkdir -p "$WORK/covcount"
GOCOVERDIR="$WORK/covcount" "$WORK/gojq-count" "${args[@]}"
go tool covdata textfmt -i "$WORK/covcount" -o "$WORK/cover.txt"

names=()
for arg in "$@"; do
  name=${arg%%=*} suncat=${arg#*=}
  echo "== $name: suncat instrument -reads"
  (cd "$src" && "$suncat" instrument -reads -o "$WORK/gojq-count-$name" ./cmd/gojq 2>&1 | sed -n '/^instrumented/p')
  rm -rf "$WORK/traces.count.$name" && mkdir -p "$WORK/traces.count.$name"
  SUNCAT_CONTROL=off SUNCAT_TRACE="$WORK/traces.count.$name/" "$WORK/gojq-count-$name" "${args[@]}"
  (cd "$here" && go run sitecounts.go -module "$module" -src "$src" "$WORK"/traces.count.$name/*.suncat "$WORK/cover.txt") >"$WORK/sites.$name"
  tail -2 "$WORK/sites.$name"
  names+=("$name")
done
for name in "${names[@]:1}"; do
  if cmp -s <(head -n -2 "$WORK/sites.${names[0]}") <(head -n -2 "$WORK/sites.$name"); then
    echo "== ${names[0]} and $name: the same counts at every site"
  else
    echo "== ${names[0]} and $name: counts differ:"
    diff <(head -n -2 "$WORK/sites.${names[0]}") <(head -n -2 "$WORK/sites.$name") | head -20
  fi
done
