package grammar

import (
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"testing"
)

// Benchmarks of the fast engine on generated traces, and of the reference
// engine on small ones for comparison. The 10^7-event cases take several
// seconds per iteration; they run only with SUNCAT_BENCH_LARGE=1.
//
//	go test -run '^$' -bench . -benchmem ./grammar
//	SUNCAT_BENCH_LARGE=1 go test -run '^$' -bench . -benchmem -benchtime 1x ./grammar

func benchBuild(b *testing.B, tr *Trace, opt Options) {
	events := 0
	for _, s := range tr.Subs {
		events += len(s)
	}
	var before, after runtime.MemStats
	b.ReportAllocs()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Build(tr, opt)
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(events), "B/event")
}

var benchSizes = []int{1e4, 1e5, 1e6, 1e7}

func BenchmarkFast(b *testing.B) {
	for _, kind := range []string{"short-loops", "nested", "ladder"} {
		for _, n := range benchSizes {
			if n >= 1e7 && os.Getenv("SUNCAT_BENCH_LARGE") == "" {
				continue
			}
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				benchBuild(b, benchTrace(kind, n), Options{})
			})
		}
	}
}

func BenchmarkReference(b *testing.B) {
	for _, kind := range []string{"short-loops", "nested"} {
		for _, n := range []int{1e4, 5e4} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				benchBuild(b, benchTrace(kind, n), Options{Reference: true})
			})
		}
	}
}

func benchTrace(kind string, n int) *Trace {
	r := rand.New(rand.NewSource(42))
	switch kind {
	case "nested":
		return genNested(r, n, 4)
	case "ladder":
		return genLadder(r, n, 1000)
	}
	return genShortLoops(r, n, 4)
}

// BenchmarkLadderCompacting runs the ladder trace with the hole scan turned
// off (the list is compacted before every period's scan), to show what the
// hole scan buys on squares of many periods: O(len^1.5) against near-linear.
func BenchmarkLadderCompacting(b *testing.B) {
	defer func(c int64) { holeScanCost = c }(holeScanCost)
	holeScanCost = 1 << 62
	for _, n := range []int{1e5, 1e6} {
		b.Run(fmt.Sprintf("ladder/%d", n), func(b *testing.B) {
			benchBuild(b, benchTrace("ladder", n), Options{})
		})
	}
}
