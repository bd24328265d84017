package tui

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// The delay box takes the program's arguments (prefilled from the traced
// run's) and its input, runs the command with them, and shows the
// verdict and the end of the output after the run.
func TestDelayBoxArguments(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "suncat")
	script := "#!/bin/sh\necho \"args: $*\"\necho \"input: $(cat)\"\nexit 3\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(input, []byte("Westlake Center\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := New(fakeLoader(newFake()), Options{Title: "oba.suncat", Suncat: fake, ProgramArgs: []string{"-n", "5"}})
	m.delay.term = io.Discard
	m.delay.exec = func(c *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		c.Dir = dir // the fake trace's program directory does not exist
		return func() tea.Msg { return done(c.Run()) }
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "0 Findings")
	keys(tm, "1", "space", "d")
	waitFor(t, tm, "program arguments (a edits): -n 5")
	keys(tm, "a", "backspace")
	tm.Type("7 -name 'Pike St' < " + input)
	keys(tm, "enter")
	waitFor(t, tm, "-- -n 7 -name 'Pike St' < ")
	keys(tm, "enter")
	waitFor(t, tm, "input: Westlake Center")
	m = final(t, tm)
	want := "suncat delay --getter 'example.com/oba/model.(*Stop).Name' -d 1ms -run . -- -n 7 -name 'Pike St' < " + input
	if got := m.DelayCommand(); got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
	screen := m.View()
	for _, s := range []string{"last run: exit status 3", "args: delay --getter example.com/oba/model.(*Stop).Name -d 1ms -run . -- -n 7 -name Pike St", "input: Westlake Center"} {
		if !strings.Contains(screen, s) {
			t.Errorf("the box after the run lacks %q:\n%s", s, screen)
		}
	}
	if m.overlay != delayOverlay {
		t.Errorf("the box is closed after the run")
	}
}

// Esc while typing the arguments puts back the previous ones.
func TestDelayBoxArgumentsEsc(t *testing.T) {
	tm := start(t)
	keys(tm, "space", "d", "a")
	tm.Type("x y")
	keys(tm, "esc")
	m := final(t, tm)
	if m.delay.progArgs != "" || m.delay.editing || strings.Contains(m.DelayCommand(), " -- ") {
		t.Errorf("args %q, editing %v, command %q", m.delay.progArgs, m.delay.editing, m.DelayCommand())
	}
}

func TestSplitArgs(t *testing.T) {
	for in, want := range map[string][]string{
		"":                        nil,
		"-n 5":                    {"-n", "5"},
		`-name 'Pike St'  -v`:     {"-name", "Pike St", "-v"},
		`"a b" c\ d 'it''s'`:      {"a b", "c d", "its"},
		`x "" y`:                  {"x", "", "y"},
		`-q "say \"hi\"" < f.txt`: {"-q", `say "hi"`, "<", "f.txt"},
	} {
		if got := splitArgs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitArgs(%q) = %q, want %q", in, got, want)
		}
	}
}
