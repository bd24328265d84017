#!/bin/sh
# mkopenapi.sh KIND N: an OpenAPI 3.0 spec in YAML on standard output for
# kin-openapi's loader and validator (doc/cases/kinopenapi-reads.md).
#   paths   N paths /items<i>/{id}, a GET getItem<i> each (a path and a
#           query parameter), all answering one schema Item
#   chain   N schemas Item0..Item(N-1), Item<i> has a property next, a $ref
#           to Item<i+1> (the last none); one path answering Item0
#   enum    one schema Color, a string enum of N values v0..v(N-1), its
#           default the last; one path taking it as a query parameter
#   props   one schema Big with N string properties p0..p(N-1)
#   allof   N schemas Part<i>; Big is allOf of N $refs to them, Pick oneOf
#   tags    N paths as in paths, each operation tagged [alpha, beta]
set -eu
kind=$1 n=$2
hdr() {
	printf 'openapi: 3.0.3\ninfo:\n  title: bench\n  version: "1.0"\n'
}
onepath() { # onepath SCHEMA
	printf 'paths:\n  /one:\n    get:\n      operationId: one\n'
	printf '      responses:\n        "200":\n          description: ok\n'
	printf '          content:\n            application/json:\n              schema:\n'
	printf '                $ref: "#/components/schemas/%s"\n' "$1"
}
npaths() { # npaths TAGS
	printf 'paths:\n'
	i=0
	while [ $i -lt "$n" ]; do
		printf '  /items%d/{id}:\n    get:\n      operationId: getItem%d\n' $i $i
		[ "$1" = tags ] && printf '      tags: [alpha, beta]\n'
		printf '      parameters:\n'
		printf '        - name: id\n          in: path\n          required: true\n          schema:\n            type: string\n'
		printf '        - name: limit\n          in: query\n          schema:\n            type: integer\n'
		printf '      responses:\n        "200":\n          description: ok\n'
		printf '          content:\n            application/json:\n              schema:\n'
		printf '                $ref: "#/components/schemas/Item"\n'
		i=$((i + 1))
	done
	printf 'components:\n  schemas:\n    Item:\n      type: object\n      properties:\n'
	printf '        id:\n          type: string\n        size:\n          type: integer\n'
}
hdr
case $kind in
paths) npaths none ;;
tags)
	printf 'tags:\n  - name: alpha\n  - name: beta\n'
	npaths tags
	;;
chain)
	onepath Item0
	printf 'components:\n  schemas:\n'
	i=0
	while [ $i -lt "$n" ]; do
		printf '    Item%d:\n      type: object\n      properties:\n        id:\n          type: string\n' $i
		[ $((i + 1)) -lt "$n" ] && printf '        next:\n          $ref: "#/components/schemas/Item%d"\n' $((i + 1))
		i=$((i + 1))
	done
	;;
enum)
	printf 'paths:\n  /colors:\n    get:\n      operationId: colors\n      parameters:\n'
	printf '        - name: c\n          in: query\n          schema:\n            $ref: "#/components/schemas/Color"\n'
	printf '      responses:\n        "200":\n          description: ok\n'
	printf 'components:\n  schemas:\n    Color:\n      type: string\n      default: v%d\n      enum:\n' $((n - 1))
	i=0
	while [ $i -lt "$n" ]; do
		printf '        - v%d\n' $i
		i=$((i + 1))
	done
	;;
props)
	onepath Big
	printf 'components:\n  schemas:\n    Big:\n      type: object\n      properties:\n'
	i=0
	while [ $i -lt "$n" ]; do
		printf '        p%d:\n          type: string\n' $i
		i=$((i + 1))
	done
	;;
allof)
	onepath Big
	printf 'components:\n  schemas:\n'
	i=0
	while [ $i -lt "$n" ]; do
		printf '    Part%d:\n      type: object\n      properties:\n        f%d:\n          type: string\n' $i $i
		i=$((i + 1))
	done
	for k in Big:allOf Pick:oneOf; do
		printf '    %s:\n      %s:\n' "${k%%:*}" "${k#*:}"
		i=0
		while [ $i -lt "$n" ]; do
			printf '        - $ref: "#/components/schemas/Part%d"\n' $i
			i=$((i + 1))
		done
	done
	;;
*)
	echo "mkopenapi.sh: unknown kind $kind" >&2
	exit 2
	;;
esac
