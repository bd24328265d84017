//go:build ignore

// Command bubblesdrive is a small full-screen TUI built on
// github.com/charmbracelet/bubbles v1.0.0 (bubbletea v1, lipgloss), to be
// driven by a person or by tmux send-keys (doc/cases/bubbles-reads.md).
//
//	bubblesdrive list|table|textarea N
//
// list shows N items in a list.Model with the default delegate (title and
// description, two lines an item), fuzzy filtering ('/'), pagination
// (dots) and help: the keys are list's own (j/k, l/h, '/', enter, q).
// table shows N rows of four columns in a focused table.Model 30 rows high
// (j/k, f/b, q). textarea holds N lines in a focused textarea.Model 100x30
// (arrows, ctrl+end, typing; esc quits). The cursors of the filter and of
// the textarea do not blink (cursor.CursorStatic), so that the frames drawn
// are those of the keys, not of the clock.
//
// On SIGUSR1 it writes the coverage counters of a `go build -cover` copy
// into $GOCOVERDIR/snapK (K = 1, 2, ...), so one run gives the counts of
// each stretch of keys; in other builds the signal does nothing.
//
// It needs bubbles, so it builds in a module of its own:
//
//	mkdir drive && cp bubblesdrive.go drive/main.go && cd drive
//	sed -i 1,2d main.go && go mod init bubblesdrive
//	go get github.com/charmbracelet/bubbles@v1.0.0 && go mod tidy && go build
package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/coverage"
	"strconv"
	"strings"
	"syscall"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/table"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
)

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot",
	"golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november",
	"oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
	"victor", "whiskey", "xray", "yankee", "zulu"}

type item struct{ title, desc string }

func (i item) Title() string       { return i.title }
func (i item) Description() string { return i.desc }
func (i item) FilterValue() string { return i.title }

func name(i int) string {
	return fmt.Sprintf("%s %s %04d", words[i%len(words)], words[(i*7+3)%len(words)], i)
}

type listModel struct{ l list.Model }

func (m listModel) Init() tea.Cmd { return nil }

func (m listModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		m.l.SetSize(w.Width, w.Height)
	}
	var cmd tea.Cmd
	m.l, cmd = m.l.Update(msg)
	return m, cmd
}

func (m listModel) View() string { return m.l.View() }

type tableModel struct{ t table.Model }

func (m tableModel) Init() tea.Cmd { return nil }

func (m tableModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && (k.String() == "q" || k.String() == "ctrl+c") {
		return m, tea.Quit
	}
	var cmd tea.Cmd
	m.t, cmd = m.t.Update(msg)
	return m, cmd
}

func (m tableModel) View() string { return m.t.View() + "\n" + m.t.HelpView() }

type textareaModel struct{ ta textarea.Model }

func (m textareaModel) Init() tea.Cmd { return nil }

func (m textareaModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && (k.String() == "esc" || k.String() == "ctrl+c") {
		return m, tea.Quit
	}
	var cmd tea.Cmd
	m.ta, cmd = m.ta.Update(msg)
	return m, cmd
}

func (m textareaModel) View() string {
	return fmt.Sprintf("line %d of %d\n", m.ta.Line()+1, m.ta.LineCount()) + m.ta.View()
}

func snapshots() {
	dir := os.Getenv("GOCOVERDIR")
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	for k := 1; ; k++ {
		<-c
		if dir == "" {
			continue
		}
		d := filepath.Join(dir, "snap"+strconv.Itoa(k))
		os.MkdirAll(d, 0o755)
		coverage.WriteMetaDir(d)
		coverage.WriteCountersDir(d)
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bubblesdrive list|table|textarea N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "bubblesdrive: N must be a positive number")
		os.Exit(2)
	}
	go snapshots()
	var m tea.Model
	switch os.Args[1] {
	case "list":
		items := make([]list.Item, n)
		for i := range items {
			items[i] = item{title: name(i), desc: fmt.Sprintf("pkg/%s/file_%d.go", words[(i*3)%len(words)], i)}
		}
		l := list.New(items, list.NewDefaultDelegate(), 0, 0)
		l.Title = fmt.Sprintf("%d items", n)
		l.FilterInput.Cursor.SetMode(cursor.CursorStatic)
		m = listModel{l}
	case "table":
		rows := make([]table.Row, n)
		for i := range rows {
			rows[i] = table.Row{strconv.Itoa(i + 1), name(i), words[(i*5)%len(words)], strconv.Itoa(i * 37 % 1000)}
		}
		t := table.New(
			table.WithColumns([]table.Column{{Title: "#", Width: 6}, {Title: "Name", Width: 30}, {Title: "Word", Width: 12}, {Title: "Value", Width: 8}}),
			table.WithRows(rows),
			table.WithFocused(true),
			table.WithHeight(30),
		)
		m = tableModel{t}
	case "textarea":
		lines := make([]string, n)
		for i := range lines {
			lines[i] = name(i) + " " + words[(i*11)%len(words)]
		}
		ta := textarea.New()
		ta.SetWidth(100)
		ta.SetHeight(30)
		ta.SetValue(strings.Join(lines, "\n"))
		ta.Focus()
		ta.Cursor.SetMode(cursor.CursorStatic)
		// SetValue leaves the cursor at the end; start at the top.
		for ta.Line() > 0 {
			ta.CursorUp()
		}
		ta.CursorStart()
		m = textareaModel{ta}
	default:
		fmt.Fprintf(os.Stderr, "bubblesdrive: unknown widget %q\n", os.Args[1])
		os.Exit(2)
	}
	if _, err := tea.NewProgram(m, tea.WithAltScreen()).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "bubblesdrive:", err)
		os.Exit(1)
	}
}
