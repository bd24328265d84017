package prioritize

import (
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt"
)

// Benchmarks of summarizing a 10^6-event trace against only decoding it,
// in the same run:
//
//	go test -run '^$' -bench . -benchtime 3x ./prioritize
//
// The trace is recorded once by logrt's test program (nested loops in four
// marked sub-traces).

func bigTracePath(b *testing.B) string {
	p, err := testtrace.Shared(1000000)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkDecode1M(b *testing.B) {
	path := bigTracePath(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := logrt.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(tr.Events)), "events")
	}
}

func BenchmarkSummary1M(b *testing.B) {
	path := bigTracePath(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := logrt.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		s, err := Build([]*logrt.Trace{tr}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(s.Groups[0].Events), "events")
	}
}
