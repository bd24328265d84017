#!/bin/sh
# mkgogit.sh BIN MODE [OUT]: runs BIN (gogitdrive.go, doc/cases/gogit-reads.md)
# in MODE at each size, one fresh process a size, under nice -n 19 and
# /usr/bin/time (wall s, peak RSS KB to stderr). MODE add and addskip take
# the size N; log, log100, blame and status take the repository repos/nN
# (made first by: BIN mk repos/nN N, with a plain build). A BIN whose name
# has "cover" writes its counts to cov/MODE$N.txt (go tool covdata textfmt);
# any other writes its trace to tr/OUT/n$N.suncat with SUNCAT_CONTROL=off.
# SIZES (default "250 500 1000 2000") chooses the sizes.
bin=$1; mode=$2; out=${3:-$2}
case $bin in *cover*) kind=cover;; *) kind=trace; rm -rf tr/$out; mkdir -p tr/$out;; esac
for n in ${SIZES:-250 500 1000 2000}; do
  case $mode in add*) arg=$n;; *) arg=repos/n$n;; esac
  if [ $kind = cover ]; then
    rm -rf cov/$mode$n; mkdir -p cov/$mode$n
    GOCOVERDIR=cov/$mode$n GOMAXPROCS=2 /usr/bin/time -f "$mode n=$n $kind: %e s %M KB" nice -n 19 $bin $mode $arg || echo FAIL
    go tool covdata textfmt -i=cov/$mode$n -o cov/$mode$n.txt
  else
    SUNCAT_CONTROL=off SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 /usr/bin/time -f "$mode n=$n $kind: %e s %M KB" nice -n 19 $bin $mode $arg || echo FAIL
  fi
done
