#!/bin/sh
# mkgodiff.sh DIR: writes DIR/zz_size_test.go, sized sub-benchmarks for
# github.com/sergi/go-diff/diffmatchpatch (doc/cases/godiff-reads.md).
# DIR is a copy of the module's diffmatchpatch directory.
set -e
cat >"${1:?usage: mkgodiff.sh DIR}/zz_size_test.go" <<'GO'
package diffmatchpatch

import (
	"fmt"
	"strings"
	"testing"
)

// sizedText returns n lines; those for which edit is true say "in" for "of".
func sizedText(n int, edit func(i int) bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		w := "of"
		if edit(i) {
			w = "in"
		}
		fmt.Fprintf(&b, "line %d %s the text\n", i, w)
	}
	return b.String()
}

var SinkDiffs []Diff

func BenchmarkDiffSize(b *testing.B) {
	none := func(int) bool { return false }
	fixedA := sizedText(40, none)
	fixedB := sizedText(40, func(i int) bool { return i%10 == 3 })
	for _, n := range []int{200, 400, 800, 1600} {
		few := func(i int) bool { return i == n/4 || i == n/2 || i == 3*n/4 }
		all := func(int) bool { return true }
		cases := []struct {
			name   string
			t1, t2 string
		}{
			// three lines edited: Myers is O((N+M)D), D fixed: linear
			{"few", sizedText(n, none), sizedText(n, few)},
			// every line edited: D grows with N: quadratic
			{"all", sizedText(n, none), sizedText(n, all)},
			// the same 40 lines at every n: the size is irrelevant
			{"fixed", fixedA, fixedB},
		}
		for _, c := range cases {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				dmp := New()
				dmp.DiffTimeout = 0 // no deadline: bisect runs to the end
				for i := 0; i < b.N; i++ {
					SinkDiffs = dmp.DiffMain(c.t1, c.t2, false)
				}
			})
		}
	}
}
GO
