#!/bin/sh
# mkvalidator.sh BIN CASE [OUT]: runs CASE of BIN (built from
# validatordrive.go, doc/cases/validator-reads.md) once per size in SIZES
# (default "250 500 1000 2000"). A BIN whose name has "cover" leaves each
# size's counts in cov/CASE-N.txt; any other writes tr/OUT/nN.suncat
# (OUT defaults to CASE).
bin=$1; c=$2; out=${3:-$2}
sizes=${SIZES:-250 500 1000 2000}
case $bin in
*cover*)
  mkdir -p cov
  for n in $sizes; do
    rm -rf cov/$c$n; mkdir -p cov/$c$n
    GOCOVERDIR=cov/$c$n GOMAXPROCS=2 $bin $c $n >/dev/null || echo FAIL
    go tool covdata textfmt -i=cov/$c$n -o cov/$c-$n.txt
  done;;
*)
  rm -rf tr/$out; mkdir -p tr/$out
  for n in $sizes; do
    SUNCAT_CONTROL=off SUNCAT_TRACE=$PWD/tr/$out/n$n.suncat GOMAXPROCS=2 $bin $c $n || echo FAIL
  done;;
esac
