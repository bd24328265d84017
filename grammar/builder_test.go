package grammar

import (
	"math/rand"
	"testing"
)

// TestBuilderKeepsNoSubTrace: sub-traces handed to a Builder one at a
// time, each overwritten once the next is added (after the second), give
// Build's grammar of the whole trace; so do one sub-trace and none.
func TestBuilderKeepsNoSubTrace(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		var subs [][]int32
		for s := rng.Intn(5); s > 0; s-- {
			sub := make([]int32, rng.Intn(30))
			for i := range sub {
				sub[i] = int32(rng.Intn(3))
			}
			subs = append(subs, sub)
		}
		names := []string{"a", "b", "c"}
		want := Build(&Trace{Names: names, Subs: subs}, Options{}).String()
		b := NewBuilder(Options{})
		var prev []int32
		nonEmpty := 0
		for _, s := range subs {
			c := append([]int32(nil), s...)
			b.Add(c)
			if len(c) > 0 {
				nonEmpty++
				if nonEmpty >= 2 && prev != nil {
					for i := range prev {
						prev[i] = 2 // the builder must not read it again
					}
				}
				prev = c
			}
		}
		if got := b.Grammar(names).String(); got != want {
			t.Fatalf("subs %v:\nBuilder:\n%sBuild:\n%s", subs, got, want)
		}
	}
}
