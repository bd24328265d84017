package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/prioritize/stream"
	"github.com/suncat-go/suncat/tui"
)

var viewCmd = &command{
	name:  "view",
	args:  "[-split ...] [-frames N] [-goroutines ...] [-run REGEXP] [-top N] TRACE|DIR...",
	short: "explore the Performance Summary of traces in a terminal UI",
	order: 41,
	long: `
View opens the Performance Summary of the traces in a terminal UI: the
Findings (the defects whose calls grow, as 'suncat summary' prints them),
the Prioritized Patterns, the Summarized and Full Grammar, the Count
Summary and the Strings, with each item's call stack, values and counts
per sub-trace beside it. Press ? for the keys. When standard output is
not a terminal, view prints the text summary instead (as 'suncat
summary' does). Each goroutine group keeps its first 100 patterns in
the default priority order, and each rule of its grammar its first 100
items; -top N keeps N.

Examples:

	suncat view trace.suncat
	suncat view -goroutines main.main /tmp/suncat-traces-1000/run-1/
	suncat view -run 'TestSearch/' /tmp/suncat-traces-1000/test-1/
`,
}

func init() {
	viewCmd.run = runView
	register(viewCmd)
}

// isTerminal reports whether w is a terminal (a variable for tests).
var isTerminal = func(w io.Writer) bool {
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
	fs.IntVar(&sf.patterns, "top", prioritize.DefaultPatterns, "keep the first `N` patterns of each goroutine group, in the default priority order, and the first N items of each grammar rule")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("give at least one trace file or directory")
	}
	if sf.patterns < 1 {
		return usagef("-top %d: want 1 or more", sf.patterns)
	}
	opt, err := sf.options()
	if err != nil {
		return err
	}
	if !isTerminal(stdout) {
		res, err := loadStreamed(stderr, "view", fs.Args(), opt)
		if err != nil {
			return err
		}
		printNotes(stderr, "view", res.Notes)
		v := defaultSummaryView
		v.opt, v.stopped = opt, stopped(res)
		return printSummary(stdout, res.Summary, v)
	}
	// Check the arguments before taking over the terminal (sf.options
	// checked the flags): a missing trace is reported now, as summary
	// does, rather than inside the viewer.
	files, skipped, err := traceFiles(fs.Args())
	if err != nil {
		return err
	}
	var notes []string
	defer func() { printNotes(stderr, "view", notes) }() // once the viewer has left the screen
	return openViewer(stdout, tui.Options{Title: strings.Join(fs.Args(), " "), ProgramArgs: recordedArgs(files)}, func(report func(tui.Progress)) (tui.Summary, error) {
		s, n, err := viewSummary(opt, files, report)
		notes = append(skipped, n...)
		return s, err
	})
}

// viewSummary reads and summarizes trace files for the viewer, reporting
// its progress a few times a second.
func viewSummary(opt prioritize.Options, files []*tracefile.File, report func(tui.Progress)) (tui.Summary, []string, error) {
	counts := stream.NewCounts(files)
	done, finished := make(chan struct{}), make(chan struct{})
	defer func() {
		close(done)
		<-finished // the viewer takes no report once the loader returned
	}()
	go func() {
		defer close(finished)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			report(tuiProgress(counts, files))
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	res, err := streamSummary(files, opt, counts)
	if err != nil {
		return nil, nil, err
	}
	if fams, unsized, ok := suiteFamilies(res.Summary, opt); ok {
		return tui.FromSuite(res.Summary, fams, unsized), res.Notes, nil
	}
	return tui.FromPrioritize(res.Summary), res.Notes, nil
}

// recordedArgs returns the program's arguments recorded in the trace when
// there is one trace (they prefill the delay box), else nil.
func recordedArgs(files []*tracefile.File) []string {
	if len(files) != 1 {
		return nil
	}
	h, err := files[0].Header()
	if err != nil {
		return nil
	}
	return h.Args
}

// openViewer runs the viewer on the terminal until the user quits; opt's
// Suncat is set here.
func openViewer(stdout io.Writer, opt tui.Options, load tui.Loader) error {
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	// Ask the terminal for its background (light or dark, for the
	// adaptive colors) now, before the viewer reads the keyboard: the
	// answer comes back on the same input.
	lipgloss.HasDarkBackground()
	opt.Suncat = exe
	m := tui.New(load, opt)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithOutput(stdout))
	if _, err := p.Run(); err != nil {
		return err
	}
	if m.Ran != "" {
		fmt.Fprintf(stdout, "ran: %s\n", m.Ran)
	}
	return nil
}
