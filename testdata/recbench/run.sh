#!/usr/bin/env bash
# run.sh: the recording cost of suncat on recbench (this directory), plain
# against instrumented, the binaries run alternately, round after round,
# so that the load of a shared machine falls on every side alike. Not part
# of CI or go test. Prints the median wall, user and sys time of each side
# and its ratios to plain (wall, and CPU = user + sys).
#
# usage: testdata/recbench/run.sh [NAME=PROGRAM ...]
#
# With no arguments, suncat is built from this checkout and recbench is
# instrumented with it ("inst"). Each NAME=PROGRAM adds a side: an
# instrumented recbench built beforehand (for example with another
# suncat: suncat-old instrument -o /tmp/rb-old ./testdata/recbench), or a
# wrapper script that runs one with some environment (a file holding
# "FLOORHACK=3 exec /tmp/rb-floorx" for floor.patch). The plain side is
# built here with go build.
#
# Environment: ROUNDS (21), PASSES (recbench's -passes, default its own),
# WORK (/tmp/recbench-run). Instrumented sides run with
# SUNCAT_TRACE=$WORK/traces/ (removed after each run) and
# SUNCAT_CONTROL=off.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
ROUNDS=${ROUNDS:-21}
WORK=${WORK:-/tmp/recbench-run}
mkdir -p "$WORK"
(cd "$here" && go build -o "$WORK/plain" .)
names=(plain) bins=("$WORK/plain")
if [ $# -eq 0 ]; then
  (cd "$repo" && go build -o "$WORK/suncat" ./cmd/suncat)
  (cd "$here" && "$WORK/suncat" instrument -o "$WORK/inst" . >/dev/null 2>&1)
  names+=(inst) bins+=("$WORK/inst")
fi
for arg in "$@"; do
  names+=("${arg%%=*}") bins+=("${arg#*=}")
done
args=()
[ -n "${PASSES:-}" ] && args=(-passes "$PASSES")
log=$WORK/times
: >"$log"
TIMEFORMAT='%R %U %S'
for ((r = 1; r <= ROUNDS; r++)); do
  for i in "${!names[@]}"; do
    rm -rf "$WORK/traces"
    t=$({ time SUNCAT_TRACE="$WORK/traces/" SUNCAT_CONTROL=off "${bins[$i]}" "${args[@]}" >/dev/null 2>&1; } 2>&1)
    echo "${names[$i]} $t" >>"$log"
  done
done
rm -rf "$WORK/traces"
echo "recbench, $ROUNDS rounds, medians (load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown))"
order=$(printf '%s ' "${names[@]}")
awk -v order="$order" '
function median(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
}
{ wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " ($3 + $4); usr[$1] = usr[$1] " " $3; sys[$1] = sys[$1] " " $4 }
END {
	n = split(order, names, " ")
	pw = median(wall["plain"]); pc = median(cpu["plain"])
	printf "%-12s %8s %8s %8s %8s %8s\n", "side", "wall", "user", "sys", "x wall", "x CPU"
	for (i = 1; i <= n; i++) {
		s = names[i]; w = median(wall[s]); c = median(cpu[s])
		printf "%-12s %7.3fs %7.3fs %7.3fs %7.2fx %7.2fx\n", s, w, median(usr[s]), median(sys[s]), w / pw, c / pc
	}
}' "$log"
