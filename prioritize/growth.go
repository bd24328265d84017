package prioritize

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// A Class is a growth class: how a count grows with the input size.
type Class int

// The growth classes, simplest first. ClassNone means that the sizes
// cannot tell (fewer than three distinct sizes).
const (
	ClassNone Class = iota
	ClassConstant
	ClassLog
	ClassLinear
	ClassNLogN
	ClassQuadratic
	ClassCubic
	ClassExponential
)

var classNames = [...]string{"none", "constant", "log n", "n", "n log n", "n^2", "n^3", "2^n"}

func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return fmt.Sprintf("Class(%d)", int(c))
	}
	return classNames[c]
}

// MarshalText writes the class's name (JSON): "none", "constant",
// "log n", "n", "n log n", "n^2", "n^3", "2^n".
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class's name.
func (c *Class) UnmarshalText(b []byte) error {
	for i, n := range classNames {
		if n == string(b) {
			*c = Class(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not a growth class", b)
}

// The thresholds of the growth rule (doc/findings.md).
const (
	// minR2 is the share of the counts' variation the best fit must
	// explain for anything to grow.
	minR2 = 0.8
	// minRise: the fit must predict at the largest size at least this
	// many times the calls at the smallest (so jitter of up to ±33%
	// around a flat count can never grow) ...
	minRise = 2
	// minGain ... and at least this many calls more.
	minGain = 2
	// simplerSlack: a simpler class is chosen while its rms relative
	// error is within simplerSlack times the best class's, plus
	// simplerFloor.
	simplerSlack = 3
	simplerFloor = 0.04
	// simplerFloorR2: ... and it leaves unexplained no more than
	// simplerSlack times the best class's share plus simplerFloorR2.
	simplerFloorR2 = 0.02
	// outlierFactor: with five or more points, one interior point this
	// many times farther from the others' fit than their rms is set aside.
	outlierFactor = 4
	// minOutlier: ... and at least this far from it, relatively.
	minOutlier = 0.2
	// bentShare: a log n, n or n log n fit whose intercept lies below
	// −(bentShare × the count at the smallest size + minGain) is not
	// that class (bentIntercept).
	bentShare = 0.2
	// minDoublings: an exponential fit whose term doubles fewer times
	// over the sizes is no exponential the counts show (expShown).
	minDoublings = 2
)

// A Fit is a growth class fitted to counts (or times) per size:
// count ≈ A + B·f(size), f being the class's function (log2 n, n,
// n·log2 n, n², n³; for ClassExponential 2^(Rate·n)); a constant or
// ClassNone fit is A, the mean.
type Fit struct {
	Class    Class   `json:"class"`
	A        float64 `json:"a"`
	B        float64 `json:"b"`
	Rate     float64 `json:"rate,omitempty"` // ClassExponential: count = A + B·2^(Rate·size)
	Exponent float64 `json:"exponent"`       // power law: count − A ≈ c·size^Exponent (0 when constant)
	R2       float64 `json:"r2"`             // share of the variation the fit explains (1 when all counts are equal)
	// C is the coefficient of the class's lower-order term (lowerFunc),
	// fitted beside B with five or more distinct sizes: a count of
	// n(n-1)/2 is quadratic with a linear term, not n log n.
	C       float64 `json:"c,omitempty"`
	Outlier int     `json:"outlier"`        // index of the point set aside as an outlier, -1 for none
	Note    string  `json:"note,omitempty"` // why there is no class ("2 distinct sizes")
	// Step: the counts change after the first point only (a one-time
	// step, as a cache filled on the first repetition): constant.
	Step bool `json:"step,omitempty"`
	// Alt is the next best growing class when the counts cannot tell it
	// from Class (its error within the rule's tolerance, R^2 at least
	// 0.8): the predictions of the two are the range. Nil: no other
	// class fits as well.
	Alt *Fit `json:"alt,omitempty"`
}

// Grows reports whether the fit found growth.
func (f Fit) Grows() bool { return f.Class > ClassConstant }

// At is the fitted value at size n.
func (f Fit) At(n float64) float64 {
	switch f.Class {
	case ClassNone, ClassConstant:
		return f.A
	case ClassExponential:
		return f.A + f.B*math.Exp2(f.Rate*n)
	}
	return f.A + f.B*classFunc(f.Class)(n) + f.C*lowerFunc(f.Class)(n)
}

// Reaches returns the smallest size at or above from at which the fit
// reaches y, and false when it does not grow or does not reach y below
// 10^15.
func (f Fit) Reaches(y, from float64) (float64, bool) {
	if !f.Grows() {
		return 0, false
	}
	if f.At(from) >= y {
		return from, true
	}
	lo, hi := from, math.Max(from, 1)
	for f.At(hi) < y {
		if hi > 1e15 {
			return 0, false
		}
		lo, hi = hi, hi*2
	}
	for i := 0; i < 100 && hi-lo > 1e-9*hi; i++ {
		mid := (lo + hi) / 2
		if f.At(mid) >= y {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

func log2(n float64) float64 {
	if n <= 1 {
		return 0
	}
	return math.Log2(n)
}

// lowerFunc is the lower-order term fitted beside a polynomial class's
// function: n beside n^2, n^2 beside n^3 (pairs and triples of n
// things: n(n-1)/2). Other classes have none: log n beside n, or n
// beside n log n, would let the simpler class pass for the faster one.
func lowerFunc(c Class) func(float64) float64 {
	switch c {
	case ClassQuadratic:
		return classFunc(ClassLinear)
	case ClassCubic:
		return classFunc(ClassQuadratic)
	}
	return func(float64) float64 { return 0 }
}

func classFunc(c Class) func(float64) float64 {
	switch c {
	case ClassLog:
		return log2
	case ClassLinear:
		return func(n float64) float64 { return n }
	case ClassNLogN:
		return func(n float64) float64 { return n * log2(n) }
	case ClassQuadratic:
		return func(n float64) float64 { return n * n }
	case ClassCubic:
		return func(n float64) float64 { return n * n * n }
	}
	return func(float64) float64 { return 0 }
}

// FitGrowth classifies how ys grow with xs (one point per sub-trace, in
// the order they were recorded); doc/findings.md states the rule:
//
//   - With fewer than three distinct sizes there is no class (ClassNone,
//     with a Note).
//   - Each class is fitted as y = A + B·f(x) with B ≥ 0 (exponential:
//     A + B·2^(Rate·x)), minimizing the relative error (weighted least
//     squares, weight 1/y²), so small sizes count as much as large ones.
//     With five or more distinct sizes a lower-order term C·g(x) is
//     fitted beside (n beside n², log n beside n), so that an exact
//     n(n-1) or 2n-2 is told from the class below it.
//   - A step: the counts are the same from the second point on and the
//     first differs (a cache filled once): constant, Step set.
//   - The counts grow only when calls were made at two sizes or more (a
//     step from nothing to some calls at one size, as a background timer
//     that fires during one sub-trace gives, shows no trend), the best fit
//     explains at least 80% of their (relative) variation and it
//     predicts, at the largest size, at least twice as many calls as at
//     the smallest and at least 2 more, and the counts themselves do
//     (so jitter of ±33% around a level never grows); otherwise the
//     class is constant (A: the mean).
//   - A growing series gets the simplest class whose rms relative error
//     is within three times the best class's plus 4 percentage points,
//     whose unexplained share (1 - R^2) is within three times the best
//     class's plus 0.02,
//     and that itself explains 80% of the variation and rises enough.
//     The next best such class, if any, is kept as Alt (exponential
//     only where it fits best). A log n, n or n log n fit bent into a
//     negative intercept (bentIntercept) is not plausible, and the
//     exponential is fitted only where the counts show it (expShown)
//     or no other class explains them.
//   - With five or more points, the first point (warm-up) or the one
//     farthest from the best fit that is not at the smallest or largest
//     size is set aside when it lies more than four times as far from
//     the others' fit as they do (rms), and the others decide; the first
//     point is tried first.
func FitGrowth(xs, ys []float64) Fit {
	if d := distinct(xs); d < 3 {
		return Fit{Class: ClassNone, A: mean(ys), Outlier: -1, Note: fmt.Sprintf("%d distinct sizes; growth needs 3", d)}
	}
	if isStep(ys) {
		return Fit{Class: ClassConstant, A: ys[len(ys)-1], R2: 1, Outlier: 0, Step: true}
	}
	if lastJump(xs, ys) {
		return Fit{Class: ClassConstant, A: mean(ys), Outlier: -1, Note: lastJumpNote}
	}
	if sizesCalled(xs, ys) < 2 {
		return Fit{Class: ClassConstant, A: mean(ys), R2: 1, Outlier: -1}
	}
	fit, ref := fitAll(xs, ys)
	fit.Outlier = -1
	if len(xs) >= 5 {
		if i, f2 := setAside(xs, ys, ref); i >= 0 {
			fit = f2
			fit.Outlier = i
			fit.Step = i == 0 && fit.Class == ClassConstant
			xs, ys = without(xs, i), without(ys, i)
		}
	}
	fit.Exponent = exponent(xs, ys, fit)
	return fit
}

// setAside returns the point to set aside, the first (warm-up) or the
// interior one farthest from ref, and the fit of the others: of the two,
// the one that lies farther from the others' fit relative to their rms,
// if it is an outlier under every class the rule finds plausible for
// the others (so a point that one of them extrapolates to is kept); -1
// when neither is.
func setAside(xs, ys []float64, ref Fit) (int, Fit) {
	best, bestFit, bestScore := -1, Fit{}, 0.0
	for _, i := range []int{0, worstInterior(xs, ys, ref)} {
		if i < 0 || (i > 0 && i == best) {
			continue
		}
		x2, y2 := without(xs, i), without(ys, i)
		if distinct(x2) < 3 {
			continue
		}
		f2, _, cands := fitCandidates(x2, y2)
		score, all := math.Inf(1), true
		for _, c := range cands {
			sc, ok := outlierScore(c, x2, y2, xs[i], ys[i])
			all = all && ok
			score = math.Min(score, sc)
		}
		if all && score > bestScore {
			best, bestFit, bestScore = i, f2, score
		}
	}
	return best, bestFit
}

// unevenNote is the Note of a fit of counts that a class faster than
// linear fitted but that rise and fall unevenly (uneven).
const unevenNote = "its counts rise and fall unevenly: no class"

// FitCounts fits the counts of a call site (FitGrowth), and takes a
// class faster than linear for none where the counts are uneven: counts
// that grow less than the sizes end to end, a count that falls as the
// size grows, or a step whose local exponent
// (the log of its counts' ratio over that of its sizes') is more than
// one below those of the steps on either side. For a + b·n^k with a, b ≥ 0, the
// local exponents rise towards k from step to step; counts that rise
// by twice the size, then by nothing, then by five times it (a server's
// write loop counting its wake-ups: 962|2044|2127|11829) follow no
// class, whatever fits them best.
func FitCounts(xs, ys []float64) Fit {
	fit := FitGrowth(xs, ys)
	if fit.Class > ClassLinear && uneven(xs, ys) {
		return Fit{Class: ClassConstant, A: mean(ys), Outlier: -1, Note: unevenNote}
	}
	if fit.Class > ClassLinear && lateJump(xs, ys) {
		return Fit{Class: ClassConstant, A: mean(ys), Outlier: -1, Note: lastJumpNote}
	}
	return fit
}

// sizeMeans returns the distinct sizes of xs, in order, and the mean of
// the counts ys at each.
func sizeMeans(xs, ys []float64) (sx, sy []float64) {
	sx = slices.Compact(slices.Sorted(slices.Values(xs)))
	sy = make([]float64, len(sx))
	for i, x := range sx {
		sy[i] = meanAt(xs, ys, x)
	}
	return sx, sy
}

// lateJump reports whether counts at four sizes or more, which grew less
// than the sizes up to the second largest, rise at the largest more than
// twice as high as any a + b·n^k (k at most 3, a at least 0) through the
// two sizes before it reaches: a cubic through those two points bounds
// them all. No class explains such a jump; one point makes it (SQLite's
// automatic index, one site of its page splits: 9|9|11|72 reads over
// 2,000 to 16,000 rows, which fitted cubic and failed check -max
// quadratic; doc/cases/sqlite-reads.md). lastJump is the case of counts
// that do not grow at all before the jump.
func lateJump(xs, ys []float64) bool {
	sx, sy := sizeMeans(xs, ys)
	n := len(sx)
	if n < 4 || sx[0] <= 0 {
		return false
	}
	y0, y1, y2 := sy[n-3], sy[n-2], sy[n-1]
	if sy[0] <= 0 || y1 < y0 || y2 <= y1 || sy[n-2]/sy[0] >= sx[n-2]/sx[0] {
		return false
	}
	c0, c1, c2 := math.Pow(sx[n-3], 3), math.Pow(sx[n-2], 3), math.Pow(sx[n-1], 3)
	b := (y1 - y0) / (c1 - c0)
	a := y0 - b*c0
	return a >= 0 && y2 > 2*(a+b*c2)
}

// uneven reports whether the counts ys at sizes xs (in any order, a
// size repeated counted at its mean) grow less than the sizes from the
// smallest to the largest with local exponents that do not only rise (a
// few flushes of a buffer that a site lands on: 1|1|4|6 over sizes 8
// times apart; a + b·n² with a large a grows less than the sizes too,
// but its exponents rise), fall from one size to a larger one, or dip: a step whose local exponent is more than one below those of
// the steps on either side (rise, stall, rise again, as a count of a
// server's wake-ups does). A bump (rise, then less: pages that appear
// only as lists pass a page size) and exponents that only fall (a share
// of the calls that rises towards all of them: a sort's ties) are how a
// program's own counts go, not noise. Only sizes that grow by half or
// more from one to the next are read so (a session's doubling sizes):
// between sizes closer than that, a local exponent is mostly jitter.
func uneven(xs, ys []float64) bool {
	sx, sy := sizeMeans(xs, ys)
	for i := 0; i+1 < len(sx); i++ {
		if sx[i] <= 0 || sx[i+1] < 1.5*sx[i] {
			return false
		}
	}
	var es []float64 // the local exponents of a run of steps from counts above 0
	falls := false   // some exponent below the one before it
	for i := 0; i+1 < len(sx); i++ {
		if sy[i] <= 0 {
			es = es[:0]
			continue
		}
		if sy[i+1] < sy[i] {
			return true
		}
		es = append(es, math.Log(sy[i+1]/sy[i])/math.Log(sx[i+1]/sx[i]))
		k := len(es)
		if k >= 3 && es[k-2] < es[k-3]-1 && es[k-2] < es[k-1]-1 {
			return true
		}
		falls = falls || k >= 2 && es[k-1] < es[k-2]
	}
	n := len(sx)
	return falls && n >= 2 && sy[0] > 0 && sy[n-1]/sy[0] < sx[n-1]/sx[0]
}

// lastJumpNote is the Note of a fit of counts that jump at the largest
// size only (lastJump).
const lastJumpNote = "it rises at the largest size only: one point is no class"

// lastJump reports whether the counts are the same at every size but
// the largest, three sizes or more, not none, and rise there as growth
// must (risesEnough: a ticker's 1|1|1|2 does not): one point is no
// class. Calls at the largest size only (0|0|0|18) are calls at one
// size: constant, with no note. fzf's event box spun in a busy wait in
// one run of four, at the largest size, 5|5|5|2918615 calls, which
// fitted "exponential, 1.75e+192 at 2e+06" (doc/cases/fzf-reads.md);
// the time line has the same rule (lastOnly).
func lastJump(xs, ys []float64) bool {
	rx, ry, last := splitLargest(xs, ys)
	lo, top := minMax(ry)
	return lo == top && lo > 0 && distinct(rx) >= 3 && risesEnough(lo, last)
}

// isStep reports whether ys are the same from the second on and the
// first differs, with three or more points.
func isStep(ys []float64) bool {
	if len(ys) < 3 || ys[0] == ys[1] {
		return false
	}
	for _, y := range ys[2:] {
		if y != ys[1] {
			return false
		}
	}
	return true
}

// fitAll fits every class to the points and picks one by the rule; it
// also returns the best-fitting class's fit, whatever the rule chose.
func fitAll(xs, ys []float64) (chosen, best Fit) {
	chosen, best, _ = fitCandidates(xs, ys)
	return chosen, best
}

// fitCandidates is fitAll that also returns every fit the rule found
// plausible: the growing classes within its tolerance, or the flat fit
// when nothing grows.
func fitCandidates(xs, ys []float64) (chosen, best Fit, cands []Fit) {
	w := weights(ys)
	m := wmean(ys, w)
	ssTot := 0.0
	for i, y := range ys {
		ssTot += w[i] * (y - m) * (y - m)
	}
	flat := Fit{Class: ClassConstant, A: mean(ys), R2: 1}
	if ssTot <= 1e-12 {
		return flat, flat, []Fit{flat}
	}
	flat.R2 = 0
	fits, rms, bi := fitClasses(xs, ys, w, ssTot)
	if bi < 0 {
		return flat, flat, []Fit{flat}
	}
	b := fits[bi]
	lo, hi := minMax(xs)
	for i := range fits { // a faster class bent into a negative intercept
		if i != bi && fits[i].Grows() && bentIntercept(fits[i], meanAt(xs, ys, lo)) {
			fits[i] = Fit{Class: ClassConstant, A: mean(ys), R2: fits[i].R2}
		}
	}
	if b.R2 < minR2 || !risesEnough(b.At(lo), b.At(hi)) || !risesEnough(meanAt(xs, ys, lo), meanAt(xs, ys, hi)) {
		return flat, b, []Fit{flat}
	}
	plausible := func(i int) bool {
		f := fits[i]
		return f.Grows() && rms[i] <= simplerSlack*rms[bi]+simplerFloor && 1-f.R2 <= simplerSlack*(1-b.R2)+simplerFloorR2 &&
			f.R2 >= minR2 && risesEnough(f.At(lo), f.At(hi))
	}
	ci := -1
	for i := range fits {
		if plausible(i) {
			cands = append(cands, fits[i])
			if ci < 0 {
				ci = i
			}
		}
	}
	if ci < 0 {
		ci = bi
		cands = append(cands, b)
	}
	// The exponential fit has a third free parameter (its rate), so on
	// four or five sizes it follows any convex series closely: it is an
	// alternative only where it fits best, or a quadratic 15|55|210|820
	// would predict "83008..5.26e+11".
	alt := -1
	for i := range fits {
		if fits[i].Class == ClassExponential && i != bi {
			continue
		}
		if i != ci && plausible(i) && (alt < 0 || rms[i] < rms[alt]) {
			alt = i
		}
	}
	out := fits[ci]
	if alt >= 0 {
		a := fits[alt]
		a.Outlier = -1
		out.Alt = &a
	}
	return out, b, cands
}

// fitClasses fits each growing class to the points (weights w, ssTot
// their weighted total sum of squares), with each fit's R2 and root mean
// square error, and returns the index of the growing fit of the least
// error, -1 if none grows. An exponential fit that the rule would set
// aside is flat.
func fitClasses(xs, ys, w []float64, ssTot float64) (fits []Fit, rms []float64, bi int) {
	bi = -1
	for c := ClassLog; c <= ClassExponential; c++ {
		var f Fit
		if c == ClassExponential && polyFits(fits) && !expPossible(xs, ys) {
			// The exponential fit would be set aside (expShown), and
			// fitExp costs most of a fit: leave it out.
			f = Fit{Class: ClassConstant, A: mean(ys)}
		} else {
			f = fitClass(c, xs, ys, w)
		}
		if c == ClassExponential && f.Grows() && polyFits(fits) && !expShown(xs, ys, f) {
			f = Fit{Class: ClassConstant, A: mean(ys)}
		}
		ss := ssRes(f, xs, ys, w)
		f.R2 = 1 - ss/ssTot
		fits = append(fits, f)
		rms = append(rms, math.Sqrt(ss/float64(len(xs))))
		if f.Grows() && (bi < 0 || rms[len(rms)-1] < rms[bi]) {
			bi = len(fits) - 1
		}
	}
	return fits, rms, bi
}

// bentIntercept reports whether a class without a lower-order term (log
// n, n, n log n) fits only by a negative intercept beyond what counting
// from 0 gives: below −(20% of the calls at the smallest size + 2).
// Over 250..2000 a straight line follows an exact n log n (ratios 2.25,
// 2.22, 2.20 where a line through the origin doubles) within a few
// percent, but only by starting at −43% of the first count; 2n−2 (a
// loop over all but one) starts at 0 and stays linear.
func bentIntercept(f Fit, yLo float64) bool {
	switch f.Class {
	case ClassLog, ClassLinear, ClassNLogN:
		return f.A < -(bentShare*yLo + minGain)
	}
	return false
}

// polyFits reports whether one of the fits grows and explains minR2 of
// the variation: then an exponential must show itself (expShown).
func polyFits(fits []Fit) bool {
	for _, f := range fits {
		if f.Grows() && f.R2 >= minR2 {
			return true
		}
	}
	return false
}

// expShown reports whether the counts show exponential growth, f being
// their exponential fit: with four or more distinct sizes, f's term
// doubles at least minDoublings times over them (a slower one is any
// gentle curve: 50 + 3n log n over 1..8), log count is straighter against the size than
// against its log (semiLogStraighter), and the exponential fitted to all
// but the largest size (from five sizes on, the largest two) predicts
// the counts there (relative error, in log) at least twice as well as
// every other class fitted to the same points. On four or
// five sizes a three-parameter exponential follows any convex series
// closely; only extrapolation tells 2^n from a polynomial (a polynomial's
// ratios per doubling stay level, an exponential's square). It is asked
// only when a polynomial class explains the counts (polyFits).
func expShown(xs, ys []float64, f Fit) bool {
	lo, hi := minMax(xs)
	if distinct(xs) < 4 || f.Rate*(hi-lo) < minDoublings {
		return false
	}
	// Held out: the largest size, and the next too from five sizes on.
	cut := hi
	if distinct(xs) >= 5 {
		cut = secondLargest(xs)
	}
	var tx, ty, hx, hy []float64
	for i, x := range xs {
		if x >= cut {
			hx, hy = append(hx, x), append(hy, ys[i])
		} else {
			tx, ty = append(tx, x), append(ty, ys[i])
		}
	}
	w := weights(ty)
	miss := func(f Fit) float64 {
		e := 0.0
		for i, x := range hx {
			e += math.Abs(math.Log(math.Max(f.At(x), 1) / math.Max(hy[i], 1)))
		}
		return e
	}
	if !semiLogStraighter(xs, ys) {
		return false
	}
	exp := fitClass(ClassExponential, tx, ty, w)
	if !exp.Grows() {
		return false
	}
	e := miss(exp)
	for c := ClassLog; c < ClassExponential; c++ {
		if f := fitClass(c, tx, ty, w); f.Grows() && miss(f) <= 2*e {
			return false
		}
	}
	return true
}

// fitShortcuts leaves out the work whose result the fit does not use
// (expPossible) and computes 2^(rate·x) once per distinct size (fitExp);
// tests turn it off to compare with the full computation.
var fitShortcuts = true

// expPossible reports whether expShown can hold for some exponential
// fit of the counts: it needs four distinct sizes and semiLogStraighter,
// which do not depend on the fit. (fitExp returns the flat fit that
// fitCandidates puts in place of an exponential not shown, when it
// finds no growth.)
func expPossible(xs, ys []float64) bool {
	return !fitShortcuts || distinct(xs) >= 4 && semiLogStraighter(xs, ys)
}

// secondLargest is the largest x below the largest.
func secondLargest(xs []float64) float64 {
	_, hi := minMax(xs)
	out := math.Inf(-1)
	for _, x := range xs {
		if x < hi && x > out {
			out = x
		}
	}
	return out
}

// semiLogStraighter reports whether log y is closer to a straight line
// in x (exponential: a constant factor per step of the size) than in
// log x (a power: a constant factor per doubling), over the points with
// a count of at least 1; false with fewer than three such sizes.
func semiLogStraighter(xs, ys []float64) bool {
	lx, sx, ly := make([]float64, 0, len(ys)), make([]float64, 0, len(ys)), make([]float64, 0, len(ys))
	for i, y := range ys {
		if y >= 1 && xs[i] > 0 {
			sx, lx, ly = append(sx, xs[i]), append(lx, math.Log(xs[i])), append(ly, math.Log(y))
		}
	}
	if distinct(sx) < 3 {
		return false
	}
	w := ones(len(ly))
	line := func(x []float64) float64 {
		a, b := linReg(x, ly, w)
		ss := 0.0
		for i := range x {
			d := ly[i] - a - b*x[i]
			ss += d * d
		}
		return ss
	}
	return line(sx) < line(lx)
}

// meanAt is the mean of the ys at size x.
func meanAt(xs, ys []float64, x float64) float64 {
	var sum float64
	n := 0
	for i := range xs {
		if xs[i] == x {
			sum += ys[i]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// sizesCalled counts the distinct sizes at which some call was made.
func sizesCalled(xs, ys []float64) int {
	var called []float64
	for i, y := range ys {
		if y > 0 {
			called = append(called, xs[i])
		}
	}
	return distinct(called)
}

func risesEnough(lo, hi float64) bool {
	return hi-lo >= minGain && hi >= minRise*lo
}

// weights are 1/y² (y at least 1): least squares on relative errors.
func weights(ys []float64) []float64 {
	w := make([]float64, len(ys))
	for i, y := range ys {
		y = math.Max(math.Abs(y), 1)
		w[i] = 1 / (y * y)
	}
	return w
}

// fitClass fits one class by weighted least squares; a class that would
// need a falling curve (B ≤ 0) comes back constant.
func fitClass(c Class, xs, ys, w []float64) Fit {
	if c == ClassExponential {
		return fitExp(xs, ys, w)
	}
	f := classFunc(c)
	fx := make([]float64, len(xs))
	for i, x := range xs {
		fx[i] = f(x)
	}
	a, b := linReg(fx, ys, w)
	if b <= 0 || math.IsNaN(b) {
		return Fit{Class: ClassConstant, A: mean(ys)}
	}
	one := Fit{Class: c, A: a, B: b}
	if (c != ClassQuadratic && c != ClassCubic) || distinct(xs) < 5 {
		return one
	}
	g := lowerFunc(c)
	gx := make([]float64, len(xs))
	for i, x := range xs {
		gx[i] = g(x)
	}
	a2, b2, c2, ok := linReg2(fx, gx, ys, w)
	two := Fit{Class: c, A: a2, B: b2, C: c2}
	if !ok || b2 <= 0 || !rising(two, xs) || ssRes(two, xs, ys, w) >= ssRes(one, xs, ys, w) {
		return one
	}
	return two
}

// rising reports whether the fit does not fall from one size to the
// next larger one, nor beyond the largest.
func rising(f Fit, xs []float64) bool {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	s = append(s, 10*s[len(s)-1])
	for i := 1; i < len(s); i++ {
		if f.At(s[i]) < f.At(s[i-1]) {
			return false
		}
	}
	return true
}

// linReg2 returns the weighted least-squares intercept and slopes of ys
// on xs and zs; ok is false when they are collinear.
func linReg2(xs, zs, ys, w []float64) (a, b, c float64, ok bool) {
	mx, mz, my := wmean(xs, w), wmean(zs, w), wmean(ys, w)
	var sxx, szz, sxz, sxy, szy float64
	for i := range xs {
		dx, dz, dy := xs[i]-mx, zs[i]-mz, ys[i]-my
		sxx += w[i] * dx * dx
		szz += w[i] * dz * dz
		sxz += w[i] * dx * dz
		sxy += w[i] * dx * dy
		szy += w[i] * dz * dy
	}
	det := sxx*szz - sxz*sxz
	if det <= 1e-12*sxx*szz || det == 0 {
		return 0, 0, 0, false
	}
	b = (sxy*szz - szy*sxz) / det
	c = (szy*sxx - sxy*sxz) / det
	return my - b*mx - c*mz, b, c, true
}

// fitExp fits y = A + B·2^(Rate·x): A and B by weighted least squares
// for each rate of a grid (from doubling once to doubling 60 times over
// the sizes' range), then the best rate refined between its neighbours.
func fitExp(xs, ys, w []float64) Fit {
	lo, hi := minMax(xs)
	const steps = 40
	fx := make([]float64, len(xs))
	sizes, of := sizeIndex(xs)
	ex := make([]float64, len(sizes))
	at := func(k float64) (Fit, float64) {
		rate := math.Pow(60, k/steps) / (hi - lo)
		for i, x := range sizes {
			ex[i] = math.Exp2(rate * (x - hi)) // scaled by 2^(-rate·hi) to stay finite
		}
		for i := range xs {
			fx[i] = ex[of[i]]
		}
		a, b := linReg(fx, ys, w)
		if b <= 0 || math.IsNaN(b) {
			return Fit{}, math.Inf(1)
		}
		ss := 0.0
		for i := range xs {
			d := ys[i] - a - b*fx[i]
			ss += w[i] * d * d
		}
		return Fit{Class: ClassExponential, A: a, B: b * math.Exp2(-rate*hi), Rate: rate}, ss
	}
	bestK, bestSS := -1.0, math.Inf(1)
	for k := 0; k <= steps; k++ {
		if _, ss := at(float64(k)); ss < bestSS {
			bestK, bestSS = float64(k), ss
		}
	}
	if bestK < 0 {
		return Fit{Class: ClassConstant, A: mean(ys)}
	}
	l, r := math.Max(bestK-1, 0), math.Min(bestK+1, steps)
	for i := 0; i < 30; i++ { // ternary search: the error is unimodal near the best
		m1, m2 := l+(r-l)/3, r-(r-l)/3
		_, s1 := at(m1)
		_, s2 := at(m2)
		if s1 < s2 {
			r = m2
		} else {
			l = m1
		}
	}
	if f, ss := at((l + r) / 2); ss <= bestSS {
		return f
	}
	f, _ := at(bestK)
	return f
}

// sizeIndex returns the distinct sizes of xs and the index of each x
// among them, so that a function of the size is computed once per size
// (a suite's fit has tens of thousands of points and a hundred sizes);
// without fitShortcuts, every x is a size of its own.
func sizeIndex(xs []float64) (sizes []float64, of []int) {
	of = make([]int, len(xs))
	if !fitShortcuts {
		for i := range of {
			of[i] = i
		}
		return xs, of
	}
	seen := make(map[float64]int, 16)
	for i, x := range xs {
		k, ok := seen[x]
		if !ok {
			k = len(sizes)
			seen[x] = k
			sizes = append(sizes, x)
		}
		of[i] = k
	}
	return sizes, of
}

// linReg returns the weighted least-squares intercept and slope of ys on
// xs.
func linReg(xs, ys, w []float64) (a, b float64) {
	mx, my := wmean(xs, w), wmean(ys, w)
	var sxy, sxx float64
	for i := range xs {
		sxy += w[i] * (xs[i] - mx) * (ys[i] - my)
		sxx += w[i] * (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return my, 0
	}
	b = sxy / sxx
	return my - b*mx, b
}

func ssRes(f Fit, xs, ys, w []float64) float64 {
	ss := 0.0
	for i, x := range xs {
		d := ys[i] - f.At(x)
		ss += w[i] * d * d
	}
	if math.IsNaN(ss) {
		return math.Inf(1)
	}
	return ss
}

// worstInterior returns the index of the point farthest (relatively)
// from the fit, not at the smallest or largest size; -1 when every point
// is at one of them.
func worstInterior(xs, ys []float64, ref Fit) int {
	w := weights(ys)
	lo, hi := minMax(xs)
	worst, far := -1, -1.0
	for i, x := range xs {
		if x == lo || x == hi {
			continue
		}
		if d := w[i] * (ys[i] - ref.At(x)) * (ys[i] - ref.At(x)); d > far {
			worst, far = i, d
		}
	}
	return worst
}

// outlierScore reports whether the point (x, y) is more than
// outlierFactor times as far (relatively) from the fit of the other
// points as they are (rms), at least minGain calls and minOutlier of its
// value away; the score is how many times their rms it lies away.
func outlierScore(f Fit, xs, ys []float64, x, y float64) (float64, bool) {
	d := math.Abs(y - f.At(x))
	rel := d / math.Max(math.Abs(y), 1)
	rms := math.Sqrt(ssRes(f, xs, ys, weights(ys)) / float64(len(xs)))
	ok := d >= minGain && rel >= minOutlier && rel > outlierFactor*rms
	return rel / math.Max(rms, 1e-9), ok
}

// exponent is the slope of log(y − A) against log x, over the points
// where both are defined: the power the counts grow with.
func exponent(xs, ys []float64, f Fit) float64 {
	if !f.Grows() {
		return 0
	}
	var lx, ly []float64
	for i, x := range xs {
		if d := ys[i] - f.A; x > 0 && d > 0 {
			lx = append(lx, math.Log(x))
			ly = append(ly, math.Log(d))
		}
	}
	if distinct(lx) < 2 {
		return 0
	}
	_, b := linReg(lx, ly, ones(len(lx)))
	return b
}

func wmean(xs, w []float64) float64 {
	var s, sw float64
	for i, x := range xs {
		s += w[i] * x
		sw += w[i]
	}
	if sw == 0 {
		return 0
	}
	return s / sw
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func minMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

func distinct(xs []float64) int {
	if len(xs) > 64 {
		// A suite's tens of thousands of points at a hundred sizes:
		// a set, not a sorted copy. (NaNs count one each, either way.)
		seen := make(map[float64]struct{}, 16)
		for _, x := range xs {
			seen[x] = struct{}{}
		}
		return len(seen)
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := 0
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			n++
		}
	}
	return n
}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

func without(xs []float64, i int) []float64 {
	out := append([]float64(nil), xs[:i]...)
	return append(out, xs[i+1:]...)
}
