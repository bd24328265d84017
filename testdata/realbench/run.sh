#!/usr/bin/env bash
# run.sh: the recording cost of suncat on a real public program, with
# GOMAXPROCS=2. Not part of CI or go test: it fetches the program from the
# module proxy and takes minutes. PROGRAM chooses it:
#
#   hugo (default): the static site generator github.com/gohugoio/hugo
#     rendering a generated site of PAGES pages (mksite.sh; a first build
#     of Hugo, about 2 minutes on 2 cores; its instrumentation, 1 minute);
#   esbuild: the JavaScript bundler github.com/evanw/esbuild bundling a
#     generated project of FILES modules with --minify-identifiers
#     (mkjs.sh; builds in seconds);
#   gojq: the jq clone github.com/itchyny/gojq reading a generated YAML
#     document of RECORDS records (mkyaml.sh) with --yaml-input, through
#     gopkg.in/yaml.v3: with MODE=reads, its hot loop;
#   cue: the CUE command cuelang.org/go/cmd/cue exporting a generated
#     file of ITEMS items (mkcue.sh, a comprehension over all items for
#     each item: doc/cases/cue-reads.md) as JSON;
#   opa: the policy engine github.com/open-policy-agent/opa, opa eval of
#     a generated policy over ITEMS items (mkrego.sh, a comprehension over
#     all items for each item: doc/cases/opa-reads.md; suncat before
#     65f5143 cannot instrument it with -reads: see that page).
#
# usage: testdata/realbench/run.sh [NAME=SUNCAT_BINARY ...]
#        PROGRAM=esbuild testdata/realbench/run.sh [NAME=SUNCAT_BINARY ...]
#        MODE=reads testdata/realbench/run.sh [NAME=SUNCAT_BINARY ...]
#        MODE=reads PROGRAM=gojq testdata/realbench/run.sh [NAME=SUNCAT_BINARY ...]
#        MODE=reads PROGRAM=cue testdata/realbench/run.sh [NAME=SUNCAT_BINARY ...]
#        MODE=reads PROGRAM=opa testdata/realbench/run.sh [NAME=SUNCAT_BINARY ...]
#
# MODE chooses what is recorded: getters (the default: suncat instrument),
# or reads (suncat instrument -reads, and -deps DEPS if DEPS is set; for
# gojq DEPS defaults to gopkg.in/yaml.v3). With MODE=reads a side "cover"
# is added: the same packages built with go build -cover
# -covermode=atomic (-coverpkg: the module's packages and DEPS), run with
# GOCOVERDIR set, so that the cost of recording each read is printed
# beside that of counting each basic block; and the stack statistics
# (suncat events, which expands every event) are left out.
#
# Each NAME=SUNCAT_BINARY instruments the program with that suncat binary (to
# compare two versions of suncat in one run); with no arguments, suncat is
# built from this checkout and called "inst". The plain binary and the
# instrumented ones are then run alternately, RUNS times each after one
# warm-up round, and the medians of wall, user and sys time are printed
# with their ratios to plain, the events of the last instrumented run,
# the bytes its trace holds in records (tracecount.go -bytes), and the depth of
# the recorded stacks (stats.awk).
#
# Environment: PROGRAM (hugo), MODE (getters), DEPS, WORK (default
# /tmp/realbench, /tmp/realbench-esbuild for esbuild, /tmp/realbench-gojq
# for gojq), RUNS (5), PAGES (400), HUGO_VERSION (v0.139.0), FILES (300),
# ESBUILD_VERSION (v0.24.0), RECORDS (2000), GOJQ_VERSION (v0.12.17, the last on gopkg.in/yaml.v3),
# ITEMS (400), CUE_VERSION (v0.17.1; /tmp/realbench-cue for its WORK),
# OPA_VERSION (v1.22.3; /tmp/realbench-opa for its WORK; ITEMS as for cue),
# GOMAXPROCS (2), LOCK (none). Binaries are rebuilt each time (the go build cache makes
# that quick after the first); the plain and cover builds of one version
# are shared by runs of both modes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
PROGRAM=${PROGRAM:-hugo}
MODE=${MODE:-getters}
RUNS=${RUNS:-5}
export GOMAXPROCS=${GOMAXPROCS:-2}
# Per program: the module and version, the package to build, how to make
# the input (make_input), and the arguments of a run.
case $PROGRAM in
hugo)
  WORK=${WORK:-/tmp/realbench}
  PAGES=${PAGES:-400}
  module=github.com/gohugoio/hugo version=${HUGO_VERSION:-v0.139.0} pkg=.
  input="a site of $PAGES pages"
  make_input() { bash "$here/mksite.sh" "$WORK/site" "$PAGES"; }
  args=(--quiet --renderToMemory -s "$WORK/site")
  ;;
esbuild)
  WORK=${WORK:-/tmp/realbench-esbuild}
  FILES=${FILES:-300}
  module=github.com/evanw/esbuild version=${ESBUILD_VERSION:-v0.24.0} pkg=./cmd/esbuild
  input="a project of $FILES modules"
  make_input() { rm -rf "$WORK/js" && bash "$here/mkjs.sh" "$WORK/js" "$FILES"; }
  args=("$WORK/js/src/entry.js" --bundle --minify-identifiers --outfile=/dev/null --log-level=warning)
  ;;
gojq)
  WORK=${WORK:-/tmp/realbench-gojq}
  RECORDS=${RECORDS:-2000}
  module=github.com/itchyny/gojq version=${GOJQ_VERSION:-v0.12.17} pkg=./cmd/gojq
  input="a YAML document of $RECORDS records"
  make_input() { bash "$here/mkyaml.sh" "$RECORDS" >"$WORK/in.yaml"; }
  args=(--yaml-input '[.[] | select(.tags | length > 1) | .name] | length' "$WORK/in.yaml")
  [ "$MODE" = reads ] && DEPS=${DEPS-gopkg.in/yaml.v3}
  ;;
cue)
  WORK=${WORK:-/tmp/realbench-cue}
  ITEMS=${ITEMS:-400}
  module=cuelang.org/go version=${CUE_VERSION:-v0.17.1} pkg=./cmd/cue
  input="a CUE file of $ITEMS items"
  make_input() { sh "$here/mkcue.sh" "$ITEMS" >"$WORK/in.cue"; }
  args=(export "$WORK/in.cue" --out json)
  ;;
opa)
  WORK=${WORK:-/tmp/realbench-opa}
  ITEMS=${ITEMS:-400}
  module=github.com/open-policy-agent/opa version=${OPA_VERSION:-v1.22.3} pkg=.
  input="a Rego policy over $ITEMS items"
  make_input() { sh "$here/mkrego.sh" "$WORK/in" "$ITEMS"; }
  args=(eval -d "$WORK/in/policy.rego" -i "$WORK/in/input.json" data.bench.users)
  ;;
*)
  echo "run.sh: PROGRAM is hugo, esbuild, gojq, cue or opa, not $PROGRAM" >&2
  exit 2
  ;;
esac
case $MODE in
getters) inst_flags=() ;;
reads)
  inst_flags=(-reads)
  coverpkg=$module/...
  if [ -n "${DEPS:-}" ]; then
    inst_flags+=(-deps "$DEPS")
    coverpkg=$coverpkg,$DEPS
  fi
  ;;
*)
  echo "run.sh: MODE is getters or reads, not $MODE" >&2
  exit 2
  ;;
esac
mkdir -p "$WORK"

if [ $# -eq 0 ]; then
  (cd "$repo" && go build -o "$WORK/suncat" ./cmd/suncat)
  set -- "inst=$WORK/suncat"
fi

# The program's sources, copied out of the module cache (which is read-only).
src=$WORK/$PROGRAM-$version
if [ ! -d "$src" ]; then
  dir=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  cp -r "$dir" "$src.tmp" && chmod -R u+w "$src.tmp" && mv "$src.tmp" "$src"
fi
echo "== building $PROGRAM $version plain and instrumented ($MODE${DEPS:+, -deps $DEPS})"
# LOCK, if set, is a file that each build holds (flock), for machines
# where others build the same program at the same time.
build() { if [ -n "${LOCK:-}" ]; then (cd "$src" && flock "$LOCK" "$@"); else (cd "$src" && "$@"); fi; }
build go build -o "$WORK/$PROGRAM-plain" "$pkg"
names=()
for arg in "$@"; do
  name=${arg%%=*} suncat=${arg#*=}
  build "$suncat" instrument "${inst_flags[@]}" -o "$WORK/$PROGRAM-$name" "$pkg" 2>&1 | sed -n "s/^instrumented/$name: instrumented/p"
  names+=("$name")
done
sides=("${names[@]}")
if [ "$MODE" = reads ]; then
  build go build -cover -covermode=atomic -coverpkg="$coverpkg" -o "$WORK/$PROGRAM-cover" "$pkg"
  sides+=(cover)
fi

echo "== generating $input"
make_input

# one NAME: runs PROGRAM-NAME once, appends "wall user sys" to $WORK/times.NAME;
# an instrumented run writes its trace into $WORK/traces.NAME/ (emptied first).
one() {
  local name=$1 t
  local -a env=(GOMAXPROCS="$GOMAXPROCS")
  case $name in
  plain) ;;
  cover)
    rm -rf "$WORK/covdata" && mkdir -p "$WORK/covdata"
    env+=(GOCOVERDIR="$WORK/covdata")
    ;;
  *)
    rm -rf "$WORK/traces.$name" && mkdir -p "$WORK/traces.$name"
    env+=(SUNCAT_CONTROL=off SUNCAT_TRACE="$WORK/traces.$name/")
    ;;
  esac
  t=$( { TIMEFORMAT='%R %U %S'; time env "${env[@]}" "$WORK/$PROGRAM-$name" "${args[@]}" >/dev/null; } 2>&1 )
  echo "$t" >>"$WORK/times.$name"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "== timing: 1 warm-up round, then $RUNS rounds of plain, ${sides[*]} (GOMAXPROCS=$GOMAXPROCS)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
for side in plain "${sides[@]}"; do one "$side"; rm -f "$WORK/times.$side"; done
for r in $(seq "$RUNS"); do
  for side in plain "${sides[@]}"; do one "$side"; done
done

echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
declare -A med
printf '%-8s %8s %8s %8s %8s   %s\n' side wall user sys cpu 'ratio to plain (wall, cpu)'
for side in plain "${sides[@]}"; do
  w=$(awk '{ print $1 }' "$WORK/times.$side" | median)
  u=$(awk '{ print $2 }' "$WORK/times.$side" | median)
  s=$(awk '{ print $3 }' "$WORK/times.$side" | median)
  c=$(awk '{ print $2 + $3 }' "$WORK/times.$side" | median)
  med[$side.w]=$w med[$side.c]=$c
  printf '%-8s %8s %8s %8s %8s   %.2fx %.2fx\n' "$side" "$w" "$u" "$s" "$c" \
    "$(echo "$w ${med[plain.w]}" | awk '{ print $1 / $2 }')" \
    "$(echo "$c ${med[plain.c]}" | awk '{ print $1 / $2 }')"
done
for side in plain "${sides[@]}"; do echo "$side runs (wall user sys): $(tr '\n' ',' <"$WORK/times.$side")"; done

if [ "$MODE" = reads ]; then
  # Every event expanded is too many to list: count them, streaming.
  for name in "${names[@]}"; do
    trace=$(ls "$WORK"/traces."$name"/*.suncat)
    bytes=$(cd "$here" && go run tracecount.go -bytes "$trace")
    echo "== $name: $(cd "$here" && go run tracecount.go "$trace"), $bytes trace bytes written (file $(stat -c %s "$trace") bytes)"
  done
  exit 0
fi
for name in "${names[@]}"; do
  trace=$(ls "$WORK"/traces."$name"/*.suncat)
  bytes=$(cd "$here" && go run tracecount.go -bytes "$trace")
  suncat=$(printf '%s\n' "$@" | sed -n "s/^$name=//p")
  "$suncat" events -stacks "$trace" >"$WORK/events.$name"
  events=$(sed -n 's/.*, \([0-9]*\) events,.*/\1/p' "$WORK/events.$name" | head -1)
  echo "== $name: $events events, $bytes trace bytes written ($(echo "$bytes $events" | awk '{ printf "%.1f", $1 / $2 }') per event; file $(stat -c %s "$trace") bytes)"
  awk -f "$here/stats.awk" "$WORK/events.$name"
done
