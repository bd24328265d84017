#!/usr/bin/env bash
# stackcheck.sh: checks that the frame caches and anchors of -reads
# (logrt/frame.go, logrt/anchor.go) give every event of a real program the
# stack a walk gives it: gojq (github.com/itchyny/gojq, GOJQ_VERSION)
# reading a generated YAML document of RECORDS records (mkyaml.sh) with
# one P, so that its events come in one order, instrumented -reads once
# and run three times: as is, with SUNCAT_ANCHOR=0 (no anchors), and with
# SUNCAT_FRAME=0 (no frame caches: every first read walks, and later
# ones find their known context). Each trace's events are printed with
# their stacks resolved to frames and without times (suncat events
# -stacks); the three must be the same, line for line. Not part of CI or
# go test: it fetches gojq from the module proxy.
#
# usage: testdata/realbench/stackcheck.sh [SUNCAT_BINARY]
#
# Environment: WORK (/tmp/realbench-gojq), RECORDS (2000), GOJQ_VERSION
# (v0.12.17), DEPS (none; DEPS=gopkg.in/yaml.v3 adds -deps, and its hot
# loop: 11 M events, and events files of 0.6 GB).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/gojq.sh"
suncat=${1:-}
if [ -z "$suncat" ]; then
  (cd "$repo" && go build -o "$WORK/suncat" ./cmd/suncat)
  suncat=$WORK/suncat
fi
bash "$here/mkyaml.sh" "$RECORDS" >"$WORK/stack.yaml"
args=(--yaml-input '[.[] | select(.tags | length > 1) | .name] | length' "$WORK/stack.yaml")
(cd "$src" && "$suncat" instrument -reads ${DEPS:+-deps "$DEPS"} -o "$WORK/gojq-stack" ./cmd/gojq 2>&1 | sed -n '/^instrumented/p')

# events NAME ENV...: runs gojq with ENV and prints its events, each
# with its goroutine, getter, stack (as frames) and value, to $WORK/events.NAME.
events() {
  name=$1
  shift
  rm -rf "$WORK/traces.stack.$name" && mkdir -p "$WORK/traces.stack.$name"
  env "$@" GOMAXPROCS=1 SUNCAT_CONTROL=off SUNCAT_TRACE="$WORK/traces.stack.$name/" "$WORK/gojq-stack" "${args[@]}" >/dev/null
  # A stack is numbered by its first event, and its frames printed there
  # once: the traces' own ids follow the order stacks were defined in.
  "$suncat" events -stacks "$WORK/traces.stack.$name" | awk '
    /^stack [0-9]+/ { cur = $2; st[cur] = ""; next }
    /^\t/ && cur != "" { st[cur] = st[cur] "|" $1 " " $2; next }
    /^# seq/ { cur = ""; next }
    /^[0-9]+ [0-9.]+s / {
      k = st[$5]
      if (!(k in id)) { id[k] = ++n; print "stack", n, k }
      $2 = ""; $5 = id[k]; print
    }' >"$WORK/events.$name"
  echo "$name: $(grep -vc '^stack ' "$WORK/events.$name") events"
}
events default SUNCAT_ANCHOR=1
events noanchor SUNCAT_ANCHOR=0
events noframe SUNCAT_FRAME=0
if ! grep -q '^stack 1 |.*|' "$WORK/events.default"; then
  echo "== some events have no frames: the check would see nothing" >&2
  exit 1
fi
status=0
for name in noanchor noframe; do
  if cmp -s "$WORK/events.default" "$WORK/events.$name"; then
    echo "== default and $name: the same events, stacks and values"
  else
    echo "== default and $name differ:"
    diff "$WORK/events.default" "$WORK/events.$name" | head -10
    status=1
  fi
done
exit $status
