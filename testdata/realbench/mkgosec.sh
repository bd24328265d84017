#!/bin/sh
# mkgosec.sh DIR N [one|many]: a Go module of N functions that gosec
# flags (string-built SQL G202, math/rand G404, a file path from a
# variable G304, a hardcoded password G101), each also with one
# `#nosec G404` line. "one" (the default) puts all N in one file,
# "many" one function a file. No dependencies: go.mod only.
set -e
dir=$1 n=$2 mode=${3:-one}
rm -rf "$dir" && mkdir -p "$dir"
printf 'module example.com/gosecbench\n\ngo 1.22\n' >"$dir/go.mod"
hdr='package bench

import (
	"database/sql"
	"math/rand"
	"os"
)
'
fn() {
	cat <<F

func F$1(db *sql.DB, name string) (int, error) {
	password := "hunter2-$1-secret"
	q := "SELECT id FROM t$1 WHERE name = '" + name + "' AND pw = '" + password + "'"
	rows, err := db.Query(q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	b, err := os.ReadFile(name + ".$1")
	if err != nil {
		return 0, err
	}
	k := rand.Intn(len(b) + 1) // #nosec G404 -- not for security
	return k + rand.Intn($1+1), nil
}
F
}
i=0
if [ "$mode" = one ]; then
	{ printf '%s' "$hdr"; while [ $i -lt "$n" ]; do fn $i; i=$((i + 1)); done; } >"$dir/bench.go"
else
	while [ $i -lt "$n" ]; do { printf '%s' "$hdr"; fn $i; } >"$dir/f$i.go"; i=$((i + 1)); done
fi
