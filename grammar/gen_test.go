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
