package grammar

import (
	"math/rand"
)

// Trace generators shared by the differential test, the fuzz target and the
// benchmarks. Each returns a trace of about n events.

// genShortLoops: many distinct short loops with varying trip counts,
// separated by noise events.
func genShortLoops(r *rand.Rand, n, subs int) *Trace {
	t := &Trace{}
	body := func(id int) []int32 {
		size := 1 + id%4
		b := make([]int32, size)
		for i := range b {
			b[i] = int32(10 + id*4 + i)
		}
		return b
	}
	per := n / subs
	for s := 0; s < subs; s++ {
		var sub []int32
		for len(sub) < per {
			loop := r.Intn(40)
			trips := 1 + r.Intn(6)
			for i := 0; i < trips; i++ {
				sub = append(sub, body(loop)...)
			}
			sub = append(sub, int32(r.Intn(10))) // noise
		}
		t.Subs = append(t.Subs, sub)
	}
	nameTerminals(t)
	return t
}

// genNested: nested loops whose outer trip count grows by one per sub-trace
// and whose inner count varies with the data.
func genNested(r *rand.Rand, n, subs int) *Trace {
	t := &Trace{}
	per := n / subs
	for s := 0; s < subs; s++ {
		var sub []int32
		for len(sub) < per {
			sub = append(sub, 0)
			for o := 0; o < 2+s; o++ {
				sub = append(sub, 1)
				inner := 1 + r.Intn(5)
				for i := 0; i < inner; i++ {
					sub = append(sub, 2, 3)
				}
				sub = append(sub, 4, 4)
			}
			sub = append(sub, 5)
		}
		t.Subs = append(t.Subs, sub)
	}
	nameTerminals(t)
	return t
}

// genRandom: uniformly random symbols over an alphabet of size sigma.
func genRandom(r *rand.Rand, n, subs, sigma int) *Trace {
	t := &Trace{}
	for s := 0; s < subs; s++ {
		sub := make([]int32, n/subs)
		for i := range sub {
			sub[i] = int32(r.Intn(sigma))
		}
		t.Subs = append(t.Subs, sub)
	}
	nameTerminals(t)
	return t
}

// genLongPeriod: a long loop body repeated, with occasional mutations.
func genLongPeriod(r *rand.Rand, n, period int) *Trace {
	body := make([]int32, period)
	for i := range body {
		body[i] = int32(r.Intn(period))
	}
	var sub []int32
	for len(sub) < n {
		for _, b := range body {
			if r.Intn(50) == 0 {
				b = int32(r.Intn(period))
			}
			sub = append(sub, b)
		}
	}
	t := &Trace{Subs: [][]int32{sub}}
	nameTerminals(t)
	return t
}

// genRuns: long single-symbol runs over a small alphabet.
func genRuns(r *rand.Rand, n, subs int) *Trace {
	t := &Trace{}
	for s := 0; s < subs; s++ {
		var sub []int32
		for len(sub) < n/subs {
			sym := int32(r.Intn(3))
			for i := r.Intn(20); i >= 0; i-- {
				sub = append(sub, sym)
			}
		}
		t.Subs = append(t.Subs, sub)
	}
	nameTerminals(t)
	return t
}

// genLadder: squares of every period 1, 2, 3, ...: a word of p events
// (drawn from an alphabet of sigma*p symbols, so neighbouring words may
// share events) written twice, for p = 1, 2, ... until n events. Merges
// then happen at many different periods, which is the worst case for an
// engine that compacts its list after each period.
func genLadder(r *rand.Rand, n, sigma int) *Trace {
	var sub []int32
	for p := 1; len(sub) < n; p++ {
		w := make([]int32, p)
		for i := range w {
			w[i] = int32(r.Intn(sigma * p))
		}
		sub = append(sub, w...)
		sub = append(sub, w...)
	}
	t := &Trace{Subs: [][]int32{sub}}
	nameTerminals(t)
	return t
}

// genLoopTree: the events of a random program of nested loops, each loop
// body a sequence of statements (events or inner loops) whose trip counts
// and branches vary from one iteration to the next.
func genLoopTree(r *rand.Rand, n, subs int) *Trace {
	t := &Trace{}
	var gen func(rr *rand.Rand, depth int, out []int32, limit int) []int32
	gen = func(rr *rand.Rand, depth int, out []int32, limit int) []int32 {
		if len(out) >= limit {
			return out
		}
		if depth == 0 || rr.Intn(3) == 0 {
			return append(out, int32(rr.Intn(6)))
		}
		stmts := make([]int64, 1+rr.Intn(3))
		for i := range stmts {
			stmts[i] = rr.Int63()
		}
		trips := 1 + rr.Intn(5)
		for i := 0; i < trips; i++ {
			for _, seed := range stmts {
				// Seeds differ by one now and then: a branch taken
				// differently in this iteration.
				out = gen(rand.New(rand.NewSource(seed+int64(rr.Intn(2)))), depth-1, out, limit)
			}
		}
		return out
	}
	for s := 0; s < subs; s++ {
		var sub []int32
		for len(sub) < n/subs {
			sub = gen(r, 2+r.Intn(4), sub, n/subs)
		}
		t.Subs = append(t.Subs, sub)
	}
	nameTerminals(t)
	return t
}

func nameTerminals(t *Trace) {
	max := int32(-1)
	for _, s := range t.Subs {
		for _, x := range s {
			if x > max {
				max = x
			}
		}
	}
	t.Names = make([]string, max+1)
	for i := range t.Names {
		t.Names[i] = "t" + itoa(i)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
