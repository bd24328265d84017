#!/bin/sh
# mkmock.sh DIR N [same|distinct|one]: a Go module, example.com/gen, for
# mockery v3 (doc/cases/mockery-reads.md). Package ifaces declares N
# interfaces I0..I(N-1) of three methods each; interface i takes and
# returns an Item of its own package m<i> (same: every m<i> is named
# model, so the mock file imports N packages of one name; distinct: named
# m<i>), or, with one, every interface uses m0's Item (the imports stay
# three). .mockery.yml asks for testify mocks of all of them in one file,
# ifaces/mocks_test.go.
set -eu
dir=$1 n=$2 mode=${3:-same}
rm -rf "$dir"
mkdir -p "$dir/ifaces"
printf 'module example.com/gen\n\ngo 1.22\n' >"$dir/go.mod"
cat >"$dir/.mockery.yml" <<'YML'
all: true
dir: '{{.InterfaceDir}}'
filename: mocks_test.go
force-file-write: true
formatter: goimports
log-level: warn
structname: '{{.Mock}}{{.InterfaceName}}'
pkgname: '{{.SrcPackageName}}'
template: testify
packages:
  example.com/gen/ifaces: {}
YML
npkg=$n
[ "$mode" = one ] && npkg=1
i=0
while [ $i -lt $npkg ]; do
	name=model
	[ "$mode" = distinct ] && name=m$i
	mkdir -p "$dir/m$i"
	printf 'package %s\n\n// Item is what I%d stores.\ntype Item struct {\n\tID   string\n\tSize int\n}\n' $name $i >"$dir/m$i/item.go"
	i=$((i + 1))
done
{
	printf 'package ifaces\n\nimport (\n\t"context"\n\n'
	i=0
	while [ $i -lt $npkg ]; do
		printf '\tm%d "example.com/gen/m%d"\n' $i $i
		i=$((i + 1))
	done
	printf ')\n'
	i=0
	while [ $i -lt "$n" ]; do
		p=m$i
		[ "$mode" = one ] && p=m0
		printf '\n// I%d stores items.\ntype I%d interface {\n' $i $i
		printf '\tGet(ctx context.Context, id string) (*%s.Item, error)\n' $p
		printf '\tPut(ctx context.Context, it *%s.Item) error\n' $p
		printf '\tList(ctx context.Context, limit int) ([]%s.Item, error)\n}\n' $p
		i=$((i + 1))
	done
} >"$dir/ifaces/ifaces.go"
