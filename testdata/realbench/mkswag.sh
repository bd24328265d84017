#!/bin/sh
# mkswag.sh DIR N one|split|fixed|plain: a Go module example.com/api in DIR,
# one package main annotated for swag (github.com/swaggo/swag;
# doc/cases/swag-reads.md):
#
#	swag init -g main.go -d DIR -o OUT
#
# main.go holds the general API info (@title ...). The handlers GetModel<i>
# are in handlers.go, each with @Param, @Success 200 {object} Model<i>,
# @Failure 400 {object} ErrorResponse and @Router /models<i>/{id} [get].
# Model<i> has an ID, a Name, a Parent *Model<(i-1)/2> (a binary tree,
# i > 0), and every fourth, i%4 == 1, a Prev []Model<i-1> (a chain link).
#
# one:   N handlers, N models, all models in one file models.go.
# split: the same N handlers and models, each model in a file model<i>.go.
# fixed: 20 handlers and models (as one) whatever N: the flat control.
# plain: the 20 of fixed, plus N unrelated files util<i>.go, each with a
#        plain struct, a const and a function (no annotations).
set -eu
dir=$1 n=$2 mode=$3
case $mode in
one | split) m=$n ;;
fixed | plain) m=20 ;;
*)
	echo "mkswag.sh: the third argument is one, split, fixed or plain, not $mode" >&2
	exit 2
	;;
esac
rm -rf "$dir"
mkdir -p "$dir"
printf 'module example.com/api\n\ngo 1.23\n' >"$dir/go.mod"
cat >"$dir/main.go" <<'EOF'
// Package main is a generated API.
//
//	@title			Bench API
//	@version		1.0
//	@description	A generated API for swag.
//	@host			localhost:8080
//	@BasePath		/api/v1
package main

import "net/http"

func main() {
	_ = http.ListenAndServe(":8080", nil)
}
EOF
model() { # model I: the declaration of Model<I>
	printf '\n// Model%d is model number %d.\ntype Model%d struct {\n' "$1" "$1" "$1"
	printf '\tID   int    `json:"id" example:"%d"`\n\tName string `json:"name"`\n' "$1"
	[ "$1" -gt 0 ] && printf '\tParent *Model%d `json:"parent,omitempty"`\n' $((($1 - 1) / 2))
	[ $(($1 % 4)) -eq 1 ] && printf '\tPrev []Model%d `json:"prev"`\n' $(($1 - 1))
	printf '}\n'
}
{
	printf 'package main\n\nimport "net/http"\n'
	i=0
	while [ $i -lt $m ]; do
		printf '\n// GetModel%d godoc\n//\n' $i
		printf '//\t@Summary\t\tGet model %d\n//\t@Description\tget model %d by ID\n' $i $i
		printf '//\t@Tags\t\t\tm%d\n//\t@Accept\t\t\tjson\n//\t@Produce\t\tjson\n' $((i % 10))
		printf '//\t@Param\t\t\tid\tpath\t\tint\ttrue\t"ID"\n'
		printf '//\t@Success\t\t200\t{object}\tModel%d\n' $i
		printf '//\t@Failure\t\t400\t{object}\tErrorResponse\n'
		printf '//\t@Router\t\t\t/models%d/{id} [get]\n' $i
		printf 'func GetModel%d(w http.ResponseWriter, r *http.Request) {}\n' $i
		i=$((i + 1))
	done
} >"$dir/handlers.go"
printf 'package main\n\n// ErrorResponse is an error.\ntype ErrorResponse struct {\n\tCode    int    `json:"code"`\n\tMessage string `json:"message"`\n}\n' >"$dir/errors.go"
if [ "$mode" = split ]; then
	i=0
	while [ $i -lt $m ]; do
		{
			printf 'package main\n'
			model $i
		} >"$dir/model$i.go"
		i=$((i + 1))
	done
else
	{
		printf 'package main\n'
		i=0
		while [ $i -lt $m ]; do
			model $i
			i=$((i + 1))
		done
	} >"$dir/models.go"
fi
if [ "$mode" = plain ]; then
	i=0
	while [ $i -lt "$n" ]; do
		printf 'package main\n\nimport "strings"\n\n// Limit%d is a constant.\nconst Limit%d = %d\n\n// Util%d is not in the API.\ntype Util%d struct {\n\tKey   string\n\tCount int\n}\n\n// Join%d joins.\nfunc Join%d(a []string) string { return strings.Join(a, ",") }\n' \
			$i $i $i $i $i $i $i >"$dir/util$i.go"
		i=$((i + 1))
	done
fi
