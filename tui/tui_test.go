package tui

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
)

// The tests run the viewer at a fixed size without colors, so that the
// rendered screens can be compared as text.
func init() { lipgloss.SetColorProfile(termenv.Ascii) }

func fakeLoader(s Summary) Loader {
	return func(func(Progress)) (Summary, error) { return s, nil }
}

// startSized opens the viewer on s and goes to the Prioritized Patterns.
func startSized(t *testing.T, s Summary, w, h int) *teatest.TestModel {
	t.Helper()
	tm := open(t, s, w, h)
	keys(tm, "1")
	return tm
}

// open opens the viewer on s, on the Findings.
func open(t *testing.T, s Summary, w, h int) *teatest.TestModel {
	t.Helper()
	m := New(fakeLoader(s), Options{Title: "oba.suncat", Suncat: "/bin/false"})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	waitFor(t, tm, "0 Findings")
	return tm
}

func start(t *testing.T) *teatest.TestModel { return startSized(t, newFake(), 80, 24) }

func waitFor(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

// keys sends keys one by one: names of special keys, or runes.
func keys(tm *teatest.TestModel, ks ...string) {
	special := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "backspace": tea.KeyBackspace, "tab": tea.KeyTab,
		"shift+tab": tea.KeyShiftTab, "esc": tea.KeyEsc, "down": tea.KeyDown, "up": tea.KeyUp,
		"pgdown": tea.KeyPgDown, "end": tea.KeyEnd,
	}
	for _, k := range ks {
		switch {
		case k == "space":
			tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		case special[k] != 0 || k == "ctrl+c":
			tm.Send(tea.KeyMsg{Type: special[k]})
		default:
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
		}
	}
}

// final quits and returns the model as it was at the end.
func final(t *testing.T, tm *teatest.TestModel) *Model {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
}

// rows returns the plain text of the current view's rows.
func rows(m *Model) []string {
	v := m.cur()
	var out []string
	for _, r := range v.list().rows {
		out = append(out, strings.TrimRight(v.text(r, 200), " "))
	}
	return out
}

func TestSwitchViews(t *testing.T) {
	tests := []struct {
		keys []string
		want viewID
		top  string // first row
	}{
		{nil, patternsView, "increasing a^4|5|6|7"},
		{[]string{"tab"}, summarizedView, "S -> A^4"},
		{[]string{"tab", "tab"}, fullView, "S -> A^4"},
		{[]string{"tab", "tab", "tab"}, countView, "a^4|5|6|7"},
		{[]string{"shift+tab"}, findingsView, "linear    4|5|6|7 → 43      main.(*app).bindStop (main.go:40)  (*Stop).Name"},
		{[]string{"shift+tab", "shift+tab"}, stringsView, `a^4|5|6|7 in A  stop 4: "NE 65TH ST & ROOSEVE"×7`},
		{[]string{"3", "0"}, findingsView, "linear    4|5|6|7 → 43"},
		{[]string{"5", "1"}, patternsView, "increasing a^4|5|6|7"},
		{[]string{"3"}, fullView, "S -> A^4"},
		{[]string{"4"}, countView, "a^4|5|6|7"},
		{[]string{"2"}, summarizedView, "S -> A^4"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, ","), func(t *testing.T) {
			tm := start(t)
			keys(tm, tt.keys...)
			m := final(t, tm)
			if m.view != tt.want {
				t.Fatalf("view %s, want %s", viewNames[m.view], viewNames[tt.want])
			}
			if !strings.HasPrefix(m.Selected(), tt.top) {
				t.Errorf("selected %q, want it to start with %q", m.Selected(), tt.top)
			}
			if !strings.Contains(m.View(), fmt.Sprintf("%d %s", tt.want, viewNames[tt.want])) {
				t.Errorf("the tabs lack the view:\n%s", m.View())
			}
		})
	}
}

// Each view keeps its own place.
func TestViewsKeepTheirCursor(t *testing.T) {
	tm := start(t)
	keys(tm, "j", "j", "4", "j", "1")
	m := final(t, tm)
	if m.cur().list().cursor != 2 || m.views[countView].list().cursor != 1 {
		t.Errorf("cursors: patterns %d, count %d; want 2 and 1", m.cur().list().cursor, m.views[countView].list().cursor)
	}
}

func TestDrillInAndBack(t *testing.T) {
	tm := start(t)
	keys(tm, "3", "j", "enter") // Full Grammar, the line of A, into A
	waitFor(t, tm, "S > A")
	keys(tm, "G", "enter") // the last item of A is C^6|3|5|4: into C
	waitFor(t, tm, "S > A > C")
	keys(tm, "backspace")
	m := final(t, tm)
	if got := strings.Join(m.crumbs(m.view), " > "); got != "S > A" {
		t.Errorf("breadcrumb %q after backspace, want S > A", got)
	}
	if !strings.HasPrefix(m.Selected(), "C^6|3|5|4") {
		t.Errorf("selected %q after backspace, want C^6|3|5|4 again", m.Selected())
	}
	if got := rows(m); len(got) != 8 || !strings.HasPrefix(got[0], "a^4|5|6|7  (*Stop).Name") {
		t.Errorf("rows of A:\n%s", strings.Join(got, "\n"))
	}
	if !strings.Contains(m.View(), "S > A") {
		t.Errorf("no breadcrumb on screen:\n%s", m.View())
	}
}

// Backspace returns to where the drill-in started, in its view.
func TestBackAcrossViews(t *testing.T) {
	tm := start(t)
	keys(tm, "j", "j", "j", "enter") // the pattern C^6|3|5|4: into C
	waitFor(t, tm, "S > A > C")
	keys(tm, "backspace")
	m := final(t, tm)
	if m.view != patternsView || !strings.HasPrefix(m.Selected(), "vary") {
		t.Errorf("back in %s at %q, want the Patterns at C", viewNames[m.view], m.Selected())
	}
}

func TestDrillBackToTop(t *testing.T) {
	tm := start(t)
	keys(tm, "3", "j", "enter", "backspace")
	m := final(t, tm)
	if len(m.crumbs(m.view)) != 0 || !strings.HasPrefix(m.Selected(), "A -> a^4|5|6|7") {
		t.Errorf("crumbs %v, selected %q", m.crumbs(m.view), m.Selected())
	}
}

// Enter on a pattern opens its rule in the Full Grammar, with the path
// from S as breadcrumb; on a terminal it explains itself.
func TestDrillFromPatterns(t *testing.T) {
	tm := start(t)
	keys(tm, "f", "f", "enter") // only varying: C^6|3|5|4
	m := final(t, tm)
	if m.view != fullView || strings.Join(m.crumbs(m.view), ">") != "S>A>C" {
		t.Fatalf("view %s, crumbs %v", viewNames[m.view], m.crumbs(m.view))
	}
	if got := rows(m); len(got) != 2 || !strings.HasPrefix(got[0], "i  (*Route).LongName") {
		t.Errorf("rows of C: %q", got)
	}

	tm = start(t)
	keys(tm, "enter") // a: a terminal
	m = final(t, tm)
	if m.view != patternsView || !strings.Contains(m.status, "a is a terminal") {
		t.Errorf("view %s, status %q", viewNames[m.view], m.status)
	}
}

func TestContextJump(t *testing.T) {
	tests := []struct {
		name   string
		keys   []string
		crumbs string
		sel    string
		status string
	}{
		{"top pattern", []string{"c"}, "S>A", "a^4|5|6|7", "a appears in A"},
		{"pattern of C", []string{"G", "c"}, "S>A>C", "j", "j appears in C"},
		{"count view", []string{"4", "j", "j", "j", "j", "j", "j", "c"}, "S>A>B", "g", "g appears in B"},
		{"rule line", []string{"3", "G", "c"}, "S>A", "C^6|3|5|4", "C appears in A"},
		{"start symbol", []string{"3", "c"}, "", "S -> A^4", "S is the start symbol"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := start(t)
			keys(tm, tt.keys...)
			m := final(t, tm)
			if m.view != fullView || strings.Join(m.crumbs(m.view), ">") != tt.crumbs || !strings.HasPrefix(m.Selected(), tt.sel) {
				t.Errorf("view %s, crumbs %v, selected %q; want Full Grammar, %s, %s", viewNames[m.view], m.crumbs(m.view), m.Selected(), tt.crumbs, tt.sel)
			}
			if !strings.Contains(m.status, tt.status) {
				t.Errorf("status %q, want %q", m.status, tt.status)
			}
		})
	}
}

func TestSearch(t *testing.T) {
	tests := []struct {
		view  string
		query string
		want  []string // first words of the rows kept
	}{
		// a string value: only a returned it
		{"4", "raven", []string{"a^4|5|6|7"}},
		// a stack frame: the callers of e and f
		{"4", "showArrivals", []string{"e^3|3|4|4", "f^3|3|4|4"}},
		// a getter name, in the patterns: the terminals and what covers them
		{"1", "(*route).longname", []string{"varying", "constant", "constant"}},
		{"5", "no such thing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			tm := start(t)
			keys(tm, tt.view, "/")
			tm.Type(tt.query)
			keys(tm, "enter")
			m := final(t, tm)
			got := rows(m)
			if len(got) != len(tt.want) {
				t.Fatalf("rows:\n%s\nwant %d", strings.Join(got, "\n"), len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("row %d %q, want %q", i, got[i], w)
				}
			}
			if m.query != tt.query {
				t.Errorf("query %q", m.query)
			}
		})
	}
}

func TestSearchAppliesToEveryViewAndClears(t *testing.T) {
	tm := start(t)
	keys(tm, "/")
	tm.Type("raven")
	keys(tm, "enter", "4")
	waitFor(t, tm, "/raven")
	keys(tm, "esc")
	m := final(t, tm)
	if m.query != "" || len(m.cur().list().rows) != 10 {
		t.Errorf("after esc: query %q, %d rows", m.query, len(m.cur().list().rows))
	}
}

func TestSort(t *testing.T) {
	tests := []struct {
		presses int
		by      string
		first   string
	}{
		{0, "kind", "increasing a^4|5|6|7"},
		{1, "max", "increasing a^4|5|6|7"},
		{2, "trend", "increasing a^4|5|6|7"},
		{3, "kind", "increasing a^4|5|6|7"},
	}
	for _, tt := range tests {
		t.Run(tt.by, func(t *testing.T) {
			tm := start(t)
			keys(tm, strings.Repeat("s", tt.presses))
			m := final(t, tm)
			if got := m.patterns.sortKey(); got != tt.by {
				t.Fatalf("sort %s, want %s", got, tt.by)
			}
			got := rows(m)
			if !strings.HasPrefix(got[0], tt.first) {
				t.Errorf("first row %q", got[0])
			}
			// The order is the Summary's for that key.
			want := m.sum.Patterns(0, tt.by)
			for i, p := range want {
				if !strings.Contains(got[i], " "+p.Notation+" ") {
					t.Errorf("row %d %q, want pattern %s", i, got[i], p.Notation)
				}
			}
		})
	}
}

func TestFilter(t *testing.T) {
	tests := []struct {
		presses int
		kind    string
		n       int
	}{
		{1, "increasing", 3},
		{2, "varying", 1},
		{3, "decreasing", 0},
		{4, "constant", 9},
		{5, "", 13},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.presses), func(t *testing.T) {
			tm := start(t)
			keys(tm, strings.Repeat("f", tt.presses))
			m := final(t, tm)
			if len(m.cur().list().rows) != tt.n {
				t.Errorf("%d rows, want %d", len(m.cur().list().rows), tt.n)
			}
			for _, r := range m.cur().list().rows {
				if tt.kind != "" && r.pat.Kind != tt.kind {
					t.Errorf("row %s is %s", r.sym, r.pat.Kind)
				}
			}
			if tt.n == 0 && !strings.Contains(m.View(), "no decreasing pattern") {
				t.Errorf("empty list without a word:\n%s", m.View())
			}
		})
	}
}

func TestThresholdAndDetail(t *testing.T) {
	tests := []struct {
		keys []string
		want []string
	}{
		{nil, []string{"S -> A^4", "A -> a^<=7 ... e^<=4 f^<=4 B^4 C^<=6"}},
		{[]string{"+", "+"}, []string{"S -> ...", "A -> a^<=7 ... C^<=6"}},
		{[]string{"+", "+", "m"}, []string{"S -> ...", "A -> a^4|5|6|7 ... C^6|3|5|4"}},
		{[]string{"-", "-", "-"}, []string{"S -> A^4", "A -> a^<=7 b^2 c^2 d^2 e^<=4 f^<=4 B^4 C^<=6", "B -> g h", "C -> i j"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, ""), func(t *testing.T) {
			tm := start(t)
			keys(tm, "2")
			keys(tm, tt.keys...)
			m := final(t, tm)
			if got := rows(m); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Summarized Grammar (min %d, detail %v):\n%s\nwant:\n%s", m.summarized.min, m.summarized.detail, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestMarkForDelay(t *testing.T) {
	tm := start(t)
	keys(tm, "space")                               // pattern a: (*Stop).Name
	keys(tm, "f", "f", "space", "f", "f", "f", "f") // pattern C: i and j
	keys(tm, "d")
	waitFor(t, tm, "Delay the marked getters")
	m := final(t, tm)
	want := "suncat delay --getter 'example.com/oba/model.(*Route).Agency' --getter 'example.com/oba/model.(*Route).LongName' --getter 'example.com/oba/model.(*Stop).Name' -d 1ms -run ."
	if got := m.DelayCommand(); got != want {
		t.Errorf("delay command\n%s\nwant\n%s", got, want)
	}
	if m.DelayDir() != obaDir {
		t.Errorf("delay dir %q, want %q", m.DelayDir(), obaDir)
	}
	if m.overlay != delayOverlay {
		t.Fatalf("no delay box")
	}
	screen := m.View()
	for _, s := range []string{"cd /src/oba", "--getter", "enter runs it now"} {
		if !strings.Contains(screen, s) {
			t.Errorf("delay box lacks %q:\n%s", s, screen)
		}
	}
}

func TestUnmarkAndMarks(t *testing.T) {
	tm := start(t)
	keys(tm, "3", "j", "j", "enter", "space") // B's item g
	waitFor(t, tm, "1 marked")
	keys(tm, "backspace", "space") // B as a whole: g marked, h not: marks both
	waitFor(t, tm, "2 marked")
	keys(tm, "space") // all marked: unmarks both
	m := final(t, tm)
	if len(m.MarkedGetters()) != 0 {
		t.Errorf("marked %v", m.MarkedGetters())
	}
}

func TestDelayBoxWithoutMarks(t *testing.T) {
	tm := start(t)
	keys(tm, "d")
	waitFor(t, tm, "Nothing is marked for delay")
	keys(tm, "x")
	m := final(t, tm)
	if m.overlay != noOverlay || m.DelayCommand() != "" {
		t.Errorf("overlay %d, command %q", m.overlay, m.DelayCommand())
	}
}

func TestGoroutineGroups(t *testing.T) {
	tm := start(t)
	keys(tm, "4", "j", "o")
	m := final(t, tm)
	if m.group != 1 || len(m.cur().list().rows) != 1 || m.cur().list().cursor != 0 {
		t.Errorf("group %d, %d rows, cursor %d", m.group, len(m.cur().list().rows), m.cur().list().cursor)
	}
	if !strings.Contains(m.View(), "goroutine main.(*app).refresh") {
		t.Errorf("header:\n%s", m.View())
	}
}

// Keys that arrive together in one read ("3j") are separate commands.
func TestKeysReadTogether(t *testing.T) {
	tm := start(t)
	keys(tm, "3j")
	m := final(t, tm)
	if m.view != fullView || m.cur().list().cursor != 1 {
		t.Errorf("view %s cursor %d", viewNames[m.view], m.cur().list().cursor)
	}
}

func TestHelp(t *testing.T) {
	tm := start(t)
	keys(tm, "?")
	waitFor(t, tm, "any key closes this help")
	m := final(t, tm)
	screen := m.View()
	for _, k := range m.keys.FullHelp() {
		for _, b := range k {
			if !strings.Contains(screen, b.Help().Desc) {
				t.Errorf("help lacks %q", b.Help().Desc)
			}
		}
	}
}

// Every screen fits the terminal exactly, at 80x24 and larger, after
// resizing, in every view and overlay.
func TestScreensFitTheTerminal(t *testing.T) {
	sizes := [][2]int{{80, 24}, {100, 30}, {200, 50}, {60, 15}, {40, 10}}
	screens := [][]string{nil, {"0"}, {"0", "enter"}, {"2"}, {"3", "j", "enter"}, {"4"}, {"5"}, {"?"}, {"space", "d"}, {"d"}, {"/"}, {"/", "z", "z", "enter"}, {"f", "f", "f"}}
	for _, size := range sizes {
		for _, ks := range screens {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], strings.Join(ks, "")), func(t *testing.T) {
				tm := startSized(t, newFake(), 80, 24)
				tm.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				keys(tm, ks...)
				if len(ks) > 0 && ks[len(ks)-1] == "/" {
					keys(tm, "esc")
				}
				m := final(t, tm)
				lines := strings.Split(m.View(), "\n")
				if len(lines) != size[1] {
					t.Errorf("%d lines, want %d:\n%s", len(lines), size[1], m.View())
				}
				for _, l := range lines {
					if w := lipgloss.Width(l); w > size[0] {
						t.Errorf("line of %d cells, wider than %d: %q", w, size[0], l)
					}
				}
				// The details pane's border is in one column on every line.
				if m.overlay == noOverlay && m.detailsWidth() >= 10 {
					col := m.listWidth() + 1
					for _, l := range lines[2 : 2+m.listHeight()] {
						if r := []rune(l); len(r) <= col || r[col] != '│' {
							t.Errorf("border not at column %d: %q", col, l)
						}
					}
				}
			})
		}
	}
}

// With NO_COLOR the screen has no escape sequences (and still shows the
// cursor); without it, the same terminal gets colors.
func TestNoColor(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	old := lipgloss.DefaultRenderer()
	defer lipgloss.SetDefaultRenderer(old)
	for _, no := range []string{"", "1"} {
		t.Setenv("NO_COLOR", no)
		lipgloss.SetDefaultRenderer(lipgloss.NewRenderer(&bytes.Buffer{}, termenv.WithTTY(true)))
		m := New(fakeLoader(newFake()), Options{})
		m.Update(loadedMsg{newFake(), nil})
		screen := m.View()
		if got := strings.Contains(screen, "\x1b["); got != (no == "") {
			t.Errorf("NO_COLOR=%q: escape sequences %v", no, got)
		}
		if no != "" && !strings.Contains(screen, "› linear    → 43     main.(*app).bindStop") {
			t.Errorf("without colors the cursor must still show:\n%s", screen)
		}
	}
}

// The first screen waits for the loader, showing its progress.
func TestLoadingProgress(t *testing.T) {
	release := make(chan struct{})
	load := func(report func(Progress)) (Summary, error) {
		report(Progress{Phase: "reading", File: "/tmp/big.suncat", Files: 1, Bytes: 12_500_000, Events: 1_000_000})
		<-release
		return newFake(), nil
	}
	tm := teatest.NewTestModel(t, New(load, Options{Title: "big.suncat"}), teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("reading big.suncat")) && bytes.Contains(b, []byte("12.5 MB · 1,000,000 events"))
	}, teatest.WithDuration(5*time.Second))
	close(release)
	waitFor(t, tm, "1 Patterns")
	m := final(t, tm)
	if m.state != stateReady {
		t.Errorf("state %d", m.state)
	}
}

func TestLoadFailure(t *testing.T) {
	load := func(func(Progress)) (Summary, error) { return nil, errors.New("view: x.suncat: offset 12: bad magic") }
	tm := teatest.NewTestModel(t, New(load, Options{}), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "bad magic")
	m := final(t, tm)
	if m.state != stateFailed || !strings.Contains(m.View(), "suncat: view: x.suncat: offset 12: bad magic") {
		t.Errorf("state %d, view %q", m.state, m.View())
	}
}

// TestGoldenScreens compares screens with testdata/TestGoldenScreens/*.golden
// (go test -update rewrites them).
func TestGoldenScreens(t *testing.T) {
	tests := []struct {
		name string
		w, h int
		keys []string
	}{
		{"main", 80, 24, nil},
		{"drilled", 80, 24, []string{"1", "f", "f", "enter", "j"}},
		{"strings", 120, 30, []string{"5"}},
		{"delay", 80, 24, []string{"space", "d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := startSized(t, newFake(), tt.w, tt.h)
			keys(tm, tt.keys...)
			m := final(t, tm)
			requireGolden(t, []byte(m.View()+"\n"))
		})
	}
}

func TestRunDelay(t *testing.T) {
	for _, exe := range []string{"", "/usr/local/bin/suncat"} {
		m := New(fakeLoader(newFake()), Options{Suncat: exe})
		m.Update(loadedMsg{newFake(), nil})
		if m.runDelay() != nil {
			t.Errorf("Suncat %q: a command with nothing marked", exe)
		}
		m.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'d'}})
		screen := m.View()
		cmd := m.runDelay()
		if exe == "" {
			if cmd != nil || m.Ran != "" || !strings.Contains(screen, "not available from this viewer") {
				t.Errorf("without suncat: ran %q\n%s", m.Ran, screen)
			}
			continue
		}
		want := "cd /src/oba && suncat delay --getter 'example.com/oba/model.(*Stop).Name' -d 1ms -run ."
		if cmd == nil || m.Ran != want {
			t.Errorf("ran %q, want %q", m.Ran, want)
		}
	}
}

func TestDetailsScrollAndPaging(t *testing.T) {
	tm := start(t)
	keys(tm, "4", "pgdown")
	m := final(t, tm)
	if m.cur().list().cursor != 9 {
		t.Errorf("page down on 10 rows: cursor %d", m.cur().list().cursor)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlD})
	if m.details.vp.YOffset == 0 {
		t.Errorf("ctrl+d did not scroll the details (%d lines in %d rows)", m.details.vp.TotalLineCount(), m.details.vp.Height)
	}
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	if m.details.vp.YOffset != 0 {
		t.Errorf("ctrl+u: offset %d", m.details.vp.YOffset)
	}
}

// Esc while typing a search puts back the previous one.
func TestSearchEscRestores(t *testing.T) {
	tm := start(t)
	keys(tm, "4", "/")
	tm.Type("raven")
	keys(tm, "enter", "/")
	tm.Type("xyz")
	keys(tm, "esc")
	m := final(t, tm)
	if m.query != "raven" || len(m.cur().list().rows) != 1 || m.searching {
		t.Errorf("query %q, %d rows, searching %v", m.query, len(m.cur().list().rows), m.searching)
	}
}

func TestEmptySummary(t *testing.T) {
	m := New(fakeLoader(&fakeSummary{}), Options{Title: "empty.suncat"})
	m.Update(loadedMsg{&fakeSummary{}, nil})
	for _, k := range []string{"j", "enter", "c", " ", "d", "4", "/"} {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	if !strings.Contains(m.View(), "empty.suncat: no events in any sub-trace") {
		t.Errorf("view:\n%s", m.View())
	}
}

// In the delay box, + and - change the delay and m the mode.
func TestDelayBoxSettings(t *testing.T) {
	tm := start(t)
	keys(tm, "space", "d", "+", "+", "m", "-")
	waitFor(t, tm, "spins (burns CPU) for 2ms")
	m := final(t, tm)
	want := "suncat delay --getter 'example.com/oba/model.(*Stop).Name' -d 2ms -mode spin -run ."
	if got := m.DelayCommand(); got != want || m.overlay != delayOverlay {
		t.Errorf("command %q (box open: %v), want %q", got, m.overlay == delayOverlay, want)
	}
}

// requireGolden compares a screen with testdata/<test name>.golden (go
// test -update rewrites it); on a mismatch it also leaves the screen in a
// .golden.got file beside it (gitignored) to diff or copy.
func requireGolden(t *testing.T, screen []byte) {
	t.Helper()
	path := filepath.Join("testdata", t.Name()+".golden")
	if want, err := os.ReadFile(path); err == nil && !bytes.Equal(want, screen) {
		os.WriteFile(path+".got", screen, 0o644)
	} else {
		os.Remove(path + ".got")
	}
	teatest.RequireEqualOutput(t, screen)
}

// The Strings view lists the varying patterns with the same sort and
// filter as the Patterns view.
func TestStringsFollowSortAndFilter(t *testing.T) {
	tm := start(t)
	keys(tm, "5", "j", "f", "f")
	m := final(t, tm)
	got := rows(m)
	if len(got) != 11 || !strings.HasPrefix(got[0], "C^6|3|5|4 in A  stop 4:") {
		t.Errorf("Strings with only varying patterns:\n%s", strings.Join(got, "\n"))
	}
}

// TestProgressLine: the loading screen counts the file being read, and
// once all are read it says how many, not one more than there are.
func TestProgressLine(t *testing.T) {
	for _, c := range []struct {
		p    Progress
		want string
	}{
		{Progress{}, "starting"},
		{Progress{Phase: "reading", File: "/tmp/big.suncat", Files: 1}, "reading big.suncat"},
		{Progress{Phase: "reading", Files: 4, FilesDone: 1}, "reading (file 2 of 4)"},
		{Progress{Phase: "reading", Files: 4, FilesDone: 3}, "reading (file 4 of 4)"},
		{Progress{Phase: "summarizing", Files: 4, FilesDone: 4}, "summarizing (4 files read)"},
		{Progress{Phase: "summarizing", Files: 1, FilesDone: 1}, "summarizing"},
	} {
		if got := progressLine(c.p); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
