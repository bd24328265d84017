#!/bin/sh
# mkmockgen.sh DIR N one|many|imports: a Go module example.com/gen in DIR
# whose file DIR/ifaces/ifaces.go is input for mockgen's source mode
# (go.uber.org/mock/mockgen; doc/cases/mockgen-reads.md):
#
#	cd DIR && mockgen -source=ifaces/ifaces.go -destination=mocks/mocks.go -package=mocks
#
# one:     one interface Store of N methods M0..M(N-1), each
#          Mi(ctx context.Context, id ID, d time.Duration, r io.Reader) (Item, error)
#          over the named types ID and Item of the package.
# many:    an interface Base of two methods, then N interfaces I0..I(N-1) of
#          three methods each; every one embeds Base, an odd one also
#          embeds the one before it (Base's methods then come twice).
# imports: N packages p<i>/model, all named model, each with a type Item;
#          ifaces.go imports them all (m<i> "example.com/gen/p<i>/model")
#          and declares N interfaces, I<i> with one method
#          Get(ctx context.Context, key string) (*m<i>.Item, error).
set -eu
dir=$1 n=$2 mode=$3
case $mode in
one | many | imports) ;;
*)
	echo "mkmockgen.sh: the third argument is one, many or imports, not $mode" >&2
	exit 2
	;;
esac
rm -rf "$dir"
mkdir -p "$dir/ifaces"
printf 'module example.com/gen\n\ngo 1.23\n' >"$dir/go.mod"
f=$dir/ifaces/ifaces.go
case $mode in
one)
	{
		printf 'package ifaces\n\nimport (\n\t"context"\n\t"io"\n\t"time"\n)\n\n'
		printf '// ID names an item.\ntype ID string\n\n// Item is stored.\ntype Item struct {\n\tID   ID\n\tSize int\n}\n\n'
		printf '// Store has many methods.\ntype Store interface {\n'
		i=0
		while [ $i -lt "$n" ]; do
			printf '\tM%d(ctx context.Context, id ID, d time.Duration, r io.Reader) (Item, error)\n' $i
			i=$((i + 1))
		done
		printf '}\n'
	} >"$f"
	;;
many)
	{
		printf 'package ifaces\n\nimport (\n\t"context"\n\t"time"\n)\n\n'
		printf '// Item is stored.\ntype Item struct {\n\tID   string\n\tSize int\n}\n\n'
		printf '// Base is embedded in every I<i>.\ntype Base interface {\n\tClose() error\n\tName() string\n}\n'
		i=0
		while [ $i -lt "$n" ]; do
			printf '\n// I%d stores items.\ntype I%d interface {\n\tBase\n' $i $i
			[ $((i % 2)) -eq 1 ] && printf '\tI%d\n' $((i - 1))
			printf '\tGet%d(ctx context.Context, id string) (*Item, error)\n' $i
			printf '\tPut%d(ctx context.Context, it *Item, ttl time.Duration) error\n' $i
			printf '\tList%d(ctx context.Context, limit int) ([]Item, error)\n}\n' $i
			i=$((i + 1))
		done
	} >"$f"
	;;
imports)
	i=0
	while [ $i -lt "$n" ]; do
		mkdir -p "$dir/p$i/model"
		printf 'package model\n\n// Item is what I%d stores.\ntype Item struct{ ID string }\n' $i >"$dir/p$i/model/item.go"
		i=$((i + 1))
	done
	{
		printf 'package ifaces\n\nimport (\n\t"context"\n\n'
		i=0
		while [ $i -lt "$n" ]; do
			printf '\tm%d "example.com/gen/p%d/model"\n' $i $i
			i=$((i + 1))
		done
		printf ')\n'
		i=0
		while [ $i -lt "$n" ]; do
			printf '\n// I%d gets items.\ntype I%d interface {\n\tGet(ctx context.Context, key string) (*m%d.Item, error)\n}\n' $i $i $i
			i=$((i + 1))
		done
	} >"$f"
	;;
esac
