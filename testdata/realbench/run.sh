#!/usr/bin/env bash
# run.sh: the recording cost of suncat on a real public program, Hugo
# (github.com/gohugoio/hugo), rendering a generated site of PAGES pages
# with GOMAXPROCS=2. Not part of CI or go test: it fetches Hugo from the
# module proxy and takes minutes (a first build of Hugo, about 2 minutes
# on 2 cores; its instrumentation, about 1 minute).
#
# usage: testdata/realbench/run.sh [NAME=SUNCAT_BINARY ...]
#
# Each NAME=SUNCAT_BINARY instruments Hugo with that suncat binary (to
# compare two versions of suncat in one run); with no arguments, suncat is
# built from this checkout and called "inst". The plain binary and the
# instrumented ones are then run alternately, RUNS times each after one
# warm-up round, and the medians of wall, user and sys time are printed
# with their ratios to plain, the events of the last instrumented run,
# the bytes its trace holds in records (tracebytes.go), and the depth of
# the recorded stacks (stats.awk).
#
# Environment: WORK (default /tmp/realbench), RUNS (5), PAGES (400),
# HUGO_VERSION (v0.139.0), GOMAXPROCS (2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
WORK=${WORK:-/tmp/realbench}
RUNS=${RUNS:-5}
PAGES=${PAGES:-400}
HUGO_VERSION=${HUGO_VERSION:-v0.139.0}
export GOMAXPROCS=${GOMAXPROCS:-2}
mkdir -p "$WORK"

if [ $# -eq 0 ]; then
  (cd "$repo" && go build -o "$WORK/suncat" ./cmd/suncat)
  set -- "inst=$WORK/suncat"
fi

# Hugo's sources, copied out of the module cache (which is read-only).
src=$WORK/hugo-$HUGO_VERSION
if [ ! -d "$src" ]; then
  dir=$(go mod download -json "github.com/gohugoio/hugo@$HUGO_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  cp -r "$dir" "$src.tmp" && chmod -R u+w "$src.tmp" && mv "$src.tmp" "$src"
fi
echo "== building hugo $HUGO_VERSION plain and instrumented"
(cd "$src" && go build -o "$WORK/hugo-plain" .)
names=()
for arg in "$@"; do
  name=${arg%%=*} suncat=${arg#*=}
  (cd "$src" && "$suncat" instrument -o "$WORK/hugo-$name" . 2>&1 | tail -1)
  names+=("$name")
done

echo "== generating a site of $PAGES pages"
bash "$here/mksite.sh" "$WORK/site" "$PAGES"

# one NAME: runs hugo-NAME once, appends "wall user sys" to $WORK/times.NAME;
# an instrumented run writes its trace into $WORK/traces.NAME/ (emptied first).
one() {
  local name=$1 t
  local -a env=(GOMAXPROCS="$GOMAXPROCS")
  if [ "$name" != plain ]; then
    rm -rf "$WORK/traces.$name" && mkdir -p "$WORK/traces.$name"
    env+=(SUNCAT_CONTROL=off SUNCAT_TRACE="$WORK/traces.$name/")
  fi
  t=$( { TIMEFORMAT='%R %U %S'; time env "${env[@]}" "$WORK/hugo-$name" --quiet --renderToMemory -s "$WORK/site" >/dev/null; } 2>&1 )
  echo "$t" >>"$WORK/times.$name"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== timing: 1 warm-up round, then $RUNS rounds of plain, ${names[*]} (GOMAXPROCS=$GOMAXPROCS)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
for side in plain "${names[@]}"; do one "$side"; rm -f "$WORK/times.$side"; done
for r in $(seq "$RUNS"); do
  for side in plain "${names[@]}"; do one "$side"; done
done

echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
declare -A med
printf '%-8s %8s %8s %8s %8s   %s\n' side wall user sys cpu 'ratio to plain (wall, cpu)'
for side in plain "${names[@]}"; do
  w=$(awk '{ print $1 }' "$WORK/times.$side" | median)
  u=$(awk '{ print $2 }' "$WORK/times.$side" | median)
  s=$(awk '{ print $3 }' "$WORK/times.$side" | median)
  c=$(awk '{ print $2 + $3 }' "$WORK/times.$side" | median)
  med[$side.w]=$w med[$side.c]=$c
  printf '%-8s %8s %8s %8s %8s   %.2fx %.2fx\n' "$side" "$w" "$u" "$s" "$c" \
    "$(echo "$w ${med[plain.w]}" | awk '{ print $1 / $2 }')" \
    "$(echo "$c ${med[plain.c]}" | awk '{ print $1 / $2 }')"
done
for side in plain "${names[@]}"; do echo "$side runs (wall user sys): $(tr '\n' ',' <"$WORK/times.$side")"; done

for name in "${names[@]}"; do
  trace=$(ls "$WORK"/traces."$name"/*.suncat)
  bytes=$(cd "$here" && go run tracebytes.go "$trace")
  suncat=$(printf '%s\n' "$@" | sed -n "s/^$name=//p")
  "$suncat" events -stacks "$trace" >"$WORK/events.$name"
  events=$(sed -n 's/.*, \([0-9]*\) events,.*/\1/p' "$WORK/events.$name" | head -1)
  echo "== $name: $events events, $bytes trace bytes written ($(echo "$bytes $events" | awk '{ printf "%.1f", $1 / $2 }') per event; file $(stat -c %s "$trace") bytes)"
  awk -f "$here/stats.awk" "$WORK/events.$name"
done
