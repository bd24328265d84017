package tui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// Benchmarks of opening a 10^6-event trace in the viewer (decode,
// summarize, adapt, first screen) against `suncat summary` on it (decode,
// summarize, the text of every level), in the same run, and of moving
// through a long list:
//
//	go test -run '^$' -bench . -benchtime 3x ./tui

func bigTrace(b *testing.B) string {
	p, err := testtrace.Shared(1000000)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func build(b *testing.B, path string) *prioritize.Summary {
	tr, err := tracefile.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	s, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// summaryText is what `suncat summary` does with a trace.
func summaryText(b *testing.B, path string) {
	s := build(b, path)
	var out strings.Builder
	for _, g := range s.Groups {
		out.WriteString(prioritize.Text(g, prioritize.Levels, prioritize.SummarizeOptions{Min: 3}, "kind", nil))
	}
}

// firstScreen is what `suncat view` does with a trace until the first
// screen is drawn.
func firstScreen(b *testing.B, path string) {
	m := New(func(func(Progress)) (Summary, error) { return FromPrioritize(build(b, path)), nil }, Options{})
	s, err := m.load(func(Progress) {})
	m.Update(loadedMsg{s, err})
	if !strings.Contains(m.View(), "1 Patterns") {
		b.Fatal("no first screen")
	}
}

func BenchmarkSummaryText1M(b *testing.B) {
	path := bigTrace(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		summaryText(b, path)
	}
}

func BenchmarkViewFirstScreen1M(b *testing.B) {
	path := bigTrace(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		firstScreen(b, path)
	}
}

// BenchmarkViewVsSummary1M alternates the two in each iteration, so that
// both see the same machine load, and reports the ratio (target: <= 1.5).
func BenchmarkViewVsSummary1M(b *testing.B) {
	path := bigTrace(b)
	var view, sum time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		summaryText(b, path)
		t1 := time.Now()
		firstScreen(b, path)
		sum += t1.Sub(t0)
		view += time.Since(t1)
	}
	b.ReportMetric(float64(sum.Milliseconds())/float64(b.N), "summary-ms/op")
	b.ReportMetric(float64(view.Milliseconds())/float64(b.N), "view-ms/op")
	b.ReportMetric(float64(view)/float64(sum), "view/summary")
}

// BenchmarkScroll is one key press (down) and the screen after it, on a
// list of 10^6 rows: it costs the same as on a short list.
func BenchmarkScroll(b *testing.B) {
	for _, n := range []int{100, 1000000} {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			f := manyTerminals(n)
			m := New(fakeLoader(f), Options{})
			m.Update(loadedMsg{f, nil})
			m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("4")})
			down := tea.KeyMsg{Type: tea.KeyDown}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Update(down)
				_ = m.View()
			}
		})
	}
}

// manyTerminals is a summary with n terminals, one sub-trace.
func manyTerminals(n int) *fakeSummary {
	g := Group{Name: "main.main", Header: "many", SubTraces: []string{"all"}}
	g.Terminals = make([]Terminal, n)
	items := make([]Item, n)
	ps := make([]Pattern, n)
	for i := range g.Terminals {
		l := "t" + strconv.Itoa(i)
		g.Terminals[i] = Terminal{Letter: l, Name: "(*T).Get", Getter: "m.(*T).Get", Frames: stack("(*T).Get", "run", i%50),
			Total: i%7 + 1, NSub: 1, Subs: []SubValues{{Sub: 0, Calls: i%7 + 1}}, Values: []Value{{"v" + strconv.Itoa(i), i%7 + 1}}}
		items[i] = item(l, true, i%7+1)
		ps[i] = Pattern{Symbol: l, Terminal: true, Rule: "S", Position: i, Counts: []int{i%7 + 1}, Series: []int{i%7 + 1}, Kind: "constant", Max: i%7 + 1, Terminals: []string{l}}
	}
	g.Rules = []Rule{{Name: "S", Items: items}}
	return notate(&fakeSummary{groups: []Group{g}, patterns: [][]Pattern{ps}})
}
