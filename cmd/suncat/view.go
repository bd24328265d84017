package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/tui"
)

var viewCmd = &command{
	name:  "view",
	args:  "[-split ...] [-frames N] [-goroutines ...] TRACE|DIR...",
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
	for _, p := range fs.Args() {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("view: %v", err)
		}
	}
	return openViewer(stdout, strings.Join(fs.Args(), " "), func() (*prioritize.Summary, error) {
		return sf.build("view", fs.Args())
	})
}

func openViewer(stdout io.Writer, title string, load tui.Loader) error {
	m := tui.New(load, title)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		return fmt.Errorf("view: %v", err)
	}
	if m.Ran != "" {
		fmt.Fprintf(stdout, "ran: %s\n", m.Ran)
	}
	return nil
}
