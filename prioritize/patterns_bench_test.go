package prioritize

import (
	"encoding/json"
	"math/rand"
	"strconv"
	"testing"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/internal/testtrace"
)

// BenchmarkPatternsManyPlaces makes and renders the patterns (the
// patterns and strings levels, and the patterns' JSON) of a group whose
// grammar has very many places: 2,000 call sites read in runs of 1 to 3
// in a random order, 10^6 events in 4 marked sub-traces, as a -reads
// trace of a real program gives (the Hugo start rules hold millions of
// items). The summary is made once, without patterns; each iteration
// makes the patterns as suncat summary -level patterns,strings does.
// peak-heap-B is the most heap in use beyond what was in use before,
// sampled every millisecond (garbage included).
//
//	go test -run '^$' -bench PatternsManyPlaces -benchtime 3x -benchmem ./prioritize
func BenchmarkPatternsManyPlaces(b *testing.B) {
	sum, _ := summarizeData(b, manyPlaces(2000, 250000), Options{NoPatterns: true}, nil)
	g := sum.Groups[0]
	var peak uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := testtrace.HeapPeak()
		makePatterns(g)
		out := Text(g, []string{"patterns", "strings"}, SummarizeOptions{Min: 3}, "kind", nil)
		data, err := json.Marshal(g.Patterns)
		peak = max(peak, rendered(b, stop, out, data, err))
	}
	b.ReportMetric(float64(peak), "peak-heap-B")
	b.ReportMetric(float64(places(g.wholeGrammar())), "places") // g.Grammar is cut
	b.ReportMetric(float64(len(g.Patterns)), "patterns")
}

// manyPlaces is a trace of one goroutine group whose grammar has very
// many places: sites call sites (of 8 getters) read in runs of 1 to 3 in
// a random order, perSub events in each of 4 marked sub-traces.
func manyPlaces(sites, perSub int) []byte {
	r := rand.New(rand.NewSource(1))
	s := testtrace.NewSynth("places")
	first := s.Getters(8, false)
	stacks := make([][]testtrace.Frame, sites)
	for i := range stacks {
		stacks[i] = []testtrace.Frame{{Func: "p.T.M" + strconv.Itoa(i%8), File: "/src/p/t.go", Line: i%8 + 1},
			{Func: "main.render", File: "/src/main.go", Line: i + 10}, {Func: "main.main", File: "/src/main.go", Line: 5}}
	}
	for sub := 1; sub <= 4; sub++ {
		s.Mark("size "+strconv.Itoa(sub), 10)
		for n := 0; n < perSub; {
			i := r.Intn(sites)
			for k := r.Intn(3) + 1; k > 0; k-- {
				s.Event(first+uint32(i%8), stacks[i], "v"+strconv.Itoa(r.Intn(50)), 10)
				n++
			}
		}
	}
	return s.Bytes()
}

// makePatterns gives g its patterns as suncat summary does.
func makePatterns(g *Group) { g.setPatterns(Options{}) }

// BenchmarkGrammarLevels renders the grammar levels (full, summarized)
// and the grammar's JSON of the group of BenchmarkPatternsManyPlaces
// (10^6 events in 4 sub-traces, a grammar of about 500,000 places), as
// suncat summary -level full,summarized and -json do: whole, as before
// the grammars were cut, and cut to DefaultItems items a rule
// (Options.Items), the cut included. bytes-out is the text and the JSON.
//
//	go test -run '^$' -bench GrammarLevels -benchtime 3x -benchmem ./prioritize
func BenchmarkGrammarLevels(b *testing.B) {
	sum, _ := summarizeData(b, manyPlaces(2000, 250000), Options{NoPatterns: true, Items: -1}, nil)
	whole := sum.Groups[0]
	for _, bc := range []struct {
		name  string
		items int
	}{{"whole", -1}, {"cut", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			var peak uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer() // HeapPeak collects the summary's garbage first
				stop := testtrace.HeapPeak()
				b.StartTimer()
				g := *whole
				g.cutGrammar(Options{Items: bc.items})
				out := Text(&g, []string{"full", "summarized"}, SummarizeOptions{Min: 3}, "kind", nil)
				data, err := json.Marshal(g.Grammar)
				peak = max(peak, rendered(b, stop, out, data, err))
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
			b.ReportMetric(float64(places(whole.Grammar)), "places")
		})
	}
}

// rendered ends the measure of one render of a group (stop, from
// testtrace.HeapPeak) that printed out and data: it reports their bytes
// and returns the heap's peak.
func rendered(b *testing.B, stop func() (peak, live uint64), out string, data []byte, err error) uint64 {
	peak, _ := stop()
	if err != nil || len(out) == 0 {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(out)+len(data)), "bytes-out")
	return peak
}

// places returns the number of items of gr's rules, S's included.
func places(gr *grammar.Grammar) int {
	n := 0
	for _, k := range bodyLens(gr.Start, gr.Rules) {
		n += k
	}
	return n
}
