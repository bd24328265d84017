#!/bin/sh
# mkhelm.sh MODE N DIR: a local chart for `helm template` in DIR (doc/cases/helm-reads.md).
#   sub N:   an umbrella chart DIR/Chart.yaml listing N dependencies s1..sN, each a
#            subchart in DIR/charts/sI (Chart.yaml, values.yaml `replicas: 1`, one
#            ConfigMap template); DIR/values.yaml has a table `sI: {replicas: 1}` for
#            each, and DIR/override.yaml `sI: {replicas: 2}` for each (pass it with -f).
#   tpl N:   one chart with N templates t1..tN, each a ConfigMap whose value is
#            `tpl .Values.msg .` (msg is "{{ .Release.Name }}-{{ .Chart.Name }}").
#   plain N: the same N templates with `.Values.msg` printed as is (no tpl).
mode=$1 n=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir/templates"
printf 'apiVersion: v2\nname: top\nversion: 0.1.0\n' >"$dir/Chart.yaml"
case $mode in
sub)
	rmdir "$dir/templates"
	i=1
	echo 'dependencies:' >>"$dir/Chart.yaml"
	: >"$dir/values.yaml"
	: >"$dir/override.yaml"
	while [ "$i" -le "$n" ]; do
		printf -- '- name: s%d\n  version: 0.1.0\n' "$i" >>"$dir/Chart.yaml"
		printf 's%d:\n  replicas: 1\n' "$i" >>"$dir/values.yaml"
		printf 's%d:\n  replicas: 2\n' "$i" >>"$dir/override.yaml"
		s=$dir/charts/s$i
		mkdir -p "$s/templates"
		printf 'apiVersion: v2\nname: s%d\nversion: 0.1.0\n' "$i" >"$s/Chart.yaml"
		echo 'replicas: 1' >"$s/values.yaml"
		printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Chart.Name }}\ndata:\n  replicas: "{{ .Values.replicas }}"\n' >"$s/templates/cm.yaml"
		i=$((i + 1))
	done ;;
tpl|plain)
	echo 'msg: "{{ .Release.Name }}-{{ .Chart.Name }}"' >"$dir/values.yaml"
	if [ "$mode" = tpl ]; then v='{{ tpl .Values.msg . }}'; else v='{{ .Values.msg }}'; fi
	i=1
	while [ "$i" -le "$n" ]; do
		printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: t%d\ndata:\n  v: "%s"\n' "$i" "$v" >"$dir/templates/t$i.yaml"
		i=$((i + 1))
	done ;;
*)
	echo "usage: mkhelm.sh sub|tpl|plain N DIR" >&2; exit 2 ;;
esac
