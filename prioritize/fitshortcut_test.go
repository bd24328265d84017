package prioritize

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// fitString prints every field of a fit, floats exactly.
func fitString(f Fit) string {
	alt := "nil"
	if f.Alt != nil {
		alt = fitString(*f.Alt)
	}
	f.Alt = nil
	return fmt.Sprintf("%#v alt=%s", f, alt)
}

// withoutShortcuts runs fn with fitShortcuts off.
func withoutShortcuts(fn func()) {
	fitShortcuts = false
	defer func() { fitShortcuts = true }()
	fn()
}

// genFamily makes the counts of a generated family: sizes (some
// repeated, as a suite's sub-traces repeat them), a model of growth,
// noise.
func genFamily(r *rand.Rand) (xs, ys []float64) {
	k := 1 + r.Intn(12)
	rep := 1
	if r.Intn(3) == 0 {
		rep = 1 + r.Intn(30)
	}
	base := []float64{1, 2, 3, 5, 10, 100}[r.Intn(6)]
	model := r.Intn(11)
	a, b := float64(r.Intn(20)), 0.5+r.Float64()*5
	noise := []float64{0, 0, 0.02, 0.1, 0.4}[r.Intn(5)]
	for j := 0; j < rep; j++ {
		for i := 0; i < k; i++ {
			x := base * float64(i+1)
			if r.Intn(2) == 0 {
				x = base * math.Pow(2, float64(i))
			}
			var y float64
			switch model {
			case 0:
				y = a
			case 1:
				y = a + b*math.Log2(x)
			case 2:
				y = a + b*x
			case 3:
				y = a + b*x*math.Log2(x)
			case 4:
				y = a + b*x*x
			case 5:
				y = x * (x - 1) / 2
			case 6:
				y = a + b*x*x*x
			case 7:
				y = a + math.Exp2(float64(i)*b)
			case 8: // a step: a cache filled once
				y = a
				if i == 0 {
					y = a + 7
				}
			case 9: // calls in a few sub-traces only
				if r.Intn(4) == 0 {
					y = float64(1 + r.Intn(int(x)+1))
				}
			default:
				y = float64(r.Intn(1000))
			}
			y *= 1 + noise*(2*r.Float64()-1)
			xs, ys = append(xs, x), append(ys, math.Round(y))
		}
	}
	if r.Intn(4) == 0 {
		r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i]; ys[i], ys[j] = ys[j], ys[i] })
	}
	return xs, ys
}

// TestFitShortcutsSame: the fits with the shortcuts (no exponential fit
// where it cannot be shown, 2^x once per size, the memo) are the fits
// without them, bit for bit, on generated families.
func TestFitShortcutsSame(t *testing.T) {
	r := rand.New(rand.NewSource(37))
	memo := fitMemo{}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		xs, ys := genFamily(r)
		fast := fitString(FitGrowth(xs, ys))
		var slow string
		withoutShortcuts(func() { slow = fitString(FitGrowth(xs, ys)) })
		if fast != slow {
			t.Fatalf("%v at %v:\n with shortcuts %s\n without        %s", ys, xs, fast, slow)
		}
		want := fitString(FitCounts(xs, ys)) // the memo fits counts
		for k := 0; k < 2; k++ {             // fitted, then remembered
			if m := fitString(memo.fit(xs, ys)); m != want {
				t.Fatalf("%v at %v:\n remembered %s\n fitted     %s", ys, xs, m, want)
			}
		}
	}
}

// TestFamiliesShortcutsSame: a suite's families (fitted once per
// distinct series, on the summary's own findings) are those fitted each
// on its own, without the shortcuts.
func TestFamiliesShortcutsSame(t *testing.T) {
	b := newTrace("suite.suncat")
	find := call{"Name", []string{"main.find@/app/find.go:9"}, "testing.tRunner", "x"}
	pairs := call{"Title", []string{"main.pairs@/app/pairs.go:5"}, "testing.tRunner", "x"}
	for _, test := range []string{"TestA", "TestB", "TestC"} { // alike: the memo's
		for _, n := range []int{1, 2, 4, 8, 16, 32} {
			b.mark(fmt.Sprintf("%s/n=%d", test, n))
			b.add(find, n*n)
			b.add(pairs, n+3)
		}
	}
	for _, n := range []int{3, 5, 9, 17, 33} {
		b.mark(fmt.Sprintf("TestD/size=%d", n))
		b.add(pairs, 1<<(n/3))
	}
	s, err := Build([]*tracefile.Trace{b.tr}, Options{Goroutines: "all"})
	if err != nil {
		t.Fatal(err)
	}
	if findingsFor(s, Options{}) == nil {
		t.Fatal("the summary's findings are not reused")
	}
	out := func() string {
		fams, unsized, err := Families(s, Options{})
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(struct {
			F []*Family
			U []Unsized
		}{fams, unsized})
		if err != nil {
			t.Fatal(err)
		}
		return string(data) + FamiliesText(s, fams, unsized, 10, nil)
	}
	fast := out()
	var slow string
	withoutShortcuts(func() { slow = out() })
	if fast != slow {
		t.Errorf("families with shortcuts:\n%s\nwithout:\n%s", fast, slow)
	}
}
