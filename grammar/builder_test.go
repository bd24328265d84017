package grammar

import (
	"encoding/json"
	"math/rand"
	"sync"
	"testing"
)

// TestBuilderKeepsNoSubTrace: sub-traces handed to a Builder one at a
// time, each overwritten once the next is added (after the second), give
// Build's grammar of the whole trace; so do one sub-trace and none.
func TestBuilderKeepsNoSubTrace(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		var subs [][]int32
		for s := rng.Intn(5); s > 0; s-- {
			sub := make([]int32, rng.Intn(30))
			for i := range sub {
				sub[i] = int32(rng.Intn(3))
			}
			subs = append(subs, sub)
		}
		names := []string{"a", "b", "c"}
		want := Build(&Trace{Names: names, Subs: subs}, Options{}).String()
		b := NewBuilder(Options{})
		var prev []int32
		nonEmpty := 0
		for _, s := range subs {
			c := append([]int32(nil), s...)
			b.Add(c)
			if len(c) > 0 {
				nonEmpty++
				if nonEmpty >= 2 && prev != nil {
					for i := range prev {
						prev[i] = 2 // the builder must not read it again
					}
				}
				prev = c
			}
		}
		if got := b.Grammar(names).String(); got != want {
			t.Fatalf("subs %v:\nBuilder:\n%sBuild:\n%s", subs, got, want)
		}
	}
}

// sharedBuild is the plain way of compressing a trace one sub-trace at a
// time: every sub-trace compressed against the rules of those before it,
// in one rule set. Compress and AddChunk must give exactly its grammar.
func sharedBuild(subs [][]int32, names []string, opt Options) *Grammar {
	rs := newRuleSet(opt.Lossless)
	var nonEmpty [][]int32
	for _, s := range subs {
		if len(s) > 0 {
			nonEmpty = append(nonEmpty, s)
		}
	}
	if len(nonEmpty) <= 1 {
		var start []elem
		if len(nonEmpty) == 1 {
			start = rs.compute(0, fresh(nonEmpty[0]), opt)
		}
		return rs.grammar(names, start, len(nonEmpty), false)
	}
	var items []elem
	for i, s := range nonEmpty {
		l := rs.compute(i, fresh(s), opt)
		items = append(items, elem{sym: rs.absorb(l, i), cnt: 1})
	}
	return rs.grammar(names, rs.compute(-1, items, opt), len(items), true)
}

// TestChunksMatchSharedRules: sub-traces compressed on their own, with
// their own terminal numbers (renamed when added), on several goroutines,
// give the grammar of the plain shared compression, observations
// included, with both engines, lossy and lossless.
func TestChunksMatchSharedRules(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	names := []string{"a", "b", "c", "d"}
	for trial := 0; trial < 400; trial++ {
		opt := Options{Lossless: trial%2 == 1, Reference: trial%5 == 0}
		var subs [][]int32
		for s := rng.Intn(6); s > 0; s-- {
			sub := make([]int32, rng.Intn(60))
			// Short repeated motifs, so that rules recur across
			// sub-traces.
			motif := []int32{int32(rng.Intn(4)), int32(rng.Intn(4)), int32(rng.Intn(4))}
			for i := range sub {
				if rng.Intn(4) == 0 {
					sub[i] = int32(rng.Intn(4))
				} else {
					sub[i] = motif[i%(1+rng.Intn(3))]
				}
			}
			subs = append(subs, sub)
		}
		want, _ := json.Marshal(sharedBuild(subs, names, opt))
		// Each sub-trace numbers its terminals by first appearance, as a
		// reader of one trace would, and is compressed on a goroutine.
		chunks := make([]*Chunk, len(subs))
		renames := make([][]int32, len(subs))
		var wg sync.WaitGroup
		for i, s := range subs {
			local, rename := map[int32]int32{}, []int32(nil)
			ls := make([]int32, len(s))
			for k, x := range s {
				if _, ok := local[x]; !ok {
					local[x] = int32(len(rename))
					rename = append(rename, x)
				}
				ls[k] = local[x]
			}
			renames[i] = rename
			wg.Add(1)
			go func() {
				defer wg.Done()
				chunks[i] = Compress(ls, opt)
			}()
		}
		wg.Wait()
		b := NewBuilder(opt)
		for i, c := range chunks {
			b.AddChunk(c, renames[i])
		}
		got, _ := json.Marshal(b.Grammar(names))
		if string(got) != string(want) {
			t.Fatalf("%+v, subs %v:\nchunks: %s\nshared: %s", opt, subs, got, want)
		}
	}
}
