package tui

import (
	"strings"
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/prioritize"
)

// Benchmarks of opening a 10^6-event trace in the viewer (decode,
// summarize, first screen) against `suncat summary` on it (decode,
// summarize, the text of every level), in the same run:
//
//	go test -run '^$' -bench . -benchtime 3x ./tui

func bigTrace(b *testing.B) string {
	p, err := testtrace.Shared(1000000)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func load(b *testing.B, path string) *prioritize.Summary {
	tr, err := logrt.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	s, err := prioritize.Build([]*logrt.Trace{tr}, prioritize.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkSummaryText1M(b *testing.B) {
	path := bigTrace(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := load(b, path)
		var out strings.Builder
		for _, g := range s.Groups {
			out.WriteString(prioritize.Text(g, prioritize.Levels, prioritize.SummarizeOptions{Min: 3}, "kind", nil))
		}
	}
}

func BenchmarkViewFirstScreen1M(b *testing.B) {
	path := bigTrace(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := New(func() (*prioritize.Summary, error) { return load(b, path), nil }, "big")
		s, err := m.load()
		m.Update(loadedMsg{s, err})
		if !strings.Contains(m.View(), "1 Patterns") {
			b.Fatal("no first screen")
		}
	}
}
