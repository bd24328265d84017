package grammar

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestCompressRepeats: a sub-trace whose runs are kept short (a negative
// entry -k: k more of the terminal before, as a reader keeps a loop's
// turns) compresses to the chunk of its events spelled out, with both
// engines.
func TestCompressRepeats(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		var s, short []int32
		for k := r.Intn(60); k > 0; k-- {
			sym, n := int32(r.Intn(1+i%7)), 1+r.Intn(5)
			if r.Intn(4) == 0 {
				n = 1 + r.Intn(200) // a loop's turns
			}
			for j := 0; j < n; j++ {
				s = append(s, sym)
			}
			short = append(short, sym)
			for rest := n - 1; rest > 0; { // in one or two repeats
				m := rest
				if m > 1 && r.Intn(3) == 0 {
					m = rest / 2
				}
				short, rest = append(short, int32(-m)), rest-m
			}
		}
		for _, opt := range []Options{{}, {Reference: true}} {
			want, got := Compress(s, opt), Compress(short, opt)
			// As printed: an empty list may be nil or not (the engine's
			// arrays come from a pool).
			if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *want) {
				t.Fatalf("%v, reference %v: Compress(%v) = %+v, of %v: %+v", i, opt.Reference, short, got, s, want)
			}
		}
	}
}
