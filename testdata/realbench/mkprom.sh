#!/bin/sh
# mkprom.sh MODE N DIR: a `promtool test rules` input in DIR (doc/cases/prom-reads.md).
#   rate N:  DIR/test.yml, N input series x{job="j0".."j9",instance="iI"} 0+60x10
#            (N a multiple of 10) and one promql_expr_test of
#            sum by (job) (rate(x[5m])) at 5m, expecting N/10 for each job.
#   chain N: DIR/rules.yml, one group of N recording rules r0..r(N-1), r0 = x and
#            rI = r(I-1), each depending on the one before, and DIR/test.yml with
#            one series x{job="a"} 1 and a promql_expr_test of r(N-1) at 0.
#   indep N: the same with rI = x for every I: N rules that depend on none.
mode=$1 n=$2 dir=$3
mkdir -p "$dir"
case $mode in
rate)
	awk -v n="$n" 'BEGIN {
		print "tests:"
		print "  - interval: 1m"
		print "    input_series:"
		for (i = 0; i < n; i++)
			printf "      - series: '\''x{job=\"j%d\",instance=\"i%d\"}'\''\n        values: 0+60x10\n", i % 10, i
		print "    promql_expr_test:"
		print "      - expr: sum by (job) (rate(x[5m]))"
		print "        eval_time: 5m"
		print "        exp_samples:"
		for (j = 0; j < 10; j++)
			printf "          - labels: '\''{job=\"j%d\"}'\''\n            value: %d\n", j, n / 10
	}' >"$dir/test.yml" ;;
chain|indep)
	awk -v n="$n" -v m="$mode" 'BEGIN {
		print "groups:"
		print "  - name: chain"
		print "    rules:"
		print "      - record: r0"
		print "        expr: x"
		for (i = 1; i < n; i++)
			if (m == "chain")
				printf "      - record: r%d\n        expr: r%d\n", i, i - 1
			else
				printf "      - record: r%d\n        expr: x\n", i
	}' >"$dir/rules.yml"
	awk -v n="$n" 'BEGIN {
		print "rule_files:"
		print "  - rules.yml"
		print "tests:"
		print "  - interval: 1m"
		print "    input_series:"
		print "      - series: '\''x{job=\"a\"}'\''"
		print "        values: 1"
		print "    promql_expr_test:"
		printf "      - expr: r%d\n", n - 1
		print "        eval_time: 0"
		print "        exp_samples:"
		printf "          - labels: '\''r%d{job=\"a\"}'\''\n            value: 1\n", n - 1
	}' >"$dir/test.yml" ;;
*)
	echo "usage: mkprom.sh rate|chain|indep N DIR" >&2
	exit 2 ;;
esac
