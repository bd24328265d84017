package prioritize

import (
	"math"
	"math/rand"
	"testing"
)

// series generates y = offset + scale·f(x) for a class, with
// multiplicative noise of up to ±noise (deterministic for a seed).
func genSeries(c Class, xs []float64, offset, scale, noise float64, seed int64) []float64 {
	r := rand.New(rand.NewSource(seed))
	ys := make([]float64, len(xs))
	for i, x := range xs {
		var v float64
		switch c {
		case ClassConstant:
			v = 0
		case ClassExponential:
			v = math.Exp2(x)
		default:
			v = classFunc(c)(x)
		}
		y := offset + scale*v
		ys[i] = math.Round(y * (1 + noise*(2*r.Float64()-1)))
	}
	return ys
}

var (
	sizesWide = []float64{10, 20, 40, 80, 160}
	sizesExp  = []float64{4, 6, 8, 10, 12, 14}
)

func TestFitGrowthClasses(t *testing.T) {
	classes := []Class{ClassLog, ClassLinear, ClassNLogN, ClassQuadratic, ClassCubic, ClassExponential}
	for _, c := range classes {
		xs := sizesWide
		scale := 3.0
		if c == ClassExponential {
			xs, scale = sizesExp, 1
		}
		if c == ClassLog {
			scale = 100
		}
		cases := []struct {
			name          string
			offset, noise float64
		}{
			{"exact", 0, 0},
			{"offset", 50, 0},
			{"noise", 0, 0.03},
			{"offset+noise", 50, 0.03},
		}
		for _, tc := range cases {
			for seed := int64(1); seed <= 5; seed++ {
				if tc.noise == 0 && seed > 1 {
					break
				}
				ys := genSeries(c, xs, tc.offset, scale, tc.noise, seed)
				f := FitGrowth(xs, ys)
				if f.Class != c {
					t.Errorf("%s %s seed %d: %v: class %v (R² %.3f), want %v", c, tc.name, seed, ys, f.Class, f.R2, c)
				}
			}
		}
	}
}

// TestFitGrowthPositions: a repeated action numbered 1, 2, 3, 4 (the bus
// app's navigations): linear growth with data-dependent steps stays
// linear, a quadratic one quadratic.
func TestFitGrowthPositions(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	for _, tc := range []struct {
		ys   []float64
		want Class
	}{
		{[]float64{1, 2, 3, 4}, ClassLinear},
		{[]float64{2, 4, 7, 10}, ClassLinear},
		{[]float64{8, 16, 28, 40}, ClassLinear},
		{[]float64{1, 4, 9, 16}, ClassQuadratic},
		{[]float64{16, 16, 16, 16}, ClassConstant},
		{[]float64{2, 2, 3, 3}, ClassConstant},
	} {
		if f := FitGrowth(xs, tc.ys); f.Class != tc.want {
			t.Errorf("%v: %v (R² %.3f), want %v", tc.ys, f.Class, f.R2, tc.want)
		}
	}
}

// TestFitGrowthFlat: jitter around a flat count is constant, whatever its
// order: a sort's data-dependent comparison counts (±25%), a parallel
// split's wobble (±3%), small counts that differ by one.
func TestFitGrowthFlat(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6}
	for _, tc := range []struct {
		name         string
		level, noise float64
	}{
		{"sort jitter", 700, 0.25},
		{"parallel wobble", 5000, 0.03},
		{"small", 10, 0.1},
	} {
		grew := 0
		for seed := int64(1); seed <= 200; seed++ {
			ys := genSeries(ClassConstant, xs, tc.level, 0, tc.noise, seed)
			for _, n := range []int{3, 4, 6} {
				if f := FitGrowth(xs[:n], ys[:n]); f.Class != ClassConstant {
					grew++
					if grew <= 3 {
						t.Errorf("%s seed %d: %v: %v (R² %.3f), want constant", tc.name, seed, ys[:n], f.Class, f.R2)
					}
				}
			}
		}
		if grew > 0 {
			t.Errorf("%s: %d of 600 series grew", tc.name, grew)
		}
	}
	// The same with sizes from labels (a table test over 1, 2, 4, 8).
	for seed := int64(1); seed <= 200; seed++ {
		xs := []float64{1, 2, 4, 8}
		ys := genSeries(ClassConstant, xs, 650, 0, 0.25, seed)
		if f := FitGrowth(xs, ys); f.Class != ClassConstant {
			t.Fatalf("seed %d: %v: %v, want constant", seed, ys, f.Class)
		}
	}
}

// TestFitGrowthOneSizeCalled: calls at one size only (0|0|0|4: a timer in
// the background that fired during the last sub-trace) are no trend;
// calls that start at the third of four sizes are.
func TestFitGrowthOneSizeCalled(t *testing.T) {
	xs := []float64{1, 2, 3, 4}
	if f := FitGrowth(xs, []float64{0, 0, 0, 4}); f.Class != ClassConstant {
		t.Errorf("0|0|0|4: %v, want constant", f.Class)
	}
	if f := FitGrowth(xs, []float64{0, 0, 40, 0}); f.Class != ClassConstant {
		t.Errorf("0|0|40|0: %v, want constant", f.Class)
	}
	if f := FitGrowth(xs, []float64{0, 0, 5, 20}); !f.Grows() {
		t.Errorf("0|0|5|20: %v, want a growing class", f.Class)
	}
}

func TestFitGrowthTooFewSizes(t *testing.T) {
	for _, tc := range []struct{ xs, ys []float64 }{
		{[]float64{1, 2}, []float64{1, 3}},
		{[]float64{4}, []float64{10}},
		{[]float64{8, 8, 8, 8}, []float64{1, 2, 3, 4}},
		{[]float64{1, 2, 1, 2}, []float64{1, 4, 1, 4}},
		{nil, nil},
	} {
		f := FitGrowth(tc.xs, tc.ys)
		if f.Class != ClassNone || f.Note == "" || f.Grows() {
			t.Errorf("%v %v: %v %q, want none with a note", tc.xs, tc.ys, f.Class, f.Note)
		}
	}
}

func TestFitGrowthOutlier(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6}
	for _, tc := range []struct {
		ys      []float64
		want    Class
		outlier int
	}{
		{[]float64{100, 100, 400, 100, 100, 100}, ClassConstant, 2},
		{[]float64{10, 20, 95, 40, 50, 60}, ClassLinear, 2},
		{[]float64{1, 4, 9, 16, 70, 36}, ClassQuadratic, 4},
		{[]float64{10, 20, 30, 40, 50, 60}, ClassLinear, -1},
	} {
		f := FitGrowth(xs, tc.ys)
		if f.Class != tc.want || f.Outlier != tc.outlier {
			t.Errorf("%v: %v, outlier %d; want %v, outlier %d", tc.ys, f.Class, f.Outlier, tc.want, tc.outlier)
		}
	}
}

func TestFitPredictAndReach(t *testing.T) {
	xs := []float64{10, 20, 40, 80}
	f := FitGrowth(xs, []float64{105, 405, 1605, 6405}) // 5 + n²
	if f.Class != ClassQuadratic {
		t.Fatalf("class %v, want n^2", f.Class)
	}
	if got := f.At(800); math.Abs(got-640005) > 1 {
		t.Errorf("At(800) = %v, want 640005", got)
	}
	if math.Abs(f.Exponent-2) > 0.05 {
		t.Errorf("exponent %v, want 2", f.Exponent)
	}
	n, ok := f.Reaches(10005, 80)
	if !ok || math.Abs(n-100) > 0.01 {
		t.Errorf("Reaches(10005) = %v, %v; want 100", n, ok)
	}
	flat := FitGrowth(xs, []float64{5, 5, 5, 5})
	if _, ok := flat.Reaches(10, 80); ok || flat.At(1000) != 5 {
		t.Errorf("a constant fit reaches 10 or does not stay at 5: %+v", flat)
	}
	e := FitGrowth([]float64{4, 6, 8, 10}, []float64{16, 64, 256, 1024})
	if e.Class != ClassExponential || math.Abs(e.At(12)-4096) > 1 {
		t.Errorf("2^n: %v, At(12) = %v", e.Class, e.At(12))
	}
}
