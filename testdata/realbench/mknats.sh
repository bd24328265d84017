#!/bin/sh
# mknats.sh BIN MODE [OUT]: one fresh nats-server (BIN) per size, driven by
# ./natsdrive MODE N (natsdrive.go, doc/cases/nats-reads.md), stopped with
# SIGTERM. A BIN whose name has "cover" writes its counts to cov/MODE$N.txt
# (go tool covdata textfmt); any other writes its trace to tr/OUT/n$N.suncat,
# with SUNCAT_CONTROL=off except for MODE flat, which natsdrive marks with
# suncat mark. SIZES (default "500 1000 2000 4000") chooses the sizes.
bin=$1; mode=$2; out=${3:-$2}; port=${PORT:-14222}
case $bin in *cover*) kind=cover;; *) kind=trace; rm -rf tr/$out; mkdir -p tr/$out;; esac
for n in ${SIZES:-500 1000 2000 4000}; do
  if [ $kind = cover ]; then
    rm -rf cov/$mode$n; mkdir -p cov/$mode$n
    GOCOVERDIR=cov/$mode$n GOMAXPROCS=2 $bin -a 127.0.0.1 -p $port >/dev/null 2>&1 & pid=$!
  elif [ $mode = flat ]; then
    SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin -a 127.0.0.1 -p $port >tr/$out/log$n.txt 2>&1 & pid=$!
  else
    SUNCAT_CONTROL=off SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin -a 127.0.0.1 -p $port >tr/$out/log$n.txt 2>&1 & pid=$!
  fi
  until ss -ltn | grep -q "127.0.0.1:$port "; do sleep 0.1; done
  t0=$(date +%s.%N)
  if [ $kind = trace ]; then export PID=$pid; else unset PID; fi
  ./natsdrive nats://127.0.0.1:$port $mode $n || echo FAIL
  t1=$(date +%s.%N)
  kill -TERM $pid; wait $pid
  echo "$mode n=$n $kind: $(echo "$t1 - $t0" | bc) s"
  if [ $kind = cover ]; then go tool covdata textfmt -i=cov/$mode$n -o cov/$mode$n.txt; fi
done
