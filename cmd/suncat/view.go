package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/tui"
)

var viewCmd = &command{
	name:  "view",
	args:  "[-split ...] [-frames N] [-goroutines ...] [-run REGEXP] TRACE|DIR...",
	short: "explore the Performance Summary of traces in a terminal UI",
	order: 41,
	long: `
View opens the Performance Summary of the traces in a terminal UI: the
Prioritized Patterns, the Summarized and Full Grammar, the Count Summary and
the Strings, with each item's call stack, values and counts per sub-trace
beside it. Press ? for the keys. When standard output is not a terminal,
view prints the text summary instead (as 'suncat summary' does).

Examples:

	suncat view trace.suncat
	suncat view -goroutines main.main /tmp/suncat-traces/run-1/
	suncat view -run 'TestSearch/' /tmp/suncat-traces/test-1/
`,
}

func init() {
	viewCmd.run = runView
	register(viewCmd)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func runView(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(viewCmd, stderr)
	var sf summaryFlags
	sf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("view: give at least one trace file or directory")
	}
	if !isTerminal(stdout) {
		s, err := sf.build("view", fs.Args())
		if err != nil {
			return err
		}
		return printSummary(stdout, s, prioritize.Levels, prioritize.SummarizeOptions{Min: 3}, "kind", nil)
	}
	// Check the arguments before taking over the terminal.
	files, err := traceFiles(fs.Args())
	if err != nil {
		return fmt.Errorf("view: %v", err)
	}
	if sf.frames < 0 {
		return usagef("view: -frames %d: want 0 or more", sf.frames)
	}
	// Bad -split, -goroutines and -run values are misuse: report them now, as
	// summary does, rather than inside the viewer. An empty trace checks
	// the options without reading anything.
	if _, err := prioritize.Build([]*logrt.Trace{{}}, sf.options()); err != nil {
		return usagef("view: %v", err)
	}
	return openViewer(stdout, strings.Join(fs.Args(), " "), func(report func(tui.Progress)) (tui.Summary, error) {
		return loadSummary(&sf, files, report)
	})
}

// loadSummary reads and summarizes trace files for the viewer, reporting
// its progress.
func loadSummary(sf *summaryFlags, files []string, report func(tui.Progress)) (tui.Summary, error) {
	var traces []*logrt.Trace
	p := tui.Progress{Phase: "reading", Files: len(files)}
	for i, f := range files {
		p.File, p.FilesDone = f, i
		if fi, err := os.Stat(f); err == nil {
			p.Bytes += fi.Size()
		}
		report(p)
		tr, err := logrt.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("view: %v", err)
		}
		p.Events += len(tr.Events)
		traces = append(traces, tr)
	}
	p.Phase, p.File, p.FilesDone = "summarizing", "", len(files)
	report(p)
	s, err := prioritize.Build(traces, sf.options())
	if err != nil {
		return nil, fmt.Errorf("view: %v", err)
	}
	return tui.FromPrioritize(s), nil
}

// openViewer runs the viewer on the terminal until the user quits.
func openViewer(stdout io.Writer, title string, load tui.Loader) error {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	// Ask the terminal for its background (light or dark, for the
	// adaptive colors) now, before the viewer reads the keyboard: the
	// answer comes back on the same input.
	lipgloss.HasDarkBackground()
	m := tui.New(load, tui.Options{Title: title, Suncat: exe})
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		return fmt.Errorf("view: %v", err)
	}
	if m.Ran != "" {
		fmt.Fprintf(stdout, "ran: %s\n", m.Ran)
	}
	return nil
}
