package prioritize

import (
	"fmt"
	"testing"
	"time"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
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
		tr, err := tracefile.ReadFile(path)
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
		tr, err := tracefile.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		s, err := Build([]*tracefile.Trace{tr}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(s.Groups[0].Events), "events")
	}
}

// BenchmarkSummaryVsDecode1M alternates, in every iteration, decoding the
// trace and decoding plus summarizing it, so both see the same load on a
// shared machine, and reports the ratio of the two (target: at most 3).
func BenchmarkSummaryVsDecode1M(b *testing.B) {
	path := bigTracePath(b)
	var decode, summary time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := tracefile.ReadFile(path); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		tr, err := tracefile.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Build([]*tracefile.Trace{tr}, Options{}); err != nil {
			b.Fatal(err)
		}
		decode += t1.Sub(t0)
		summary += time.Since(t1)
	}
	b.ReportMetric(float64(decode.Milliseconds())/float64(b.N), "decode-ms")
	b.ReportMetric(float64(summary.Milliseconds())/float64(b.N), "summary-ms")
	b.ReportMetric(float64(summary)/float64(decode), "ratio")
}

// BenchmarkFindingsShare1M measures, in every iteration, decoding and
// summarizing the 10^6-event trace (findings included, as Build does),
// then computing the findings of that summary again on their own, and
// reports the findings' share of the summary's time (target: at most
// 0.2):
//
//	go test -run '^$' -bench FindingsShare -benchtime 3x ./prioritize
func BenchmarkFindingsShare1M(b *testing.B) {
	path := bigTracePath(b)
	var summary, findings time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		tr, err := tracefile.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		s, err := Build([]*tracefile.Trace{tr}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := buildFindings(s, Options{}); err != nil {
			b.Fatal(err)
		}
		summary += t1.Sub(t0)
		findings += time.Since(t1)
	}
	b.ReportMetric(float64(summary.Milliseconds())/float64(b.N), "summary-ms")
	b.ReportMetric(float64(findings.Microseconds())/1000/float64(b.N), "findings-ms")
	b.ReportMetric(float64(findings)/float64(summary), "share")
}

// BenchmarkFindingsManySites: the findings of a summary with 2000 call
// sites over 20 sub-traces (the cost grows with sites x sub-traces).
func BenchmarkFindingsManySites(b *testing.B) {
	tb := newTrace("many.suncat")
	for sub := 1; sub <= 20; sub++ {
		tb.mark(fmt.Sprintf("size %d", sub*10))
		for site := 0; site < 2000; site++ {
			tb.add(call{"Name", []string{fmt.Sprintf("main.f%d@/app/f.go:%d", site, site)}, "main.main", "v"}, 1+(site%3)*sub/4)
		}
	}
	s, err := Build([]*tracefile.Trace{tb.tr}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := buildFindings(s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(s.Findings.Sites)), "sites")
}
