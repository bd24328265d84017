package prioritize

import (
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// Benchmarks of summaries at the scale of -reads and of big test suites,
// on synthetic traces (testtrace.Synth), streamed as suncat summary
// streams them (a Part fed by DecodeFunc, then Merge) and rendered with
// their findings: each must take time linear in the trace. Getters25k
// and Marks43k report the most heap in use during a summary
// (peak-heap-B, garbage not yet collected included) and what the
// summary keeps (kept-heap-B).
//
//	go test -run '^$' -bench 'Getters25k|Marks43k' -benchtime 1x -benchmem ./prioritize

// summarizeData summarizes the trace data as suncat summary does, and
// renders its findings and the levels given.
func summarizeData(b testing.TB, data []byte, opt Options, levels []string) (*Summary, string) {
	p, err := NewPart(opt, nil)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := tracefile.DecodeFunc("synth.suncat", data, p.Add)
	if err != nil {
		b.Fatal(err)
	}
	p.Finish(tr)
	s, err := Merge([]*Part{p}, opt)
	if err != nil {
		b.Fatal(err)
	}
	var out string
	if IsSuite(s) {
		fams, unsized, err := Families(s, opt)
		if err != nil {
			b.Fatal(err)
		}
		out = FamiliesText(s, fams, unsized, 10, opt.Sources)
	} else {
		out = FindingsText(s.Findings, 10)
	}
	for _, g := range s.Groups {
		out += Text(g, levels, SummarizeOptions{Min: 3}, "kind", nil)
	}
	return s, out
}

// summarizePeak is summarizeData that reports, over the benchmark's
// runs, the most heap in use during one (peak-heap-B) and what the
// summary holds once made (kept-heap-B, after a collection).
func summarizePeak(b *testing.B, data []byte, opt Options, levels []string, check func(*Summary, string)) {
	var peak, kept uint64
	for i := 0; i < b.N; i++ {
		stop := testtrace.HeapPeak()
		s, out := summarizeData(b, data, opt, levels)
		p, _ := stop()
		peak = max(peak, p)
		check(s, out)
		runtime.GC()
		kept = max(kept, testtrace.HeapObjects())
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(peak), "peak-heap-B")
	b.ReportMetric(float64(kept), "kept-heap-B")
}

// BenchmarkSummaryGetters25k summarizes a trace whose getter table has
// 25,000 entries, each read on a stack of its own in four sub-traces of
// growing size.
func BenchmarkSummaryGetters25k(b *testing.B) {
	const n = 25000
	s := testtrace.NewSynth("getters")
	first := s.Getters(n, true)
	for size := 1; size <= 4; size++ {
		s.Mark("size "+strconv.Itoa(size), 10)
		for i := 0; i < n; i++ {
			stack := []testtrace.Frame{{Func: "p.T.M" + strconv.Itoa(i), File: "/src/p/t.go", Line: i + 1}, {Func: "main.main", File: "/src/main.go", Line: 9}}
			for k := 0; k < size*(i%3); k++ {
				s.Event(first+uint32(i), stack, strconv.Itoa(k%5), 10)
			}
		}
	}
	data := s.Bytes()
	b.ResetTimer()
	summarizePeak(b, data, Options{}, nil, func(sum *Summary, _ string) {
		if len(sum.Groups) != 1 || len(sum.Groups[0].Terminals) != n*2/3 {
			b.Fatalf("%d groups; want 1 with %d terminals", len(sum.Groups), n*2/3)
		}
	})
	b.ReportMetric(float64(s.Events()), "events")
}

// BenchmarkSummaryMarks43k summarizes the trace of a suite of 43,000
// subtests (430 tests of 100 sizes each), a mark for each, as suncat
// test labels them.
func BenchmarkSummaryMarks43k(b *testing.B) {
	const tests, sizes = 430, 100
	s := testtrace.NewSynth("suite.test")
	first := s.Getters(4, false)
	stack := func(t, g int) []testtrace.Frame {
		return []testtrace.Frame{{Func: "p.T.M" + strconv.Itoa(g), File: "/src/p/t.go", Line: g + 1},
			{Func: "p.Test" + strconv.Itoa(t), File: "/src/p/p_test.go", Line: t + 1}, {Func: "testing.tRunner", File: "/go/src/testing/testing.go", Line: 1}}
	}
	for t := 0; t < tests; t++ {
		for n := 1; n <= sizes; n++ {
			s.Mark("Test"+strconv.Itoa(t)+"/n="+strconv.Itoa(n), 10)
			for k := 0; k < n/10+1; k++ {
				s.Event(first+uint32(k%4), stack(t, k%4), "v", 10)
			}
		}
	}
	data := s.Bytes()
	b.ResetTimer()
	summarizePeak(b, data, Options{}, nil, func(sum *Summary, out string) {
		if len(sum.Groups) == 0 || len(sum.Groups[0].SubTraces) != tests*sizes || out == "" {
			b.Fatalf("%d groups; want %d sub-traces", len(sum.Groups), tests*sizes)
		}
	})
	b.ReportMetric(float64(tests*sizes), "marks")
}

// BenchmarkSummaryAllLevelsDistinct renders every level of a trace whose
// values are all distinct, over 16 goroutine groups and 4 sub-traces
// (400,000 events, 16 MB).
func BenchmarkSummaryAllLevelsDistinct(b *testing.B) {
	const groups, perSub = 16, 100000
	s := testtrace.NewSynth("values")
	first := s.Getters(8, false)
	v := 0
	for sub := 1; sub <= 4; sub++ {
		s.Mark("size "+strconv.Itoa(sub), 10)
		for i := 0; i < perSub; i++ {
			g := i % groups
			stack := []testtrace.Frame{{Func: "p.T.M" + strconv.Itoa(i%8), File: "/src/p/t.go", Line: i%8 + 1},
				{Func: "main.worker" + strconv.Itoa(g), File: "/src/main.go", Line: g + 1}}
			v++
			s.Event(first+uint32(i%8), stack, "value "+strconv.Itoa(v), 10)
		}
	}
	data := s.Bytes()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sum, out := summarizeData(b, data, Options{}, Levels)
		if len(sum.Groups) != groups || len(out) == 0 {
			b.Fatalf("%d groups; want %d", len(sum.Groups), groups)
		}
		b.ReportMetric(float64(len(out)), "bytes-printed")
	}
	b.ReportMetric(float64(len(data)), "trace-bytes")
}

// BenchmarkSummary100M summarizes a synthetic trace of 10^8 events (64
// call sites of 4 getters in 4 marked sub-traces, 1.2 GB), streamed.
// It takes minutes and gigabytes: only with SUNCAT_BENCH_LARGE=1.
//
//	SUNCAT_BENCH_LARGE=1 go test -run '^$' -bench Summary100M -benchtime 1x -benchmem -timeout 60m ./prioritize
func BenchmarkSummary100M(b *testing.B) {
	if os.Getenv("SUNCAT_BENCH_LARGE") == "" {
		b.Skip("SUNCAT_BENCH_LARGE=1 runs it")
	}
	const perSub = 25_000_000
	s := testtrace.NewSynth("big")
	g := s.Getters(4, false)
	stacks := make([][]testtrace.Frame, 64)
	for i := range stacks {
		stacks[i] = []testtrace.Frame{{Func: "p.T.M", File: "/p/t.go", Line: 3},
			{Func: "p.loop" + strconv.Itoa(i), File: "/p/l.go", Line: i + 1}, {Func: "main.main", File: "/main.go", Line: 9}}
	}
	for size := 1; size <= 4; size++ {
		s.Mark("size "+strconv.Itoa(size), 1)
		for n := 0; n < perSub; {
			for i := 0; i < 64 && n < perSub; i++ {
				for k := 0; k < 1+i%4*size && n < perSub; k++ {
					s.Event(g+uint32(i%4), stacks[i], strconv.Itoa(k%3), 1)
					n++
				}
			}
		}
	}
	data := s.Bytes()
	s = nil
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sum, _ := summarizeData(b, data, Options{}, nil)
		if sum.Groups[0].Events != 4*perSub {
			b.Fatalf("%d events summarized; want %d", sum.Groups[0].Events, 4*perSub)
		}
	}
	b.ReportMetric(4*perSub, "events")
}
