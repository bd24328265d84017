#!/bin/sh
# mkgin.sh BIN [OUT]: runs BIN (built from gindrive.go, doc/cases/gin-reads.md)
# at the sizes in SIZES (default "250 500 1000 2000"). A BIN whose name has
# "cover" runs once per size and action, each run stopping after one more
# action (-upto), and leaves each action's own counts (the difference of
# two runs) in cov/ACTION-N.txt; any other runs once for all sizes and
# writes its trace to tr/OUT/t.suncat (OUT default "all"), each action
# marked "ACTION n=N" with suncat mark (SUNCAT: the suncat binary, default
# suncat on PATH).
bin=$1; out=${2:-all}
sizes=${SIZES:-250 500 1000 2000}
case $bin in
*cover*)
  mkdir -p cov
  for n in $sizes; do
    prev=
    for a in start setup reqs fixed bind; do
      rm -rf cov/run-$a-$n; mkdir -p cov/run-$a-$n
      GOCOVERDIR=cov/run-$a-$n GOMAXPROCS=2 $bin -sizes $n -upto $a >/dev/null || echo FAIL
      go tool covdata textfmt -i=cov/run-$a-$n -o cov/run-$a-$n.txt
      if [ -n "$prev" ]; then
        awk 'FNR == 1 { f++ } /^mode:/ { if (f == 1) print; next }
          f == 1 { before[$1] += $3; next }
          { after[$1] += $3; st[$1] = $2 }
          END { for (b in after) print b, st[b], after[b] - before[b] }' \
          cov/run-$prev-$n.txt cov/run-$a-$n.txt >cov/$a-$n.txt
      fi
      prev=$a
    done
  done;;
*)
  rm -rf tr/$out; mkdir -p tr/$out
  SUNCAT_TRACE=$PWD/tr/$out/t.suncat GOMAXPROCS=2 $bin \
    -sizes "$(echo $sizes | tr ' ' ,)" -suncat "$(command -v ${SUNCAT:-suncat})" || echo FAIL;;
esac
