#!/bin/sh
# mkbuntdb.sh BIN MODE [OUT]: runs ./BIN MODE N (buntdbdrive.go,
# doc/cases/buntdb-reads.md) at each size, one fresh process a size.
# A BIN whose name has "cover" writes its counts to cov/MODE$N.txt (go tool
# covdata textfmt); any other writes its trace to tr/OUT/n$N.suncat, with
# SUNCAT_CONTROL=off except for MODE get, which the driver marks itself
# (SUNCAT_BIN, default suncat on PATH). SIZES (default "2000 4000 8000
# 16000") chooses the sizes.
bin=$1; mode=$2; out=${3:-$2}
case $bin in *cover*) kind=cover;; *) kind=trace; rm -rf tr/$out; mkdir -p tr/$out;; esac
for n in ${SIZES:-2000 4000 8000 16000}; do
  t0=$(date +%s.%N)
  if [ $kind = cover ]; then
    rm -rf cov/$mode$n; mkdir -p cov/$mode$n
    SUNCAT_BIN= GOCOVERDIR=cov/$mode$n GOMAXPROCS=2 $bin $mode $n || echo FAIL
    go tool covdata textfmt -i=cov/$mode$n -o cov/$mode$n.txt
  elif [ $mode = get ]; then
    SUNCAT_BIN=${SUNCAT_BIN:-suncat} SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin $mode $n || echo FAIL
  else
    SUNCAT_CONTROL=off SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin $mode $n || echo FAIL
  fi
  t1=$(date +%s.%N)
  echo "$mode n=$n $kind: $(echo "$t1 - $t0" | bc) s"
done
