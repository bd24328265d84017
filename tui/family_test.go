package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// suite is the summary of a test suite's trace: TestFind/n=10..80 calls
// Name n times from find, BenchmarkPairs/size=#/op=all n² per op from
// pairs (b.N 10), TestCases/0..2 are indexes.
func suite(t *testing.T) (*prioritize.Summary, []*prioritize.Family, []prioritize.Unsized) {
	tr := &tracefile.Trace{Path: "suite.suncat",
		Getters: []tracefile.Getter{{ID: 1, Package: "example.com/lib", Receiver: "*Item", Method: "Name", File: "/src/lib/item.go", Line: 3}},
		Stacks: []tracefile.Stack{
			{ID: 1, Entry: "testing.tRunner", Frames: []tracefile.Frame{{Func: "example.com/lib.(*Item).Name", File: "/src/lib/item.go", Line: 3}, {Func: "example.com/lib.Find", File: "/src/lib/lib.go", Line: 9}}},
			{ID: 2, Entry: "testing.tRunner", Frames: []tracefile.Frame{{Func: "example.com/lib.(*Item).Name", File: "/src/lib/item.go", Line: 3}, {Func: "example.com/lib.Pairs", File: "/src/lib/lib.go", Line: 20}}},
		}}
	var seq uint64
	var now int64
	mark := func(label string) {
		now += 1000
		tr.Marks = append(tr.Marks, tracefile.Marker{Seq: seq, Time: now, Kind: tracefile.KindMark, Label: label})
		seq++
	}
	add := func(stack uint32, n int) {
		for i := 0; i < n; i++ {
			now += 1000
			tr.Events = append(tr.Events, tracefile.Event{Seq: seq, Time: now, Getter: 1, Stack: stack, Value: "x", Entry: "testing.tRunner"})
			seq++
		}
	}
	for _, n := range []int{10, 20, 40, 80} {
		mark(fmt.Sprintf("TestFind/n=%d", n))
		add(1, n)
	}
	for _, n := range []int{2, 4, 8, 16} {
		mark(fmt.Sprintf("BenchmarkPairs/size=%d/op=all (b.N=10)", n))
		add(2, n*n*10)
	}
	for i := 0; i < 3; i++ {
		mark(fmt.Sprintf("TestCases/%d", i))
		add(1, 5)
	}
	s, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fams, unsized, err := prioritize.Families(s, prioritize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s, fams, unsized
}

// The Findings of a test suite come per family, family name first, in
// the families' order, the details saying the family's sizes; the
// whole-run findings are not shown.
func TestFindingsPerFamily(t *testing.T) {
	s, fams, unsized := suite(t)
	tm := open(t, FromSuite(s, fams, unsized), 120, 50)
	m := final(t, tm)
	want := []string{
		"…Pairs/size=#/op=all, per op  quadratic 4|16|64|256 → 25600   lib.Pairs (lib.go:20)  (*Item).Name",
		"TestFind                      linear    10|20|40|80 → 800     lib.Find (lib.go:9)  (*Item).Name",
	}
	if got := rows(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	screen := m.View()
	for _, w := range []string{
		"Findings per test family: 2 of 2 families grow, ranked by their top finding; 1 other test(s) give no class",
		"in test family BenchmarkPairs/size=#/op=all,",
		"calls per size",
		"the test family",
		"labels: 2, 4, 8, 16; predicted at 160;",
	} {
		if !strings.Contains(screen, w) {
			t.Errorf("screen lacks %q:\n%s", w, screen)
		}
	}
	// The whole run's findings (sizes from positions) are not shown.
	if strings.Contains(screen, "positions") {
		t.Errorf("the whole run's findings are shown:\n%s", screen)
	}
}

// A suite without sizes says so, in the hint's words.
func TestFindingsNoFamily(t *testing.T) {
	s, _, unsized := suite(t)
	tm := open(t, FromSuite(s, nil, unsized), 120, 30)
	m := final(t, tm)
	if len(rows(m)) != 0 || !strings.Contains(m.View(), "no test family has sizes") {
		t.Errorf("rows %q, screen:\n%s", rows(m), m.View())
	}
}
