package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// busapp is the bus app's recorded scenario (four stops opened, one
// sub-trace each), summarized by prioritize and adapted for the viewer.
func busapp(t testing.TB) (*prioritize.Summary, Summary) {
	tr, err := tracefile.ReadFile("../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	s, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{Sources: prioritize.NewSources(os.ReadFile)})
	if err != nil {
		t.Fatal(err)
	}
	return s, FromPrioritize(s)
}

func TestFromPrioritize(t *testing.T) {
	ps, s := busapp(t)
	gs := s.Groups()
	if len(gs) != len(ps.Groups) {
		t.Fatalf("%d groups, want %d", len(gs), len(ps.Groups))
	}
	for i, g := range gs {
		pg := ps.Groups[i]
		if g.Header != prioritize.Header(pg) || len(g.Terminals) != len(pg.Terminals) || len(g.SubTraces) != len(pg.SubTraces) {
			t.Errorf("group %d: %q, %d terminals, %d sub-traces", i, g.Header, len(g.Terminals), len(g.SubTraces))
		}
		// The rules print as the Full Grammar does.
		var lines []string
		for _, r := range g.Rules {
			lines = append(lines, formatRule(r))
		}
		if got, want := strings.Join(lines, "\n")+"\n", pg.Grammar.String(); got != want {
			t.Errorf("group %d grammar:\n%s\nwant:\n%s", i, got, want)
		}
		for j, pt := range pg.Terminals {
			ct := g.Terminals[j]
			if ct.Letter != pt.Letter || ct.Total != pt.Total || len(ct.Values) != len(pt.Values) || len(ct.Frames) != len(pt.Frames) ||
				ct.Counts != prioritize.CountLine(pt) ||
				ct.Getter != pt.Getter.Package+"."+pt.Getter.Name() {
				t.Errorf("terminal %s: %+v", pt.Letter, ct)
			}
		}
		for _, by := range s.SortKeys() {
			want := append([]prioritize.Pattern(nil), pg.Patterns...)
			prioritize.SortPatterns(want, by)
			got := s.Patterns(i, by)
			for k := range want {
				if got[k].Symbol != want[k].Symbol || got[k].Rule != want[k].Rule || got[k].Kind != want[k].Kind.String() || got[k].Notation != want[k].Notation() {
					t.Errorf("group %d by %s: pattern %d is %s in %s, want %s in %s", i, by, k, got[k].Symbol, got[k].Rule, want[k].Symbol, want[k].Rule)
				}
			}
		}
		for _, p := range pg.Patterns {
			want := prioritize.PatternValues(pg, p)
			got := s.Values(i, p.Terminals)
			if len(got) != len(want) {
				t.Fatalf("values of %s: %d sub-traces, want %d", p.Symbol, len(got), len(want))
			}
			for k := range want {
				if len(got[k]) != len(want[k]) || len(want[k]) > 0 && (got[k][0].Value != want[k][0].Value || got[k][0].Count != want[k][0].Count) {
					t.Errorf("values of %s in sub-trace %d: %v, want %v", p.Symbol, k, got[k], want[k])
				}
			}
		}
		sum := s.Summarized(i, 3, false)
		if want := prioritize.SummarizedGrammar(pg.Grammar, prioritize.SummarizeOptions{Min: 3}); strings.Join(sum, "\n") != strings.Join(want, "\n") {
			t.Errorf("summarized %q, want %q", sum, want)
		}
		// With nothing elided, the items' Max are the Summarized Grammar.
		var maxes []string
		for _, r := range g.Rules {
			line := r.Name + " ->"
			for _, it := range r.Items {
				line += " " + it.Max
			}
			maxes = append(maxes, line)
		}
		if want := prioritize.SummarizedGrammar(pg.Grammar, prioritize.SummarizeOptions{Min: 1}); strings.Join(maxes, "\n") != strings.Join(want, "\n") {
			t.Errorf("items' Max:\n%s\nwant:\n%s", strings.Join(maxes, "\n"), strings.Join(want, "\n"))
		}
	}
}

// On the bus app, the viewer opens on the leaking observer's stop-name
// getter, growing by one per sub-trace, with one stop name per sub-trace.
func TestBusAppScreen(t *testing.T) {
	_, s := busapp(t)
	tm := startSized(t, s, 80, 24)
	m := final(t, tm)
	screen := m.View()
	for _, want := range []string{"› incr  a^2|3|4", "terminal a (*Stop).Name", "▂▄▆█  1 2 3 4", `4× "University St"`} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	if m.DelayDir() == "" || !strings.HasSuffix(m.DelayDir(), "testdata/busapp") {
		t.Errorf("delay dir %q, want the bus app's main package", m.DelayDir())
	}
	requireGolden(t, []byte(screen+"\n"))
}

// The main flows on the bus app's summary.
func TestBusAppFlows(t *testing.T) {
	_, s := busapp(t)
	t.Run("context and drill", func(t *testing.T) {
		tm := startSized(t, s, 80, 24)
		keys(tm, "c", "backspace", "j", "enter") // where a^2|3|4 is, back, into F
		m := final(t, tm)
		if m.view != fullView || strings.Join(m.crumbs(m.view), ">") != "S>B>F" {
			t.Errorf("view %s, crumbs %v", viewNames[m.view], m.crumbs(m.view))
		}
	})
	t.Run("search a stop name", func(t *testing.T) {
		tm := startSized(t, s, 80, 24)
		keys(tm, "4", "/")
		tm.Type("pioneer")
		keys(tm, "enter")
		m := final(t, tm)
		for _, r := range m.cur().list().rows {
			if !strings.Contains(m.data.searchText(r.sym), "pioneer square") {
				t.Errorf("row %s does not match", r.sym)
			}
		}
		if len(m.cur().list().rows) == 0 || len(m.cur().list().rows) == len(m.data.g.Terminals) {
			t.Errorf("%d rows of %d", len(m.cur().list().rows), len(m.data.g.Terminals))
		}
	})
	t.Run("mark a nested pattern", func(t *testing.T) {
		tm := startSized(t, s, 80, 24)
		keys(tm, "j", "space") // F^2|3|4: the serialization, three getters
		m := final(t, tm)
		want := "suncat delay --getter 'example.com/busapp/model.(*Route).ShortName' --getter 'example.com/busapp/model.(*Stop).Code' --getter 'example.com/busapp/model.(*Stop).Name' -d 1ms -run ."
		if got := m.DelayCommand(); got != want {
			t.Errorf("command\n%s\nwant\n%s", got, want)
		}
	})
}

// TestFromPrioritizeRun: a summary restricted with -run reaches the viewer
// with the kept sub-traces only, their labels and counts.
func TestFromPrioritizeRun(t *testing.T) {
	tr, err := tracefile.ReadFile("../testdata/traces/marks.suncat")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{Run: "sub[12]"})
	if err != nil {
		t.Fatal(err)
	}
	g := FromPrioritize(ps).Groups()[0]
	if got := strings.Join(g.SubTraces, ","); got != "sub1,sub2" {
		t.Errorf("sub-traces %s, want sub1,sub2", got)
	}
	if a := g.Terminals[0]; a.NSub != 2 || a.PerSub()[0] != 2 || a.PerSub()[1] != 3 {
		t.Errorf("terminal a per sub-trace %v, want [2 3]", a.PerSub())
	}
	if !strings.Contains(g.Header, "1 outside sub-traces left out") {
		t.Errorf("header %q does not count the dropped sub-trace's event", g.Header)
	}
	// Two sizes cannot show growth: the Findings say so in one line.
	if f := FromPrioritize(ps).Findings(); len(f.Sites) != 0 || !strings.HasPrefix(f.None, "no growth class ("+ps.Findings.Note) || ps.Findings.Note == "" {
		t.Errorf("findings of two sub-traces: %d sites, %q", len(f.Sites), f.None)
	}
}

// On the bus app, the Findings show the two planted defects, one row
// each: (*ViewState).visit's loop over the recently-viewed list (three
// getters) and SetCurrent's observers; enter shows the first one's
// terminals in the Count view.
func TestBusAppFindings(t *testing.T) {
	ps, s := busapp(t)
	f := s.Findings()
	want := ps.Findings.Findings
	if len(f.Sites) != len(want) || len(f.Sites) != 2 || f.None != "" {
		t.Fatalf("%d rows (none: %q), want the %d findings", len(f.Sites), f.None, len(want))
	}
	for i, row := range f.Sites {
		d := want[i]
		if row.Class != prioritize.ClassText(d.Fit.Class) || !strings.HasPrefix(row.Name, d.Sites[0].Name) || row.Where != prioritize.WhereText(d.Sites[0]) ||
			len(row.Stack) != d.Sites[0].Responsible+1 || fmt.Sprint(row.Counts) != fmt.Sprint(d.Counts) {
			t.Errorf("row %d: %+v, want %s %s at %s", i, row, d.Fit.Class, d.Sites[0].Name, prioritize.FrameString(d.Frame))
		}
	}
	if p := f.Sites[0].Prediction; !strings.Contains(p, "..") || !strings.HasSuffix(p, "(linear or n log n)") {
		t.Errorf("top row's prediction %q, want a range between two classes", p)
	}
	if f.Sites[0].Name != "(*Stop).Name +2" || !strings.HasPrefix(f.Sites[0].Covers, "3 getters, 1 caller") {
		t.Errorf("top row %q covers %q", f.Sites[0].Name, f.Sites[0].Covers)
	}
	if !strings.Contains(f.Sizes, "sizes from labels: 1, 2, 3, 4, predicted at 40") || f.Target != "40" {
		t.Errorf("sizes %q, target %q", f.Sizes, f.Target)
	}
	tm := open(t, s, 100, 30)
	keys(tm, "enter", "4")
	m := final(t, tm)
	top := f.Sites[0]
	if top.Class != "linear" || !strings.HasPrefix(top.Where, "model.(*ViewState).visit") {
		t.Errorf("top row %s %s at %s, want visit's loop, linear", top.Name, top.Class, top.Where)
	}
	got := rows(m)
	if len(got) != 3 || len(top.Letters) != 3 || !strings.Contains(strings.Join(got, "\n"), "(*Stop).Name        model.(*ViewState).visit") {
		t.Errorf("the site's stacks:\n%s", strings.Join(got, "\n"))
	}
}

// TestPatternsKept: a summary that kept only the first patterns of a
// group says so on the Patterns view's status line, and an item of the
// grammar whose pattern was made one with an equal item's finds it.
func TestPatternsKept(t *testing.T) {
	ps, _ := busapp(t)
	g := ps.Groups[0]
	all := len(g.Patterns)
	var more [4]int
	g.Patterns, more = prioritize.TopPatterns(g, 3)
	g.MorePatterns = more[0] + more[1] + more[2] + more[3]
	if g.MorePatterns != all-3 {
		t.Fatalf("%d more patterns, want %d", g.MorePatterns, all-3)
	}
	s := FromPrioritize(ps)
	if got := s.Groups()[0].MorePatterns; got != all-3 {
		t.Errorf("viewer's group: %d more patterns, want %d", got, all-3)
	}
	tm := startSized(t, s, 120, 24)
	want := fmt.Sprintf("first 3 of %d patterns (-top)", all)
	waitFor(t, tm, want)
	// D^2|3 in B, the third: it also appears as D^2 in A, whose pattern
	// (constant) was not kept; the details still show the item.
	keys(tm, "j", "j")
	waitFor(t, tm, "A -> D^2")
	m := final(t, tm)
	if got := rows(m); len(got) != 3 {
		t.Errorf("%d rows, want the 3 kept: %q", len(got), got)
	}
	// Each kept pattern is found at its place; no place finds a pattern
	// of another rule or notation.
	d := m.data
	found := 0
	for _, r := range d.g.Rules {
		for i, it := range r.Items {
			p := d.pattern(r.Name, i)
			if p == nil {
				continue
			}
			found++
			if p.Rule != r.Name || p.Notation != it.Notation {
				t.Errorf("%s item %d (%s): pattern %s in %s", r.Name, i, it.Notation, p.Notation, p.Rule)
			}
		}
	}
	if found < 3 {
		t.Errorf("%d items found their pattern, want at least 3", found)
	}
	// A place without a pattern of its own (one made of equal places
	// keeps the first) finds the pattern of the equal place.
	p := m.data.sum.Patterns(0, "kind")[0]
	delete(d.patterns, patPos{p.Rule, p.Position})
	if got := d.pattern(p.Rule, p.Position); got == nil || got.Notation != p.Notation {
		t.Errorf("%s at %d without its own: %v", p.Notation, p.Position, got)
	}
}

// TestGrammarCut: a summary whose grammar kept the first 2 items of each
// rule shows them, ends the rules cut in "...", says on the status line
// what was left out, and still knows every terminal a cut rule covers.
func TestGrammarCut(t *testing.T) {
	tr, err := tracefile.ReadFile("../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	build := func(items int) Summary {
		s, err := prioritize.Build([]*tracefile.Trace{tr}, prioritize.Options{Split: "none", Items: items})
		if err != nil {
			t.Fatal(err)
		}
		return FromPrioritize(s)
	}
	cut, whole := build(2), build(-1)
	g, wg := cut.Groups()[0], whole.Groups()[0]
	if len(g.Rules) != len(wg.Rules) || g.Rules[0].More != len(wg.Rules[0].Items)-2 || g.Rules[0].More == 0 {
		t.Fatalf("S: %d items and %d more, want 2 of %d", len(g.Rules[0].Items), g.Rules[0].More, len(wg.Rules[0].Items))
	}
	d, wd := newGroupData(cut, 0, &g), newGroupData(whole, 0, &wg)
	for i, r := range g.Rules {
		if len(r.Items) > 2 || r.More != len(wg.Rules[i].Items)-len(r.Items) {
			t.Errorf("rule %s: %d items and %d more, want 2 of %d", r.Name, len(r.Items), r.More, len(wg.Rules[i].Items))
		}
		if got, want := strings.Join(d.cover(r.Name), " "), strings.Join(wd.cover(r.Name), " "); got != want {
			t.Errorf("rule %s covers %s, want %s", r.Name, got, want)
		}
	}
	tm := open(t, cut, 120, 30)
	keys(tm, "3")
	waitFor(t, tm, "more items in")
	keys(tm, "enter")
	waitFor(t, tm, fmt.Sprintf("first 2 of %d items (-top)", len(wg.Rules[0].Items)))
	m := final(t, tm)
	if got := rows(m); len(got) != 2 {
		t.Errorf("S drilled into: %d rows, want its 2 kept items: %q", len(got), got)
	}
}

// TestGrammarCutStatus: the grammar views' status line counts the items
// left out of the rules, singular and plural, and says nothing when no
// rule was cut.
func TestGrammarCutStatus(t *testing.T) {
	for _, c := range []struct {
		more []int // each rule's items left out
		want string
	}{
		{[]int{0, 0}, ""},
		{[]int{1, 0}, "1 more item in 1 rule (-top)"},
		{[]int{0, 2}, "2 more items in 1 rule (-top)"},
		{[]int{3, 2}, "5 more items in 2 rules (-top)"},
	} {
		s := newFake()
		g := s.groups[0]
		g.Rules = append([]Rule(nil), g.Rules...)
		for i, n := range c.more {
			g.Rules[i].More = n
		}
		m := grammarModel{listModel: listModel{common: &common{data: newGroupData(s, 0, &g)}}}
		if got := m.cut(); got != c.want {
			t.Errorf("rules cut by %v: %q, want %q", c.more, got, c.want)
		}
	}
}
