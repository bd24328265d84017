package prioritize

import (
	"encoding/binary"
	"math"
)

// A fitMemo remembers the fits of the counts already fitted at the same
// sizes: the families of a suite are often alike (each table test of
// 100 sizes with the same calls), and FitGrowth is a function of the
// points alone. A nil memo fits every time.
type fitMemo map[string]Fit

// maxMemoPoints bounds the points of a fit remembered (its key holds
// them all).
const maxMemoPoints = 4096

// fit returns FitGrowth(xs, ys), from the memo when it was fitted
// before.
func (m fitMemo) fit(xs, ys []float64) Fit {
	if m == nil || !fitShortcuts || len(xs) > maxMemoPoints || len(xs) != len(ys) {
		return FitGrowth(xs, ys)
	}
	b := make([]byte, 0, 16*len(xs))
	for i := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(xs[i]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(ys[i]))
	}
	f, ok := m[string(b)]
	if !ok {
		f = FitGrowth(xs, ys)
		m[string(b)] = f
	}
	if f.Alt != nil { // each fit its own, as FitGrowth's are
		a := *f.Alt
		f.Alt = &a
	}
	return f
}
