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

	"github.com/suncat-go/suncat/logrt/tracefmt"
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

// The box passes on the kinds of event marked: -reads for a field read,
// -calls with the sets that recorded the calls; getters need neither.
func TestDelayKindFlags(t *testing.T) {
	g := Group{Terminals: []Terminal{
		{Letter: "a", Getter: "example.com/m.(*T).Name", Field: "name"},
		{Letter: "b", Getter: "example.com/m.Task.Aliases", Field: "read:[]string"},
		{Letter: "c", Getter: "database/sql.(*DB).QueryContext", Field: "call:sql"},
		{Letter: "d", Getter: "net/http.(*Client).Do", Field: "call:http"},
		{Letter: "e", Getter: "database/sql.(*Tx).QueryContext", Field: "call:sql"},
	}}
	for _, tc := range []struct {
		marked []string
		want   string
	}{
		{[]string{"example.com/m.(*T).Name"}, "suncat delay --getter 'example.com/m.(*T).Name' -d 1ms -run ."},
		{[]string{"example.com/m.Task.Aliases"}, "suncat delay --getter example.com/m.Task.Aliases -reads -d 1ms -run ."},
		{[]string{"database/sql.(*DB).QueryContext", "database/sql.(*Tx).QueryContext"},
			"suncat delay --getter 'database/sql.(*DB).QueryContext' --getter 'database/sql.(*Tx).QueryContext' -calls sql -d 1ms -compare . -- {}"},
		{[]string{"net/http.(*Client).Do", "database/sql.(*DB).QueryContext", "example.com/m.Task.Aliases"},
			"suncat delay --getter 'database/sql.(*DB).QueryContext' --getter example.com/m.Task.Aliases --getter 'net/http.(*Client).Do' -reads -calls http,sql -d 1ms -compare . -- {}"},
	} {
		marked := map[string]bool{}
		for _, g := range tc.marked {
			marked[g] = true
		}
		m := &delayModel{common: &common{marked: marked}, d: defaultDelay, groups: []Group{g}}
		if got := m.command(); got != tc.want {
			t.Errorf("marked %q:\n got %s\nwant %s", tc.marked, got, tc.want)
		}
	}
	// A call marked: -compare by default, the scenario being the delayed
	// build ({}) with the program's arguments, its input through sh; c
	// switches to -run, and back.
	m := &delayModel{common: &common{marked: map[string]bool{"database/sql.(*DB).QueryContext": true}}, d: defaultDelay,
		groups: []Group{g}, progArgs: "-dir m40 status"}
	c := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")}
	m.update(c)
	if got, want := m.command(), "suncat delay --getter 'database/sql.(*DB).QueryContext' -calls sql -d 1ms -run . -- -dir m40 status"; got != want {
		t.Errorf("c on a call:\n got %s\nwant %s", got, want)
	}
	m.update(c)
	if got, want := m.command(), "suncat delay --getter 'database/sql.(*DB).QueryContext' -calls sql -d 1ms -compare . -- {} -dir m40 status"; got != want {
		t.Errorf("compare:\n got %s\nwant %s", got, want)
	}
	m.progArgs = "-q < in.txt"
	if got, want := m.command(), "suncat delay --getter 'database/sql.(*DB).QueryContext' -calls sql -d 1ms -compare . -- sh -c '{} -q < in.txt'"; got != want {
		t.Errorf("compare with input:\n got %s\nwant %s", got, want)
	}
	if got, want := m.kindNoun(), "calls"; got != want {
		t.Errorf("kindNoun = %q, want %q", got, want)
	}
	if got, want := fieldText("call:sql"), "a call recorded with -calls sql"; got != want {
		t.Errorf("fieldText = %q, want %q", got, want)
	}
	m.groups = append(m.groups, Group{Terminals: []Terminal{{Getter: "example.com/r2.loop@bisect.go:7", Field: tracefmt.TurnField}}})
	if got, want := m.nounOf(map[string]bool{"example.com/r2.loop@bisect.go:7": true}), "loop turns"; got != want {
		t.Errorf("nounOf(turn) = %q, want %q", got, want)
	}
	if got, want := fieldText(tracefmt.TurnField), "a loop's turn (-loops)"; got != want {
		t.Errorf("fieldText(turn) = %q, want %q", got, want)
	}
	if got, want := fieldText("read:string"), "reads a field (string)"; got != want {
		t.Errorf("fieldText(read) = %q, want %q", got, want)
	}
}

// A statement written over several lines reads on one line.
func TestQuoteValue(t *testing.T) {
	for in, want := range map[string]string{
		"\n\t\tSELECT\n\t\t\tname,\n\t\t\tid\n\t\tFROM tags\n": `"SELECT name, id FROM tags"`,
		"NE 65TH ST  & OSWEGO":                                 `"NE 65TH ST  & OSWEGO"`,
	} {
		if got := quoteValue(in); got != want {
			t.Errorf("quoteValue(%q) = %s, want %s", in, got, want)
		}
	}
}

// s limits the delay to the marked calls' most repeated statement.
func TestDelayStatement(t *testing.T) {
	g := Group{Terminals: []Terminal{
		{Letter: "a", Getter: "database/sql.(*DB).QueryContext", Field: "call:sql", Hooked: true, Values: vals("SELECT version_id FROM v", 4)},
		{Letter: "b", Getter: "database/sql.(*DB).QueryContext", Field: "call:sql", Hooked: true, Values: vals("\n\tSELECT tstamp\n\tFROM v WHERE id=?", 150)},
		{Letter: "c", Getter: "example.com/m.(*T).Name", Field: "name", Values: vals("x", 900)},
	}}
	m := &delayModel{common: &common{marked: map[string]bool{"database/sql.(*DB).QueryContext": true, "example.com/m.(*T).Name": true}},
		d: defaultDelay, groups: []Group{g}}
	m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'s'}})
	want := "suncat delay --getter 'example.com/m.(*T).Name' --getter 'sql:SELECT tstamp FROM v WHERE id=?' -calls sql -d 1ms -compare . -- {}"
	if got := m.command(); got != want {
		t.Errorf("with s:\n got %s\nwant %s", got, want)
	}
	m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'s'}})
	if got := m.command(); strings.Contains(got, "sql:") {
		t.Errorf("s again keeps the statement: %s", got)
	}
	delete(m.marked, "database/sql.(*DB).QueryContext")
	m.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'s'}})
	if m.onlyStmt {
		t.Errorf("s without a marked call turns the statement on")
	}
}
