package main

import (
	"fmt"
	"testing"
)

func TestRun(t *testing.T) {
	for _, n := range []int{5, 10, 20, 40} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			want := fmt.Sprintf("%d tasks, priority %d, %d items, %d fetched", n, n*(n-1)/2, n, n)
			if got := run(n); got != want {
				t.Errorf("run(%d) = %q, want %q", n, got, want)
			}
		})
	}
}
