#!/bin/sh
# mkjsonnet.sh DIR N: writes a jsonnet configuration of N services into
# DIR: services.json (each service has a name, a port, replicas and two
# dependencies on earlier services) and main.jsonnet, which renders one
# object per service and checks each dependency with std.member against
# the list of names (a scan of the list per dependency: quadratic in N).
# Used by doc/cases/jsonnet-reads.md.
set -e
dir=$1 n=$2
mkdir -p "$dir"
awk -v n="$n" 'BEGIN {
  printf "[\n"
  for (i = 0; i < n; i++) {
    a = (i > 0) ? i - 1 : 0; b = int(i / 2)
    printf "  {\"name\": \"svc-%d\", \"port\": %d, \"replicas\": %d, \"deps\": [\"svc-%d\", \"svc-%d\"]}%s\n", i, 8000 + i, 1 + i % 3, a, b, (i < n - 1) ? "," : ""
  }
  printf "]\n"
}' > "$dir/services.json"
cat > "$dir/main.jsonnet" <<'JS'
local svcs = import 'services.json';
local names = [s.name for s in svcs];
{
  [s.name]: {
    image: 'registry.example.com/%s:1.0' % s.name,
    port: s.port,
    replicas: s.replicas,
    env: { PORT: std.toString(s.port), NAME: s.name },
    deps: s.deps,
    missing: [d for d in s.deps if !std.member(names, d)],
  }
  for s in svcs
}
JS
