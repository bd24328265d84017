package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/suncat-go/suncat/export"
	"github.com/suncat-go/suncat/prioritize"
)

var reportCmd = &command{
	name:  "report",
	args:  "[-o FILE.html] [-base BASE] [summary flags] TRACE|DIR...",
	short: "write the findings as one self-contained HTML page, with growth charts and the loop in its source",
	order: 45,
	long: `
Report writes the findings of the traces as one HTML file that opens in any
browser without a network or a script: each finding in the summary's order
with a log-log chart of its calls against the sizes (the fitted class drawn
through the points, the prediction marked, a band where the data cannot
tell two classes apart), its class, counts and prediction as text, the
value that repeats (the SELECT of an N+1), the stack down to the
responsible frame, and that function's source with the loop's lines and
the call's line marked (as go tool cover -html marks lines) when the file
is at hand; then the time per sub-trace with the 100 ms line. A test
suite's traces (suncat test) get one section per test family.

It takes the traces and flags of suncat summary. -base BASE adds diff's
comparison of BASE with the traces: one row per site, the sites that grow
faster marked, with their charts. suncat check -html FILE writes the same
page beside its verdict. Without -o the page goes to standard output, unless that is a terminal.

Examples:

	suncat report -o report.html /tmp/suncat-traces-1000/run-1/
	suncat report -o suite.html /tmp/suncat-traces-1000/test-1/
	suncat report -base main-traces/ -o pr.html /tmp/suncat-traces-1000/test-2/
`,
}

func init() {
	reportCmd.run = runReport
	register(reportCmd)
}

func runReport(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(reportCmd, stderr)
	var sf summaryFlags
	sf.register(fs)
	out := fs.String("o", "", "write the page to `FILE` (default: standard output, unless it is a terminal)")
	base := fs.String("base", "", "add the comparison with `BASE` (a trace, a directory of traces or a summary -json file), as suncat diff")
	top := fs.Int("top", 10, "show the `N` findings predicted to make the most calls (per test family for a suite)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("give at least one trace file or directory")
	}
	if *top < 1 {
		return usagef("-top %d: want 1 or more", *top)
	}
	if *out == "" && isTerminal(stdout) {
		return usagef("standard output is a terminal; give -o FILE.html or redirect it")
	}
	sf.noPatterns, sf.noGrammar = true, true // the report shows neither
	res, opt, err := sf.load(stderr, "report", fs.Args())
	if err != nil {
		return err
	}
	s := res.Summary
	r := export.Report{Title: strings.Join(s.Traces, ", "), Summary: s, Top: *top, Source: readSource}
	r.Families, r.Unsized, r.Suite = suiteFamilies(s, opt)
	if *base != "" {
		bs, notes, err := loadRun(stderr, "report", *base, opt.Sources, opt.Frames)
		printNotes(stderr, "report", notes)
		if err != nil {
			return err
		}
		// A suite's families, fitted for the page, are compared as they
		// are, not fitted again.
		if r.Compare, err = compareFitted(bs, s, r.Families, opt.Run, opt.Sources); err != nil {
			return err
		}
		r.Title = *base + " against " + r.Title
	}
	return writeReport(stdout, stderr, *out, r)
}

// compareFitted is prioritize.CompareFitted (a variable for tests).
var compareFitted = prioritize.CompareFitted

// writeReport writes the page to out, or to stdout when out is "". A
// file is written whole or not at all.
func writeReport(stdout, stderr io.Writer, out string, r export.Report) error {
	var b bytes.Buffer
	if err := export.HTML(&b, r); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if out == "" {
		_, err := stdout.Write(b.Bytes())
		return err
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		os.Remove(out)
		return err
	}
	fmt.Fprintf(stderr, "suncat: report: wrote %s\n", out)
	return nil
}
