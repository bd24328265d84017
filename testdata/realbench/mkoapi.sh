#!/bin/sh
# mkoapi.sh FILE N [K [noenum]]: an OpenAPI 3.0 spec in YAML for oapi-codegen
# (doc/cases/oapi-reads.md). N schemas Item0..Item(N-1), each an object
# of five properties: id, size, tags, a string enum status of two values
# of its own (open<i>, closed<i>: N enums, no two sharing a value) and
# next, a $ref to Item i+1 (the last to Item0); and N paths
# /items<i>/{id}, each a GET getItem<i> with a path parameter, a query
# parameter and a 200 response of Item<i>. With K > 0, K more schemas
# Unused0..Unused(K-1) that nothing references (oapi-codegen prunes
# them before it generates: the control of a growing unused part). With
# noenum, the status property is left out (no enums at all).
set -eu
f=$1 n=$2 k=${3:-0} mode=${4:-enum}
{
	printf 'openapi: 3.0.3\ninfo:\n  title: bench\n  version: "1.0"\npaths:\n'
	i=0
	while [ $i -lt "$n" ]; do
		printf '  /items%d/{id}:\n    get:\n      operationId: getItem%d\n' $i $i
		printf '      parameters:\n'
		printf '        - name: id\n          in: path\n          required: true\n          schema:\n            type: string\n'
		printf '        - name: limit\n          in: query\n          schema:\n            type: integer\n'
		printf '      responses:\n        "200":\n          description: ok\n'
		printf '          content:\n            application/json:\n              schema:\n'
		printf '                $ref: "#/components/schemas/Item%d"\n' $i
		i=$((i + 1))
	done
	printf 'components:\n  schemas:\n'
	i=0
	while [ $i -lt "$n" ]; do
		printf '    Item%d:\n      type: object\n      required: [id]\n      properties:\n' $i
		printf '        id:\n          type: string\n        size:\n          type: integer\n'
		printf '        tags:\n          type: array\n          items:\n            type: string\n'
		if [ "$mode" != noenum ]; then
			printf '        status:\n          type: string\n          enum: [open%d, closed%d]\n' $i $i
		fi
		printf '        next:\n          $ref: "#/components/schemas/Item%d"\n' $(((i + 1) % n))
		i=$((i + 1))
	done
	i=0
	while [ $i -lt "$k" ]; do
		printf '    Unused%d:\n      type: object\n      properties:\n        name:\n          type: string\n' $i
		i=$((i + 1))
	done
} >"$f"
