package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

var diffCmd = &command{
	name:  "diff",
	args:  "[-run REGEXP] [-json | -format text|json|github] BASE HEAD",
	short: "compare the growing call sites of two runs, site by site",
	order: 43,
	long: `
Diff prints the findings of two runs side by side, one line per call site:
its growth class and calls per sub-trace in BASE and in HEAD, the calls
predicted at the target size (ten times the largest), and what changed
(class up, class down, new site, site gone).

BASE and HEAD are each a trace, a directory of traces (what suncat test
writes) or a summary written by suncat summary -json. Sub-traces are
matched by label, so two suncat test runs compare the tests they share;
sites by getter and the functions of their stacks, not by line numbers.
A class up that the counts do not bear out (at the largest size HEAD
calls at most 25% more) is marked (noise). suncat check is the same
comparison as a gate. -run compares only the sub-traces whose labels
match, by the rules of go test -run (sizes come from the labels' numbers
only when every label compared has one).

Examples:

	suncat diff /tmp/suncat-traces-1000/test-main/ /tmp/suncat-traces-1000/test-branch/
	suncat diff suncat-baseline.json /tmp/suncat-traces-1000/test-branch/
`,
}

func init() {
	diffCmd.run = runDiff
	register(diffCmd)
}

// Output formats of diff and check.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatGitHub = "github"
)

// compareVersion is the version of diff's and check's JSON form.
const compareVersion = 1

// compareFlags are diff's and check's -run, -json and -format.
type compareFlags struct {
	run    string
	frames int
	json   bool
	format string
}

func (f *compareFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.run, "run", "", "compare only the sub-traces whose label matches `REGEXP`, as go test -run matches test names")
	fs.IntVar(&f.frames, "frames", 0, "abstract events by the top `N` frames of their stacks, as summary -frames (0: all)")
	fs.BoolVar(&f.json, "json", false, "print JSON (as -format json)")
	fs.StringVar(&f.format, "format", formatText, "output: text, json, or github (GitHub Actions annotations)")
}

// get checks -run and returns the chosen format.
func (f *compareFlags) get() (string, error) {
	if err := checkSummaryOptions(prioritize.Options{Run: f.run}); err != nil {
		return "", err
	}
	switch {
	case f.json && f.format != formatText && f.format != formatJSON:
		return "", usagef("-json and -format %s: give one", f.format)
	case f.json:
		return formatJSON, nil
	case f.format == formatText || f.format == formatJSON || f.format == formatGitHub:
		return f.format, nil
	}
	return "", usagef("-format %q: want text, json or github", f.format)
}

// diffReport is the JSON form of diff (and, with more, of check).
type diffReport struct {
	Version int    `json:"version"`
	Base    string `json:"base,omitempty"`
	Head    string `json:"head"`
	Run     string `json:"run,omitempty"`
	*prioritize.Comparison
}

// compareRuns reads BASE (when not "") and HEAD and compares them over
// the sub-traces run keeps.
func compareRuns(stderr io.Writer, cmd, base, head string, cf compareFlags) (*prioritize.Comparison, error) {
	c, _, err := compareSummaries(stderr, cmd, base, head, cf)
	return c, err
}

// compareSummaries is compareRuns that also returns HEAD's summary.
func compareSummaries(stderr io.Writer, cmd, base, head string, cf compareFlags) (*prioritize.Comparison, *prioritize.Summary, error) {
	src, run := userSources(), cf.run
	var bs *prioritize.Summary
	if base != "" {
		s, notes, err := loadRun(stderr, cmd, base, src, cf.frames)
		printNotes(stderr, cmd, notes)
		if err != nil {
			return nil, nil, err
		}
		noteApart(stderr, cmd, s)
		bs = s
	}
	hs, notes, err := loadRun(stderr, cmd, head, src, cf.frames)
	printNotes(stderr, cmd, notes)
	if err != nil {
		return nil, nil, err
	}
	noteApart(stderr, cmd, hs)
	c, err := prioritize.Compare(bs, hs, run, src)
	var oe *prioritize.OptionError
	if errors.As(err, &oe) {
		return nil, nil, usagef("%w", summaryFlag(err))
	}
	if err != nil {
		return nil, nil, err
	}
	if c.Note != "" {
		fmt.Fprintf(stderr, "suncat: %s: note: %s: no class to compare\n", cmd, c.Note)
	}
	return c, hs, nil
}

// noteApart says on stderr when a run's sub-traces share few call sites
// (prioritize.ApartText): a gate that compares sites seen at one size
// each passes on nothing.
func noteApart(stderr io.Writer, cmd string, s *prioritize.Summary) {
	if s == nil {
		return
	}
	if t := prioritize.ApartText(s.Findings); t != "" {
		fmt.Fprintf(stderr, "suncat: %s: note: %s\n", cmd, t)
	}
}

func runDiff(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(diffCmd, stderr)
	var cf compareFlags
	cf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("give BASE and HEAD (traces, directories of traces, or summary -json files); got %d argument(s)", fs.NArg())
	}
	format, err := cf.get()
	if err != nil {
		return err
	}
	c, err := compareRuns(stderr, "diff", fs.Arg(0), fs.Arg(1), cf)
	if err != nil {
		return err
	}
	switch format {
	case formatJSON:
		return writeJSON(stdout, diffReport{Version: compareVersion, Base: fs.Arg(0), Head: fs.Arg(1), Run: cf.run, Comparison: c})
	case formatGitHub:
		for _, d := range c.Sites {
			if d.Change != prioritize.ChangeSame {
				fmt.Fprintln(stdout, annotation("notice", d, prioritize.DiffLine(d)))
			}
		}
		return nil
	}
	if len(c.Families) > 1 {
		// Two test suites: a table per family, each on its own sizes.
		for _, fc := range c.Families {
			fmt.Fprintf(stdout, "-- %s: ", fc.Family)
			if err := prioritize.DiffTable(stdout, fc); err != nil {
				return err
			}
		}
		return nil
	}
	return prioritize.DiffTable(stdout, c)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// annotation is a GitHub Actions workflow command on a site's line:
// "::error file=dir.go,line=21::message". The file is relative to the
// working directory (the repository's root in a workflow) when inside
// it; a site gone has no file.
func annotation(level string, d *prioritize.SiteDiff, msg string) string {
	if d.Head == nil {
		return "::" + level + "::" + escapeData(msg)
	}
	line := d.Head.Line
	if d.Head.LoopLine > 0 { // on the loop that makes the site grow
		line = d.Head.LoopLine
	}
	return fmt.Sprintf("::%s file=%s,line=%d::%s", level, escapeProperty(relPath(d.Head.File)), line, escapeData(msg))
}

func relPath(file string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(file) {
		return filepath.ToSlash(file)
	}
	if rel, err := filepath.Rel(wd, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}

// escapeData and escapeProperty escape a workflow command's message and
// property values as the GitHub Actions toolkit does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
