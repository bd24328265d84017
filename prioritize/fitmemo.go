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

// fit returns FitCounts(xs, ys), from the memo when it was fitted
// before.
func (m fitMemo) fit(xs, ys []float64) Fit { return m.fitBy(FitCounts, 'c', xs, ys) }

// fitTime returns FitGrowth(xs, ys) for times, which are not counts:
// their noise has its own rules (fitTimes).
func (m fitMemo) fitTime(xs, ys []float64) Fit { return m.fitBy(FitGrowth, 't', xs, ys) }

// fitBy returns fit(xs, ys), from the memo when it was fitted before by
// the fitter that kind names.
func (m fitMemo) fitBy(fit func(xs, ys []float64) Fit, kind byte, xs, ys []float64) Fit {
	if m == nil || !fitShortcuts || len(xs) > maxMemoPoints || len(xs) != len(ys) {
		return fit(xs, ys)
	}
	b := make([]byte, 1, 1+16*len(xs))
	b[0] = kind
	for i := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(xs[i]))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(ys[i]))
	}
	f, ok := m[string(b)]
	if !ok {
		f = fit(xs, ys)
		m[string(b)] = f
	}
	if f.Alt != nil { // each fit its own, as FitGrowth's are
		a := *f.Alt
		f.Alt = &a
	}
	return f
}
