#!/bin/sh
# mkalertmanager.sh BIN MODE [OUT]: one fresh alertmanager (BIN) per size N,
# driven through its HTTP API with curl, stopped with SIGTERM
# (doc/cases/alertmanager-reads.md). MODE:
#   alerts:   POST N alerts {alertname=A, id=iI} in one request, then
#             GET /api/v2/alerts 5 times;
#   silences: POST N silences (one request each, over one connection), the
#             I-th matching id=iI, then the N alerts, GET /api/v2/alerts 3
#             times and GET /api/v2/silences 3 times;
#   inhibit:  with one inhibit rule, source severity=critical, target
#             severity=~critical|warning, equal [cluster], POST N alerts
#             {alertname=A, id=iI, severity=critical, cluster=c1} (each one
#             a source and a target), then GET /api/v2/alerts 3 times;
#   flat:     POST FLAT (default 20) alerts, then GET /api/v2/alerts N times
#             (the control: the same request, repeated).
# A BIN whose name has "cover" writes its counts to cov/MODE$N.txt (go tool
# covdata textfmt); any other writes its trace to tr/OUT/n$N.suncat with
# SUNCAT_CONTROL=off. SIZES (default "250 500 1000 2000") chooses the sizes,
# PORT (19093) the port; TIMES=1 prints the seconds of the silences and
# inhibit modes' three GETs of alerts instead of what they returned.
# Storage in $PWD/data, the config in $PWD/am.yml.
bin=$1; mode=$2; out=${3:-$2}; port=${PORT:-19093}; url=http://127.0.0.1:$port
case $bin in *cover*) kind=cover;; *) kind=trace; rm -rf tr/$out; mkdir -p tr/$out;; esac
cat >am.yml <<'EOF'
route:
  receiver: blackhole
  group_wait: 1h
  group_interval: 1h
  repeat_interval: 4h
receivers:
  - name: blackhole
EOF
if [ $mode = inhibit ]; then cat >>am.yml <<'EOF'
inhibit_rules:
  - source_matchers: ['severity="critical"']
    target_matchers: ['severity=~"critical|warning"']
    equal: [cluster]
EOF
fi
# alerts COUNT [EXTRA]: a JSON array of COUNT alerts, ids i0..i(COUNT-1),
# EXTRA (more "name":"value" pairs) added to the labels of each
alerts() {
  awk -v n="$1" -v x="$2" 'BEGIN { printf "["; for (i = 0; i < n; i++) printf "%s{\"labels\":{\"alertname\":\"A\",\"id\":\"i%d\"%s}}", (i ? "," : ""), i, x; print "]" }'
}
# get3 PATTERN: GET /api/v2/alerts 3 times and count PATTERN in each answer
# (uniq -c: "3 N" when all three agree), or with TIMES set print the
# seconds of each GET instead
get3() {
  if [ -n "$TIMES" ]; then
    for i in 1 2 3; do curl -sf -o /dev/null -w '%{time_total} ' $url/api/v2/alerts; done; echo
  else
    for i in 1 2 3; do curl -sf $url/api/v2/alerts | grep -o "$1" | wc -l; done | sort | uniq -c
  fi
}
for n in ${SIZES:-250 500 1000 2000}; do
  rm -rf data; mkdir -p data
  set -- --config.file=am.yml --storage.path=data --web.listen-address=127.0.0.1:$port --cluster.listen-address=
  if [ $kind = cover ]; then
    rm -rf cov/$mode$n; mkdir -p cov/$mode$n
    GOCOVERDIR=cov/$mode$n GOMAXPROCS=2 $bin "$@" >cov/log$mode$n.txt 2>&1 & pid=$!
  else
    SUNCAT_CONTROL=off SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin "$@" >tr/$out/log$n.txt 2>&1 & pid=$!
  fi
  until curl -sf $url/-/ready >/dev/null; do sleep 0.2; done
  t0=$(date +%s.%N)
  case $mode in
  alerts)
    alerts $n | curl -sf -H 'Content-Type: application/json' --data-binary @- $url/api/v2/alerts || echo FAIL post
    for i in 1 2 3 4 5; do curl -sf $url/api/v2/alerts | grep -o '"fingerprint"' | wc -l; done | sort | uniq -c ;;
  silences)
    now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    awk -v n="$n" -v u="$url/api/v2/silences" -v now="$now" 'BEGIN {
      for (i = 0; i < n; i++) {
        if (i) print "next"
        printf "url = \"%s\"\nheader = \"Content-Type: application/json\"\noutput = \"/dev/null\"\nfail\nsilent\n", u
        printf "data = \"{\\\"matchers\\\":[{\\\"name\\\":\\\"id\\\",\\\"value\\\":\\\"i%d\\\",\\\"isRegex\\\":false,\\\"isEqual\\\":true}],\\\"startsAt\\\":\\\"%s\\\",\\\"endsAt\\\":\\\"2099-01-01T00:00:00Z\\\",\\\"createdBy\\\":\\\"h\\\",\\\"comment\\\":\\\"c\\\"}\"\n", i, now
      } }' >silences.curl
    curl -K silences.curl || echo FAIL silences
    alerts $n | curl -sf -H 'Content-Type: application/json' --data-binary @- $url/api/v2/alerts || echo FAIL post
    get3 '"state":"suppressed"'
    for i in 1 2 3; do curl -sf $url/api/v2/silences | grep -o '"state":"active"' | wc -l; done | sort | uniq -c ;;
  inhibit)
    alerts $n ',"severity":"critical","cluster":"c1"' | curl -sf -H 'Content-Type: application/json' --data-binary @- $url/api/v2/alerts || echo FAIL post
    get3 '"state":"active"' ;;
  flat)
    alerts ${FLAT:-20} | curl -sf -H 'Content-Type: application/json' --data-binary @- $url/api/v2/alerts || echo FAIL post
    awk -v n="$n" -v u="$url/api/v2/alerts" 'BEGIN { for (i = 0; i < n; i++) printf "url = \"%s\"\noutput = \"/dev/null\"\n", u }' >flat.curl
    curl -sf -K flat.curl || echo FAIL get ;;
  *)
    echo "usage: mkalertmanager.sh BIN alerts|silences|inhibit|flat [OUT]" >&2; kill $pid; exit 2 ;;
  esac
  t1=$(date +%s.%N)
  kill -TERM $pid; wait $pid
  echo "$mode n=$n $kind: $(echo "$t1 - $t0" | bc) s"
  if [ $kind = cover ]; then go tool covdata textfmt -i=cov/$mode$n -o cov/$mode$n.txt; fi
done
