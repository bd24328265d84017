package grammar

import (
	"math/rand"
	"reflect"
	"testing"
)

// holeScanModes are the settings of holeScanCost under which the fast
// engine is compared with the reference: the default, always scanning the
// array with its holes, and always compacting before a scan.
var holeScanModes = []int64{8, 0, 1 << 62}

// compareEngines builds t with both engines (the fast one in every
// holeScanModes setting) and reports any difference in the printed grammar
// or in the observations behind it.
func compareEngines(t *testing.T, name string, tr *Trace, lossless bool) {
	t.Helper()
	ref := Build(tr, Options{Reference: true, Lossless: lossless})
	defer func(c int64) { holeScanCost = c }(holeScanCost)
	for _, mode := range holeScanModes {
		holeScanCost = mode
		fast := Build(tr, Options{Lossless: lossless})
		if r, f := ref.String(), fast.String(); r != f {
			t.Fatalf("%s (lossless=%v, holeScanCost=%d): engines differ\nreference:\n%s\nfast:\n%s\ninput: %v", name, lossless, mode, r, f, tr.Subs)
		}
		if !reflect.DeepEqual(ref, fast) {
			t.Fatalf("%s (lossless=%v, holeScanCost=%d): same text, different observations\nreference: %+v\nfast: %+v", name, lossless, mode, ref, fast)
		}
	}
}

func TestDifferential(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 600
	if testing.Short() {
		n = 200
	}
	for iter := 0; iter < 40; iter++ {
		subs := 1 + r.Intn(4)
		gens := map[string]*Trace{
			"short-loops": genShortLoops(r, n, subs),
			"nested":      genNested(r, n, subs),
			"random2":     genRandom(r, n/3, subs, 2),
			"random3":     genRandom(r, n/3, subs, 3),
			"random50":    genRandom(r, n, subs, 50),
			"long-period": genLongPeriod(r, n, 10+r.Intn(60)),
			"runs":        genRuns(r, n, subs),
			"ladder":      genLadder(r, n, 2+r.Intn(3)),
			"loop-tree":   genLoopTree(r, n, subs),
		}
		for name, tr := range gens {
			for _, lossless := range []bool{false, true} {
				compareEngines(t, name, tr, lossless)
			}
		}
	}
}

// FuzzEngines compares the engines on arbitrary small traces: each byte is
// a terminal (mod 5), 0xff separates sub-traces.
func FuzzEngines(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 0, 1, 1, 1, 1}, false)
	f.Add([]byte{0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1}, false)
	f.Add([]byte{0, 1, 0, 1, 0xff, 0, 1, 0xff, 2, 2, 2}, true)
	f.Fuzz(func(t *testing.T, data []byte, lossless bool) {
		if len(data) > 300 {
			data = data[:300]
		}
		tr := &Trace{Subs: [][]int32{nil}}
		for _, b := range data {
			if b == 0xff {
				tr.Subs = append(tr.Subs, nil)
				continue
			}
			last := len(tr.Subs) - 1
			tr.Subs[last] = append(tr.Subs[last], int32(b%5))
		}
		tr.Names = []string{"a", "b", "c", "d", "e"}
		compareEngines(t, "fuzz", tr, lossless)
	})
}
