package tui

import (
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
)

// The viewer opens on the Findings: the growing sites, ranked, with the
// selected one's class, prediction and stack beside them.
func TestFindingsOpenFirst(t *testing.T) {
	tm := open(t, newFake(), 100, 30)
	m := final(t, tm)
	if m.view != findingsView {
		t.Fatalf("opened on %s", viewNames[m.view])
	}
	want := []string{
		"linear    4|5|6|7 → 43      main.(*app).bindStop (main.go:40)  (*Stop).Name",
		"linear    1|2|3|2 → 22      main.(*app).refresh (main.go:60)  (*Route).ShortName",
		"linear    3|3|4|4 → 14      main.(*app).showArrivals (main.go:44)  (*Arrival).Headsign",
	}
	if got := rows(m); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	screen := m.View()
	for _, s := range []string{"0 Findings", "finding main.(*app).bindStop", "grows as linear", "predicted calls: 43 at 40", "4× \"NE 65TH ST & OSWEGO\"", "sizes 1 2 3 4 (from the labels)"} {
		if !strings.Contains(screen, s) {
			t.Errorf("screen lacks %q:\n%s", s, screen)
		}
	}
	requireGolden(t, []byte(screen+"\n"))
}

// When nothing grows, the Findings say so in one line.
func TestFindingsNothingGrows(t *testing.T) {
	f := newFake()
	f.findings = Findings{None: "no call site grows with the input (sizes 1 2 3 4 from the labels)", Sizes: "sizes 1 2 3 4 (from the labels)"}
	tm := open(t, f, 80, 24)
	m := final(t, tm)
	lines := strings.Split(m.View(), "\n")
	if !strings.HasPrefix(lines[2], "no call site grows with the input") || len(m.cur().list().rows) != 0 {
		t.Errorf("first list line %q, %d rows", lines[2], len(m.cur().list().rows))
	}
	if !strings.Contains(m.View(), "sizes 1 2 3 4") {
		t.Errorf("the sizes are not shown:\n%s", m.View())
	}
}

// Enter on a site shows its patterns, and in the other views its stacks
// and strings; backspace returns to the Findings, esc widens the views again.
func TestFindingsEnter(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		view viewID
		rows []string // first words of the first rows
		n    int      // rows in all
	}{
		{"patterns", []string{"enter"}, patternsView, []string{"increasing a^4|5|6|7", "constant   A^4"}, 2},
		{"stacks", []string{"enter", "4"}, countView, []string{"a^4|5|6|7  (*Stop).Name"}, 1},
		{"strings", []string{"enter", "5"}, stringsView, []string{"a^4|5|6|7 in A", "a   (*Stop).Name"}, 2},
		{"third site", []string{"j", "j", "enter", "4"}, countView, []string{"e^3|3|4|4  (*Arrival).Headsign"}, 1},
		{"esc", []string{"enter", "esc"}, patternsView, []string{"increasing a^4|5|6|7", "increasing e", "increasing f"}, 13},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := open(t, newFake(), 80, 24)
			keys(tm, tt.keys...)
			m := final(t, tm)
			if m.view != tt.view {
				t.Fatalf("view %s, want %s", viewNames[m.view], viewNames[tt.view])
			}
			got := rows(m)
			if len(got) != tt.n {
				t.Fatalf("rows:\n%s\nwant %d", strings.Join(got, "\n"), tt.n)
			}
			for i, w := range tt.rows {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("row %d %q, want %q", i, got[i], w)
				}
			}
			if tt.name != "esc" && !strings.Contains(m.View(), "site ") {
				t.Errorf("the status line does not name the site:\n%s", m.View())
			}
		})
	}
}

func TestFindingsBack(t *testing.T) {
	tm := open(t, newFake(), 80, 24)
	keys(tm, "j", "j", "enter", "4", "backspace")
	m := final(t, tm)
	if m.view != findingsView || m.site != nil || !strings.Contains(m.Selected(), "(*Arrival).Headsign") {
		t.Errorf("back in %s, site %v, selected %q", viewNames[m.view], m.site, m.Selected())
	}
	tm = open(t, newFake(), 80, 24)
	keys(tm, "j", "j", "enter", "4", "backspace", "4")
	if m = final(t, tm); len(m.cur().list().rows) != 10 {
		t.Errorf("the Count view has %d rows after back, want all 10", len(m.cur().list().rows))
	}
}

// A site of another goroutine group opens that group.
func TestFindingsOtherGroup(t *testing.T) {
	tm := open(t, newFake(), 80, 24)
	keys(tm, "j", "enter")
	m := final(t, tm)
	if m.group != 1 || m.view != patternsView || len(m.cur().list().rows) != 2 {
		t.Errorf("group %d, view %s, rows %q", m.group, viewNames[m.view], rows(m))
	}
}

// Space on a site marks its getter for delay.
func TestFindingsMark(t *testing.T) {
	tm := open(t, newFake(), 80, 24)
	keys(tm, "space")
	m := final(t, tm)
	if got := strings.Join(m.MarkedGetters(), " "); got != "example.com/oba/model.(*Stop).Name" {
		t.Errorf("marked %q", got)
	}
	if !strings.Contains(m.View(), "* marked for delay") {
		t.Errorf("the details do not say it is marked:\n%s", m.View())
	}
}

// c on a finding goes where its first terminal appears in the Full
// Grammar, as on a terminal; on a finding of another group it says so.
func TestFindingsContext(t *testing.T) {
	tm := open(t, newFake(), 80, 24)
	keys(tm, "c")
	m := final(t, tm)
	if m.view != fullView || !strings.Contains(m.status, "a appears in A") {
		t.Errorf("view %s, status %q; want the Full Grammar, a appears in A", viewNames[m.view], m.status)
	}
	tm = open(t, newFake(), 80, 24)
	keys(tm, "j", "c")
	m = final(t, tm)
	if m.view != findingsView || !strings.Contains(m.status, "another goroutine group") {
		t.Errorf("view %s, status %q", viewNames[m.view], m.status)
	}
}

// When the labels' sizes are those of several actions, the details of a
// finding say which, as the summary does under its heading, and so does
// the line of Findings that grow none; and they say when the time grows
// faster than every finding.
func TestFindingsMixedActions(t *testing.T) {
	const mixed = `the labels name 2 actions, each at several sizes ("loop n=", "hash n="): fitted together; -run '^loop n=' keeps one`
	f := newFake()
	f.findings.Mixed = mixed
	f.findings.Unseen = "the time grows as quadratic, no finding faster than linear: what grows is in code that records nothing"
	m := final(t, open(t, f, 100, 50))
	if screen := m.View(); !strings.Contains(screen, "the labels name 2 actions") || !strings.Contains(screen, "-run '^loop n=' keeps one") {
		t.Errorf("the details do not name the actions:\n%s", screen)
	}
	if screen := m.View(); !strings.Contains(screen, "records nothing") {
		t.Errorf("the details do not say the time grows faster than the findings:\n%s", screen)
	}
	a := &prioSummary{s: &prioritize.Summary{Findings: &prioritize.Findings{Sizes: []float64{1, 2}, SizesFrom: prioritize.SizesFromLabels}}}
	if got := a.Findings(); got.Mixed != "" {
		t.Errorf("findings of one action: Mixed %q, want none", got.Mixed)
	}
}

// A site whose counts rise at the largest size only is no finding; the
// details name it, as the summary does under its findings.
func TestFindingsJump(t *testing.T) {
	xs := []float64{25, 50, 100, 200}
	jump := &prioritize.Site{Name: "box.events", Frames: []tracefile.Frame{{Func: "main.main", File: "/src/main.go", Line: 21}},
		Counts: []int{5, 5, 5, 1000000}, Fit: prioritize.FitGrowth(xs, []float64{5, 5, 5, 1000000})}
	a := &prioSummary{s: &prioritize.Summary{Findings: &prioritize.Findings{Sizes: xs, SizesFrom: prioritize.SizesFromLabels, Sites: []*prioritize.Site{jump}}}}
	got := a.Findings()
	if !strings.Contains(got.Jump, "box.events at main.go:21") || !strings.Contains(got.None, got.Jump) {
		t.Fatalf("findings: Jump %q, None %q; want the site named in both", got.Jump, got.None)
	}
	f := newFake()
	f.findings.Jump = got.Jump
	f.findings.Uneven = "1 call site rises and falls unevenly (no class): conn.flushed at main.go:22 71|42|106|367"
	m := final(t, open(t, f, 100, 50))
	if screen := m.View(); !strings.Contains(screen, "rises and falls unevenly") {
		t.Errorf("the details do not name the site whose counts are uneven:\n%s", screen)
	}
	if screen := m.View(); !strings.Contains(screen, "rises at the largest size") || !strings.Contains(screen, "at main.go:21 5|5|5|1000000") {
		t.Errorf("the details do not name the site that rises at the largest size only:\n%s", screen)
	}
}
