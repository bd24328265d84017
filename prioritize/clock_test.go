package prioritize

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// TestClockLoop: the loops paced by a clock, and those that are not, in
// small functions; "// at" marks the line asked about, "// loop" the
// loop expected (none: 0).
func TestClockLoop(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"ticker with a stop channel", `
	t := time.NewTicker(time.Second)
	for { // loop
		select {
		case <-t.C:
			work() // at
		case <-done:
			return
		}
	}`},
		{"ticker with ctx.Done()", `
	for { // loop
		select {
		case <-ctx.Done():
			return
		case <-s.ticker.C:
			work() // at
		}
	}`},
		{"sleep between turns", `
	for !s.stopped { // loop
		work() // at
		time.Sleep(time.Second)
	}`},
		{"range over time.Tick", `
	for range time.Tick(time.Second) { // loop
		work() // at
	}`},
		{"range over a ticker's channel", `
	for now := range t.C { // loop
		work(now) // at
	}`},
		{"time.After alone", `
	for { // loop
		<-time.After(time.Second)
		work() // at
	}`},
		{"the inner loop of a tick is inside the clock's", `
	for { // loop
		select {
		case <-t.C:
			for _, l := range levels {
				l.work() // at
			}
		case <-lc.HasBeenClosed():
			return
		}
	}`},
		{"a timeout beside work", `
	for {
		select {
		case j := <-jobs:
			work(j) // at
		case <-time.After(time.Second):
			return
		}
	}`},
		{"a ticker beside work", `
	for {
		select {
		case <-t.C:
			flush()
		case m := <-s.msgs:
			work(m) // at
		}
	}`},
		{"a counted loop that sleeps", `
	for i := 0; i < n; i++ {
		work() // at
		time.Sleep(time.Millisecond)
	}`},
		{"a range over items that sleeps", `
	for _, it := range items {
		work(it) // at
		time.Sleep(time.Millisecond)
	}`},
		{"a sleep in a goroutine the loop starts", `
	for {
		go func() { time.Sleep(time.Second) }()
		work() // at
		if done() {
			return
		}
	}`},
		{"a poller that sleeps when its queue is empty", `
	for {
		it := q.pop()
		if it == nil {
			time.Sleep(time.Millisecond)
			continue
		}
		work(it) // at
	}`},
		{"a select with a default does not wait", `
	for {
		select {
		case <-t.C:
			flush()
		case <-done:
			return
		default:
		}
		work() // at
	}`},
		{"a tick's time kept", `
	for { // loop
		now := <-t.C
		work(now) // at
	}`},
		{"no loop", `
	time.Sleep(time.Second)
	work() // at`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "package p\n\nimport \"time\"\n\nfunc f() {" + tc.body + "\n}\n"
			at, want := 0, 0
			for i, l := range strings.Split(src, "\n") {
				if strings.HasSuffix(l, "// at") {
					at = i + 1
				}
				if strings.HasSuffix(l, "// loop") {
					want = i + 1
				}
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			if got := findClockLoop(f, fset, at, "p.f"); got != want {
				t.Errorf("clock loop of line %d: %d, want %d\n%s", at, got, want, src)
			}
		})
	}
}

// TestClockLoopImportName: time.Sleep is known under the name the file
// imports time as, and not under another package's.
func TestClockLoopImportName(t *testing.T) {
	for _, tc := range []struct {
		imp  string
		want int
	}{{`import tm "time"`, 6}, {`import time "example.com/clock"`, 0}} {
		src := "package p\n\n" + tc.imp + "\n\nfunc f() {\n\tfor {\n\t\twork()\n\t\t" + strings.Fields(tc.imp)[1] + ".Sleep(1)\n\t}\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if got := findClockLoop(f, fset, 7, "p.f"); got != tc.want {
			t.Errorf("%s: clock loop %d, want %d\n%s", tc.imp, got, tc.want, src)
		}
	}
}

// TestClockFinding: four goroutines that tick every 50 ms from staggered
// starts (testdata/clock/tick.go, a key-value store's compactors in
// small) read a field more often than the run's time grows, while main's
// loop does the work, linear. The ticker's finding is marked, ranked
// after main's, says why, and check does not fail on it at -max linear;
// main's loop is not marked, though it sleeps, for its turns are counted.
func TestClockFinding(t *testing.T) {
	file, err := filepath.Abs(filepath.Join("testdata", "clock", "tick.go"))
	if err != nil {
		t.Fatal(err)
	}
	at := func(fn string, line int) string { return fmt.Sprintf("%s@%s:%d", fn, file, line) }
	summary := func(ticks []int) *Summary {
		b := newTrace("tick.suncat")
		for i, n := range []int{200, 400, 800, 1600} {
			b.mark(fmt.Sprintf("n=%d", n))
			b.add(call{"Level", []string{at("main.main", 40), "runtime.main@" + goroot + "runtime/proc.go:283"}, "runtime.main", "0"}, n)
			b.add(call{"Level", []string{at("main.compactor", 24), goexit}, "main.compactor", "0"}, ticks[i])
		}
		s, err := Build([]*tracefile.Trace{b.tr}, Options{Sources: NewSources(os.ReadFile)})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := summary([]int{33, 106, 308, 916})
	f := s.Findings
	if len(f.Findings) != 2 {
		t.Fatalf("%d findings, want 2:\n%s", len(f.Findings), FindingsList(f, 0))
	}
	first, second := f.Findings[0], f.Findings[1]
	if first.Frame.Func != "main.main" || first.Clock != "" {
		t.Errorf("first finding %s, clock %q; want main.main, no clock\n%s", first.Frame.Func, first.Clock, FindingsList(f, 0))
	}
	if second.Frame.Func != "main.compactor" || second.Clock != "tick.go:19" || second.Fit.Class <= ClassLinear {
		t.Errorf("second finding %s, clock %q, class %v; want main.compactor, tick.go:19, faster than linear\n%s",
			second.Frame.Func, second.Clock, second.Fit.Class, FindingsList(f, 0))
	}
	if text := FindingsList(f, 0); !strings.Contains(text, "paced by a clock: the loop at tick.go:19") {
		t.Errorf("the finding does not say it is paced by a clock:\n%s", text)
	}
	if r := RankText(f); !strings.HasSuffix(r, ", paced by a clock last") {
		t.Errorf("rank text %q", r)
	}
	c, err := Compare(nil, s, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := Gate{Max: ClassLinear}.Check(c)
	if len(fs) != 1 || !fs[0].Waived || fs[0].WaivedBy != WaivedClock || fs[0].Site.Head.Clock != "tick.go:19" {
		t.Errorf("failures at -max linear:\n%s", failureLines(fs))
	}
}
