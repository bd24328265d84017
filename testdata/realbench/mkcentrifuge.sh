#!/bin/sh
# mkcentrifuge.sh BIN WORK [OUT]: runs WORK of BIN (drv, built from
# centrifugedrive.go, doc/cases/centrifuge-reads.md) at the sizes in SIZES
# (default "250 500 1000 2000"). A BIN whose name has "cover" runs twice
# per size, with and without -skip (the action left out), and leaves the
# action's own counts (the difference) in cov/WORK-N.txt; any other runs
# once for all sizes and writes its trace to tr/OUT/t.suncat, each size's
# action marked "WORK n=N" with suncat mark (SUNCAT: the suncat binary,
# default suncat on PATH).
bin=$1; work=$2; out=${3:-$2}
sizes=${SIZES:-250 500 1000 2000}
case $bin in
*cover*)
  for n in $sizes; do
    rm -rf cov/$work$n; mkdir -p cov/$work$n/all cov/$work$n/skip
    GOCOVERDIR=cov/$work$n/all GOMAXPROCS=2 $bin -work $work -sizes $n >/dev/null || echo FAIL
    GOCOVERDIR=cov/$work$n/skip GOMAXPROCS=2 $bin -work $work -sizes $n -skip >/dev/null || echo FAIL
    go tool covdata textfmt -i=cov/$work$n/all -o cov/$work$n/all.txt
    go tool covdata textfmt -i=cov/$work$n/skip -o cov/$work$n/skip.txt
    awk 'FNR == 1 { f++ } /^mode:/ { if (f == 1) print; next }
      f == 1 { skip[$1] += $3; next }
      { all[$1] += $3; st[$1] = $2 }
      END { for (b in all) print b, st[b], all[b] - skip[b] }' \
      cov/$work$n/skip.txt cov/$work$n/all.txt >cov/$work-$n.txt
  done;;
*)
  rm -rf tr/$out; mkdir -p tr/$out
  SUNCAT_TRACE=$PWD/tr/$out/t.suncat GOMAXPROCS=2 $bin -work $work \
    -sizes "$(echo $sizes | tr ' ' ,)" -suncat "$(command -v ${SUNCAT:-suncat})" || echo FAIL;;
esac
