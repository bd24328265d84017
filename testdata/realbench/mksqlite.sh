#!/bin/sh
# mksqlite.sh BIN MODE [OUT]: runs BIN MODE N (sqlitedrive.go,
# doc/cases/sqlite-reads.md) at each size, one fresh process a size.
# A BIN whose name has "cover" writes its counts to cov/MODE$N.txt (go tool
# covdata textfmt); one whose name has "calls" writes its whole run to
# tr/OUT/n$N.suncat (SUNCAT_CONTROL=off, no mark); any other writes its
# trace to tr/OUT/n$N.suncat with the driver's mark before the query
# (SUNCAT_BIN, default suncat on PATH: the setup is in no sub-trace).
# SIZES (default "250 500 1000 2000") chooses the sizes.
bin=$1; mode=$2; out=${3:-$2}
case $bin in *cover*) kind=cover;; *calls*) kind=calls;; *) kind=trace;; esac
[ $kind = cover ] || { rm -rf tr/$out; mkdir -p tr/$out; }
for n in ${SIZES:-250 500 1000 2000}; do
  t0=$(date +%s.%N)
  case $kind in
  cover)
    rm -rf cov/$mode$n; mkdir -p cov/$mode$n
    SUNCAT_BIN= GOCOVERDIR=cov/$mode$n GOMAXPROCS=2 $bin $mode $n || echo FAIL
    go tool covdata textfmt -i=cov/$mode$n -o cov/$mode$n.txt;;
  calls)
    SUNCAT_BIN= SUNCAT_CONTROL=off SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin $mode $n || echo FAIL;;
  *)
    SUNCAT_BIN=${SUNCAT_BIN:-suncat} SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin $mode $n || echo FAIL;;
  esac
  t1=$(date +%s.%N)
  echo "$mode n=$n $kind: $(echo "$t1 - $t0" | bc) s"
done
