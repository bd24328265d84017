package prioritize

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

func TestSplitRun(t *testing.T) {
	cases := []struct {
		pattern string
		want    [][]string
	}{
		{"TestSearch", [][]string{{"TestSearch"}}},
		{"TestSearch/n=4/deep", [][]string{{"TestSearch", "n=4", "deep"}}},
		{"TestSearch/", [][]string{{"TestSearch", ""}}},
		{"/x", [][]string{{"", "x"}}},
		// Slashes and bars inside a class or a group do not cut.
		{"T/[/|]x", [][]string{{"T", "[/|]x"}}},
		{"(a/b|c)/d", [][]string{{"(a/b|c)", "d"}}},
		{"[(]/x", [][]string{{"[(]", "x"}}}, // a '(' in a class opens no group
		// Escaped separators stay.
		{`a\/b\|c`, [][]string{{`a\/b\|c`}}},
		// An unmatched ']' is an ordinary byte.
		{"a]/b", [][]string{{"a]", "b"}}},
		// Top-level '|' separates alternatives, each with its own levels.
		{"TestA/x|TestB", [][]string{{"TestA", "x"}, {"TestB"}}},
		{"a||b", [][]string{{"a"}, {""}, {"b"}}},
	}
	for _, tc := range cases {
		if got := splitRun(tc.pattern); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitRun(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

func TestRunMatch(t *testing.T) {
	labels := []string{"TestSearch", "TestSearch/n=1", "TestSearch/n=4", "TestSearch/n=40", "TestSearch/n=4/deep",
		"TestSearchAll", "TestOther", "TestOther/n=4", "T/a|b", "T/n_4", "T/x"}
	cases := []struct {
		pattern string
		want    []string // the labels kept
	}{
		{"", labels},
		// Unanchored at each level.
		{"Search", []string{"TestSearch", "TestSearch/n=1", "TestSearch/n=4", "TestSearch/n=40", "TestSearch/n=4/deep", "TestSearchAll"}},
		// The parent runs (as go test runs it to reach its subtests), and
		// deeper subtests match as far as the pattern goes.
		{"TestSearch/n=4", []string{"TestSearch", "TestSearch/n=4", "TestSearch/n=40", "TestSearch/n=4/deep", "TestSearchAll"}},
		{"^TestSearch$/^n=4$", []string{"TestSearch", "TestSearch/n=4", "TestSearch/n=4/deep"}},
		{"^TestSearch$/^n=4$/x", []string{"TestSearch", "TestSearch/n=4"}},
		{"TestSearch$/", []string{"TestSearch", "TestSearch/n=1", "TestSearch/n=4", "TestSearch/n=40", "TestSearch/n=4/deep"}},
		// Any subtest at level 2 named n=4, whatever its parent.
		{"/^n=4$", []string{"TestSearch", "TestSearch/n=4", "TestSearch/n=4/deep", "TestSearchAll", "TestOther", "TestOther/n=4"}},
		// A class with a slash, a group with a bar: one level each.
		{"^T$/[/x]", []string{"T/x"}},
		{"^(TestOther|T)$/(n|x)", []string{"TestOther", "TestOther/n=4", "T/n_4", "T/x"}},
		// Alternatives.
		{"^TestOther$|^TestSearch$/n=1", []string{"TestSearch", "TestSearch/n=1", "TestOther", "TestOther/n=4"}},
		// An escaped bar is a bar in the label, not an alternative.
		{`^T$/a\|b`, []string{"T/a|b"}},
		// Spaces are rewritten to '_' as t.Run rewrites names.
		{"^T$/n 4", []string{"T/n_4"}},
		{"Nothing", nil},
	}
	for _, tc := range cases {
		f, err := compileRun(tc.pattern)
		if err != nil {
			t.Errorf("-run %q: %v", tc.pattern, err)
			continue
		}
		var got []string
		for _, l := range labels {
			if f.match(l) {
				got = append(got, l)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("-run %q keeps %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

func TestRunBadRegexp(t *testing.T) {
	cases := []struct{ pattern, want string }{
		{"Test[", `Run "Test[": level 1 ("Test["): error parsing regexp: missing closing ]`},
		{"TestA/(", `Run "TestA/(": level 2 ("("): error parsing regexp: missing closing )`},
		{"A|B/x/*", `Run "A|B/x/*": alternative 2, level 3 ("*"): error parsing regexp: missing argument to repetition operator`},
	}
	for _, tc := range cases {
		_, err := compileRun(tc.pattern)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("-run %q: error %v, want %q...", tc.pattern, err, tc.want)
		}
		// Build reports it even on an empty trace, as the viewer checks
		// its options before taking over the terminal.
		if _, err := Build([]*tracefile.Trace{{}}, Options{Run: tc.pattern}); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Build -run %q on an empty trace: error %v, want %q...", tc.pattern, err, tc.want)
		}
	}
	// An empty trace has no labels: nothing to match, no error.
	if _, err := Build([]*tracefile.Trace{{}}, Options{Run: "Nothing"}); err != nil {
		t.Errorf("Build -run Nothing on an empty trace: %v", err)
	}
}

// testsTrace is a trace as suncat test records one test binary: a mark
// with each test's full name before its first event; the parent
// TestSearch's label comes back after a subtest when it records events
// there. X runs before any test.
func testsTrace() *tracefile.Trace {
	return synthetic("X@init |TestSearch/n=1 A@f |TestOther A@f A@f A@f A@f A@f |TestSearch/n=2 A@f A@f "+
		"|TestSearch C@h |TestSearch/n=4 A@f A@f A@f A@f |TestSearch/n=4/deep D@k", nil)
}

func TestBuildRun(t *testing.T) {
	cases := []struct {
		run    string
		labels []string
		events []int // per kept sub-trace
		perA   []int // calls of (*T).A per kept sub-trace
		left   int
		kindA  Kind
	}{
		{"", []string{"TestSearch/n=1", "TestOther", "TestSearch/n=2", "TestSearch", "TestSearch/n=4", "TestSearch/n=4/deep"},
			[]int{1, 5, 2, 1, 4, 1}, []int{1, 5, 2, 0, 4, 0}, 1, Varying},
		{"Search", []string{"TestSearch/n=1", "TestSearch/n=2", "TestSearch", "TestSearch/n=4", "TestSearch/n=4/deep"},
			[]int{1, 2, 1, 4, 1}, []int{1, 2, 0, 4, 0}, 6, Increasing},
		{"TestSearch/n=", []string{"TestSearch/n=1", "TestSearch/n=2", "TestSearch", "TestSearch/n=4", "TestSearch/n=4/deep"},
			[]int{1, 2, 1, 4, 1}, []int{1, 2, 0, 4, 0}, 6, Increasing},
		{"TestSearch/n=4", []string{"TestSearch", "TestSearch/n=4", "TestSearch/n=4/deep"},
			[]int{1, 4, 1}, []int{0, 4, 0}, 9, Constant},
		{"TestSearch/n=4/x", []string{"TestSearch", "TestSearch/n=4"},
			[]int{1, 4}, []int{0, 4}, 10, Constant},
		{"TestOther|^TestSearch$/n=1", []string{"TestSearch/n=1", "TestOther", "TestSearch"},
			[]int{1, 5, 1}, []int{1, 5, 0}, 8, Increasing},
	}
	for _, tc := range cases {
		s, err := Build([]*tracefile.Trace{testsTrace()}, Options{Run: tc.run})
		if err != nil {
			t.Errorf("-run %q: %v", tc.run, err)
			continue
		}
		if s.Run != tc.run {
			t.Errorf("-run %q: Summary.Run %q", tc.run, s.Run)
		}
		g := s.Groups[0]
		var labels []string
		var events []int
		for _, st := range g.SubTraces {
			labels = append(labels, st.Label)
			events = append(events, st.Events)
		}
		if !reflect.DeepEqual(labels, tc.labels) || !reflect.DeepEqual(events, tc.events) {
			t.Errorf("-run %q: sub-traces %q with %v events, want %q with %v", tc.run, labels, events, tc.labels, tc.events)
		}
		total := 0
		for _, n := range tc.events {
			total += n
		}
		if g.Left != tc.left || g.Events != total {
			t.Errorf("-run %q: %d events, %d left, want %d and %d", tc.run, g.Events, g.Left, total, tc.left)
		}
		a := terminalByName(g, "(*T).A")
		if a == nil {
			t.Errorf("-run %q: no terminal (*T).A", tc.run)
			continue
		}
		if !reflect.DeepEqual(a.PerSub(), tc.perA) || a.NumSubs() != len(tc.labels) {
			t.Errorf("-run %q: (*T).A per sub-trace %v (%d sub-traces), want %v", tc.run, a.PerSub(), a.NumSubs(), tc.perA)
		}
		// Terminals are lettered over the kept sub-traces only: the first
		// event kept is a.
		if g.Terminals[0].Name != firstKeptName(tc.run) {
			t.Errorf("-run %q: terminal a is %s", tc.run, g.Terminals[0].Name)
		}
		p, ok := terminalPattern(g, a.Letter)
		if !ok {
			t.Errorf("-run %q: no pattern for terminal %s", tc.run, a.Letter)
		} else if p.Kind != tc.kindA {
			t.Errorf("-run %q: pattern %s is %v (series %v), want %v", tc.run, p.Notation(), p.Kind, p.Series, tc.kindA)
		}
		// The grammar's observations name kept sub-traces only.
		for _, p := range g.Patterns {
			for _, o := range p.Obs {
				if int(o.Sub) >= len(tc.labels) {
					t.Errorf("-run %q: pattern %s observed in sub-trace %d of %d", tc.run, p.Notation(), o.Sub, len(tc.labels))
				}
			}
		}
	}
}

func firstKeptName(run string) string {
	if run == "TestSearch/n=4" || run == "TestSearch/n=4/x" {
		return "(*T).C" // TestSearch's own event comes first
	}
	return "(*T).A"
}

func terminalByName(g *Group, name string) *Terminal {
	for _, t := range g.Terminals {
		if t.Name == name {
			return t
		}
	}
	return nil
}

func terminalPattern(g *Group, letter string) (Pattern, bool) {
	for _, p := range g.Patterns {
		if p.Terminal && len(p.Terminals) == 1 && p.Terminals[0] == letter {
			return p, true
		}
	}
	return Pattern{}, false
}

func TestBuildRunErrors(t *testing.T) {
	_, err := Build([]*tracefile.Trace{testsTrace()}, Options{Run: "TestNope"})
	want := `Run "TestNope" matches no sub-trace; labels are: TestSearch/n=1, TestOther, TestSearch/n=2, TestSearch, TestSearch/n=4, TestSearch/n=4/deep`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	// Many labels: the first eight, and how many there are.
	var b strings.Builder
	for i := 0; i < 12; i++ {
		b.WriteString("|Test" + string(rune('A'+i)) + " A@f ")
	}
	_, err = Build([]*tracefile.Trace{synthetic(b.String(), nil)}, Options{Run: "Nope"})
	want = `Run "Nope" matches no sub-trace; labels are: TestA, TestB, TestC, TestD, TestE, TestF, TestG, TestH, ... (12 in all)`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestBuildRunOtherSplits: the filter matches whatever labels the split
// gives, and works across several traces (one per test binary).
func TestBuildRunOtherSplits(t *testing.T) {
	tr := synthetic("A@f A@f B@g A@f B@g A@f A@f A@f", map[int]int64{3: 1e9, 5: 1e9})
	s, err := Build([]*tracefile.Trace{tr}, Options{Split: "idle=500ms", Run: "episode [13]"})
	if err != nil {
		t.Fatal(err)
	}
	g := s.Groups[0]
	if len(g.SubTraces) != 2 || g.SubTraces[0].Label != "episode 1" || g.SubTraces[1].Label != "episode 3" || g.Left != 2 {
		t.Errorf("idle split, -run 'episode [13]': %+v, left %d", g.SubTraces, g.Left)
	}
	if _, err := Build([]*tracefile.Trace{tr}, Options{Split: "none", Run: "other"}); err == nil ||
		err.Error() != `Run "other" matches no sub-trace; labels are: synthetic` {
		t.Errorf("split none, -run other: error %v", err)
	}

	one, two := synthetic("|TestA A@f |TestB A@f A@f", nil), synthetic("|TestA A@f A@f A@f |TestC A@f", nil)
	one.Path, two.Path = "pkg1.suncat", "pkg2.suncat"
	one.Start, two.Start = time.Unix(10, 0), time.Unix(20, 0)
	s, err = Build([]*tracefile.Trace{two, one}, Options{Run: "TestA"})
	if err != nil {
		t.Fatal(err)
	}
	g = s.Groups[0]
	a := terminalByName(g, "(*T).A")
	if len(g.SubTraces) != 2 || g.SubTraces[0].Label != "TestA" || g.SubTraces[1].Label != "TestA" ||
		!reflect.DeepEqual(a.PerSub(), []int{1, 3}) || g.Left != 3 {
		t.Errorf("two traces, -run TestA: %+v, (*T).A %v, left %d", g.SubTraces, a.PerSub(), g.Left)
	}
}
