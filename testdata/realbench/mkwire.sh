#!/bin/sh
# mkwire.sh DIR N [chain|down|wide|flat]: a Go module for the wire
# command (github.com/google/wire v0.7.0) with N providers and one
# injector, Inject, in wire.go (build tag wireinject).
#   chain: T0000 from nothing, Ti from T(i-1); Inject returns T(N-1).
#   down:  the same chain the other way, T(N-1) from nothing, Ti from
#          T(i+1); Inject returns T0000 (wire's cycle check sorts the
#          types by name, so it starts at the top of this chain).
#   wide:  N types W0000.. each from nothing, and NewApp needs all N;
#          Inject returns *App (N+1 providers).
#   flat:  a chain of 50 providers always, and N unrelated functions
#          and types in other.go of the same package (the control).
# Types are zero-padded to four digits (N < 10000). Runs `go mod tidy`
# (offline if wire v0.7.0 is in the module cache).
set -e
dir=$1 n=$2 mode=${3:-chain}
rm -rf "$dir" && mkdir -p "$dir"
printf 'module example.com/wirebench\n\ngo 1.19\n\nrequire github.com/google/wire v0.7.0\n' >"$dir/go.mod"
name() { printf '%s%04d' "$1" "$2"; }
np=$n
[ "$mode" = flat ] && np=50
{
	printf 'package wirebench\n'
	i=0
	while [ $i -lt "$np" ]; do
		t=$(name T $i)
		case $mode in
		wide)
			t=$(name W $i)
			printf '\ntype %s struct{ v int }\n\nfunc New%s() *%s { return &%s{v: %d} }\n' "$t" "$t" "$t" "$t" "$i"
			;;
		down)
			if [ $i -eq $((np - 1)) ]; then
				printf '\ntype %s struct{ v int }\n\nfunc New%s() *%s { return &%s{v: %d} }\n' "$t" "$t" "$t" "$t" "$i"
			else
				p=$(name T $((i + 1)))
				printf '\ntype %s struct{ next *%s }\n\nfunc New%s(p *%s) *%s { return &%s{next: p} }\n' "$t" "$p" "$t" "$p" "$t" "$t"
			fi
			;;
		*)
			if [ $i -eq 0 ]; then
				printf '\ntype %s struct{ v int }\n\nfunc New%s() *%s { return &%s{v: %d} }\n' "$t" "$t" "$t" "$t" "$i"
			else
				p=$(name T $((i - 1)))
				printf '\ntype %s struct{ prev *%s }\n\nfunc New%s(p *%s) *%s { return &%s{prev: p} }\n' "$t" "$p" "$t" "$p" "$t" "$t"
			fi
			;;
		esac
		i=$((i + 1))
	done
	if [ "$mode" = wide ]; then
		printf '\ntype App struct{ n int }\n\nfunc NewApp('
		i=0
		while [ $i -lt "$np" ]; do
			[ $i -gt 0 ] && printf ', '
			printf 'w%d *%s' $i "$(name W $i)"
			i=$((i + 1))
		done
		printf ') *App { return &App{n: %d} }\n' "$np"
	fi
} >"$dir/providers.go"
{
	printf '//go:build wireinject\n\npackage wirebench\n\nimport "github.com/google/wire"\n\n'
	case $mode in
	wide) printf 'func Inject() *App {\n\twire.Build(NewApp' ;;
	down) printf 'func Inject() *%s {\n\twire.Build(' "$(name T 0)" ;;
	*) printf 'func Inject() *%s {\n\twire.Build(' "$(name T $((np - 1)))" ;;
	esac
	i=0
	while [ $i -lt "$np" ]; do
		[ $i -gt 0 ] || [ "$mode" = wide ] && printf ',\n\t\t'
		if [ "$mode" = wide ]; then printf 'New%s' "$(name W $i)"; else printf 'New%s' "$(name T $i)"; fi
		i=$((i + 1))
	done
	printf ')\n\treturn nil\n}\n'
} >"$dir/wire.go"
if [ "$mode" = flat ]; then
	{
		printf 'package wirebench\n'
		i=0
		while [ $i -lt "$n" ]; do
			u=$(name U $i)
			printf '\ntype %s struct{ a, b int }\n\nfunc (u *%s) Sum() int { return u.a*3 + u.b }\n\nfunc Make%s(x int) *%s {\n\tif x > 1 {\n\t\treturn &%s{a: x, b: x / 2}\n\t}\n\treturn &%s{a: 1}\n}\n' "$u" "$u" "$u" "$u" "$u" "$u"
			i=$((i + 1))
		done
	} >"$dir/other.go"
fi
(cd "$dir" && GOFLAGS=-mod=mod go mod tidy)
