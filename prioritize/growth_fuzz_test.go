package prioritize

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzFitGrowth: any counts at any sizes give a class without panicking;
// a growing class explains at least 80% of the variation and rises with
// the counts; its alternative is another growing class; the shortcuts
// (fitShortcuts) change nothing.
func FuzzFitGrowth(f *testing.F) {
	f.Add([]byte{1, 0, 2, 0, 4, 0, 8, 0, 16, 0, 0, 0, 4, 0, 24, 0, 112, 0, 224, 1})
	f.Add([]byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 17, 0, 28, 0, 34, 0, 40, 0, 46, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		n := len(data) / 4
		if n > 12 {
			n = 12
		}
		xs, ys := make([]float64, n), make([]float64, n)
		for i := 0; i < n; i++ {
			xs[i] = float64(binary.LittleEndian.Uint16(data[2*i:]))
			ys[i] = float64(binary.LittleEndian.Uint16(data[2*n+2*i:]))
		}
		fit := FitGrowth(xs, ys)
		var full Fit
		withoutShortcuts(func() { full = FitGrowth(xs, ys) })
		if a, b := fitString(fit), fitString(full); a != b {
			t.Fatalf("%v at %v: with the shortcuts %s, without %s", ys, xs, a, b)
		}
		if fit.Class < ClassNone || fit.Class > ClassExponential {
			t.Fatalf("class %d", fit.Class)
		}
		if fit.Grows() {
			if fit.R2 < minR2 || math.IsNaN(fit.R2) {
				t.Fatalf("%v at %v: %v with R^2 %v", ys, xs, fit.Class, fit.R2)
			}
			if fit.Alt != nil && (!fit.Alt.Grows() || fit.Alt.Class == fit.Class) {
				t.Fatalf("%v at %v: alternative %v to %v", ys, xs, fit.Alt.Class, fit.Class)
			}
		}
		_ = predictionText(fit, finite(fit.At(1000)), 1000, distinct(xs))
		if c := FitCounts(xs, ys); c.Class != fit.Class && (c.Note != unevenNote && c.Note != lastJumpNote || fit.Class <= ClassLinear) {
			t.Fatalf("%v at %v: FitCounts %v (%q), FitGrowth %v", ys, xs, c.Class, c.Note, fit.Class)
		}
	})
}
