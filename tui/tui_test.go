package tui

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/prioritize"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// sample is the bus app's recorded scenario, summarized: the loader the
// tests give the viewer.
func sample(t testing.TB) Loader {
	tr, err := logrt.ReadFile("../testdata/traces/busapp.suncat")
	if err != nil {
		t.Fatal(err)
	}
	s, err := prioritize.Build([]*logrt.Trace{tr}, prioritize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return func() (*prioritize.Summary, error) { return s, nil }
}

func start(t *testing.T) *teatest.TestModel {
	tm := teatest.NewTestModel(t, New(sample(t), "busapp.suncat"), teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "1 Patterns")
	return tm
}

func waitFor(t *testing.T, tm *teatest.TestModel, s string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func keys(tm *teatest.TestModel, ks ...string) {
	for _, k := range ks {
		switch k {
		case "enter":
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		case "backspace":
			tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
		case "tab":
			tm.Send(tea.KeyMsg{Type: tea.KeyTab})
		case "space":
			tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		default:
			tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
		}
	}
}

func final(t *testing.T, tm *teatest.TestModel) *Model {
	keys(tm, "q")
	return tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
}

func TestSwitchViews(t *testing.T) {
	tm := start(t)
	keys(tm, "tab", "tab", "tab")
	m := final(t, tm)
	if m.view != countView {
		t.Errorf("view %v after three tabs, want the Count Summary", viewNames[m.view])
	}
	if !strings.HasPrefix(m.Selected(), "a^1|2|3|4") {
		t.Errorf("selected %q", m.Selected())
	}
	if !strings.Contains(m.View(), "4 Count") {
		t.Errorf("view:\n%s", m.View())
	}
}

func TestDrillInAndBack(t *testing.T) {
	tm := start(t)
	keys(tm, "3", "j", "enter") // the Full Grammar, rule A, enter it
	waitFor(t, tm, "S > A")
	keys(tm, "j", "j", "enter") // C^2: a nonterminal, enter its rule
	waitFor(t, tm, "S > A > C")
	keys(tm, "backspace")
	m := final(t, tm)
	if got := strings.Join(m.crumbs, ">"); got != "A" {
		t.Errorf("crumbs %q after backspace, want A", got)
	}
	if !strings.HasPrefix(m.Selected(), "C^2") {
		t.Errorf("selected %q after backspace, want C^2 again", m.Selected())
	}
}

func TestContextJump(t *testing.T) {
	tm := start(t)
	keys(tm, "c") // the top pattern, a^2|3|4: where does it appear?
	m := final(t, tm)
	if m.view != fullView || len(m.crumbs) != 1 || m.crumbs[0] != "B" || !strings.HasPrefix(m.Selected(), "a^2|3|4") {
		t.Errorf("after c: view %s, crumbs %v, selected %q", viewNames[m.view], m.crumbs, m.Selected())
	}
}

func TestSearch(t *testing.T) {
	tm := start(t)
	keys(tm, "4", "/")
	tm.Type("university")
	keys(tm, "enter")
	m := final(t, tm)
	// Terminals that returned "University St": the observer's stop name,
	// the serialization's, the list's, the detail's, and the headsign.
	if len(m.items) == 0 || len(m.items) == len(m.groupOf().Terminals) {
		t.Fatalf("search kept %d of %d rows", len(m.items), len(m.groupOf().Terminals))
	}
	for _, it := range m.items {
		if !strings.Contains(it.search, "university st") {
			t.Errorf("row %q does not match", it.text)
		}
	}
}

func TestSortAndFilter(t *testing.T) {
	tm := start(t)
	keys(tm, "s", "f")
	m := final(t, tm)
	if prioritize.SortKeys[m.sortBy] != "max" || m.kind != int(prioritize.Constant) {
		t.Fatalf("sort %s, kind %d", prioritize.SortKeys[m.sortBy], m.kind)
	}
	if !strings.HasPrefix(m.Selected(), "constant   G^8") {
		t.Errorf("the largest constant pattern should come first, got %q", m.Selected())
	}
	for _, it := range m.items {
		if it.kind != prioritize.Constant {
			t.Errorf("filtered row %q is not constant", it.text)
		}
	}
}

func TestThresholdAndDetail(t *testing.T) {
	tm := start(t)
	keys(tm, "2", "+", "+", "m")
	m := final(t, tm)
	if m.min != 5 || !m.detail {
		t.Fatalf("min %d detail %v", m.min, m.detail)
	}
	var texts []string
	for _, it := range m.items {
		texts = append(texts, it.text)
	}
	// With items below 5 elided only the rules with G^8 remain.
	if got := strings.Join(texts, "\n"); got != "S -> ...\nE -> G^8 ..." {
		t.Errorf("summarized grammar:\n%s", got)
	}
}

func TestMarkForDelay(t *testing.T) {
	tm := start(t)
	keys(tm, "space", "d")
	waitFor(t, tm, "Delay the marked getters")
	keys(tm, "x") // closes the box
	m := final(t, tm)
	want := "suncat delay --getter 'example.com/busapp/model.(*Stop).Name' -d 2ms -run ."
	if got := m.DelayCommand(); got != want {
		t.Errorf("delay command %q, want %q", got, want)
	}
	if m.showDelay {
		t.Errorf("the delay box is still open")
	}
}

// TestGoldenScreen compares the first screen with testdata/main.golden
// (go test -update rewrites it).
func TestGoldenScreen(t *testing.T) {
	tm := start(t)
	keys(tm, "q")
	m := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	screen := []byte(m.View())
	if !bytes.Contains(screen, []byte("increasing a^2|3|4")) {
		t.Errorf("the screen lacks the top pattern:\n%s", screen)
	}
	teatest.RequireEqualOutput(t, screen)
}

func TestResizeAndNoColor(t *testing.T) {
	os.Setenv("NO_COLOR", "1")
	defer os.Unsetenv("NO_COLOR")
	tm := start(t)
	tm.Send(tea.WindowSizeMsg{Width: 140, Height: 40})
	m := final(t, tm)
	if m.width != 140 || m.listHeight() != 36 {
		t.Errorf("size %dx%d, list height %d", m.width, m.height, m.listHeight())
	}
	if strings.Contains(m.View(), "\x1b[") {
		t.Errorf("escape sequences with NO_COLOR")
	}
	for _, l := range strings.Split(m.View(), "\n") {
		if w := lipgloss.Width(l); w > 140 {
			t.Errorf("line wider than the terminal (%d): %q", w, l)
		}
	}
}

func TestLoadFailure(t *testing.T) {
	m := New(func() (*prioritize.Summary, error) { return nil, io.ErrUnexpectedEOF }, "x")
	m.Update(loadedMsg{nil, io.ErrUnexpectedEOF})
	if !strings.Contains(m.View(), "suncat: unexpected EOF") {
		t.Errorf("view: %q", m.View())
	}
}
