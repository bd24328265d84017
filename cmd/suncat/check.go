package main

import (
	"fmt"
	"io"
	"regexp"

	"github.com/suncat-go/suncat/export"
	"github.com/suncat-go/suncat/prioritize"
)

var checkCmd = &command{
	name:  "check",
	args:  "[-base BASE] [-max CLASS [-time]] [-allow REGEXP] [-allow-new] [-run REGEXP] [-json | -format text|json|github] [-html FILE] HEAD",
	short: "fail when a call site grows faster than in BASE or than -max (a CI gate)",
	order: 44,
	long: `
Check compares HEAD with BASE as diff does and fails (exit status 1) when
a call site's growth class is worse than in BASE, or worse than -max, or
when a site BASE does not have grows: faster than constant and than
every site BASE had at its loop (the function the findings name), as a
query added inside a loop does. Each failure is one line naming the
getter, the site, the classes and the calls per sub-trace, and a
recorded call's statement or URL:

	(*Entry).Name at dir.go:21: linear -> quadratic (1|2|4|8|16 -> 1|4|16|64|256)
	new: linear N+1 at store.go:45 in store.ListTags, "SELECT name FROM tags WHERE bookmark_id = ?" (10|20|40|80)

Sites are matched by the functions of their stacks, then by that
function alone whatever the getter or call, so a fix that replaces N
queries by one reads as fixed. -allow-new accepts new sites that grow
(they are printed, and do not fail).

A class up that the counts do not bear out (at the largest size HEAD
calls at most 25% more than BASE) is noise and does not fail, so two runs
of unchanged code pass. -allow waives the sites where the regexp matches
the getter (example.com/dir.(*Entry).Name), the function that names the
site (example.com/dir.lookup) or its file:line (dir.go:21).

BASE and HEAD are each a trace, a directory of traces (what suncat test
writes) or a summary written by suncat summary -json, which can be
committed as a baseline. Classes, slowest-growing first: constant, log,
linear, n log n, quadratic, cubic, exponential (or log n, n, n^2, n^3,
2^n). -run compares only the sub-traces whose labels match, as go test
-run matches test names. -format github prints GitHub Actions annotations, which show on the
site's line in a pull request (the loop's line, when the site is in one).
-time (with -max) also fails when HEAD's time per sub-trace, as suncat
summary prints it, grows faster than -max: work that records nothing
(a loop that reads no field, the standard library) is then gated too,
as far as the time shows it. Times are noisy where counts are not; a
rise under 5 ms is no class (doc/findings.md).
-html FILE also writes the comparison as one HTML page (as suncat report
draws it: each site's BASE and HEAD, the ones that grow faster marked and
charted) for CI to keep as an artifact.

Examples:

	suncat check -base /tmp/suncat-traces-1000/test-main/ /tmp/suncat-traces-1000/test-branch/
	suncat check -base suncat-baseline.json -max linear -format github "$TRACES"
	suncat check -max linear -allow 'Registry\)\.Name' "$TRACES"
	suncat check -max linear -time "$TRACES"
	suncat check -base main-traces/ -run 'TestLookup/' "$TRACES"
	suncat check -base suncat-baseline.json -html check.html "$TRACES"
`,
}

func init() {
	checkCmd.run = runCheck
	register(checkCmd)
}

// checkReport is check's JSON form: diff's, with the gate and its
// failures.
type checkReport struct {
	diffReport
	Max      string               `json:"max,omitempty"`
	Allow    string               `json:"allow,omitempty"`
	Failures []prioritize.Failure `json:"failures"` // waived ones included
	Failed   int                  `json:"failed"`   // failures not waived: the check fails when above 0
	// TimeFailure (-time): HEAD's time grows faster than -max, in words;
	// "" when it does not or -time was not given.
	TimeFailure string `json:"timeFailure,omitempty"`
}

func runCheck(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(checkCmd, stderr)
	base := fs.String("base", "", "compare with `BASE`: a trace, a directory of traces or a summary -json file")
	max := fs.String("max", "", "fail any site that grows faster than `CLASS` (constant, log, linear, n log n, quadratic, cubic, exponential)")
	allow := fs.String("allow", "", "waive the sites whose getter, function or file:line matches `REGEXP`")
	allowNew := fs.Bool("allow-new", false, "accept new sites that grow: report them without failing")
	htmlOut := fs.String("html", "", "also write the comparison as an HTML page (suncat report) to `FILE`")
	timeGate := fs.Bool("time", false, "with -max, also fail when HEAD's time per sub-trace grows faster than -max")
	var cf compareFlags
	cf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	gate, err := checkGate(fs.NArg(), *base, *max, *allow)
	if err != nil {
		return err
	}
	gate.AllowNew = *allowNew
	if *timeGate && *max == "" {
		return usagef("-time gates the time on -max: give -max CLASS")
	}
	format, err := cf.get()
	if err != nil {
		return err
	}
	c, hs, err := compareSummaries(stderr, "check", *base, fs.Arg(0), cf)
	if err != nil {
		return err
	}
	rep := checkReport{diffReport: diffReport{Version: compareVersion, Base: *base, Head: fs.Arg(0), Run: cf.run, Comparison: c},
		Max: *max, Allow: *allow, Failures: gate.Check(c)}
	if *timeGate {
		if rep.TimeFailure, err = timeFailure(hs, gate.Max, *max); err != nil {
			return err
		}
	}
	if rep.Failures == nil {
		rep.Failures = []prioritize.Failure{}
	}
	newFailed := 0
	for _, f := range rep.Failures {
		if !f.Waived {
			rep.Failed++
			if f.New {
				newFailed++
			}
		}
	}
	if err := printCheck(stdout, format, rep); err != nil {
		return err
	}
	if *htmlOut != "" {
		page := export.Report{Title: checkTitle(*base, fs.Arg(0)), Compare: c, Failures: rep.Failures}
		if err := writeReport(stdout, stderr, *htmlOut, page); err != nil {
			return err
		}
	}
	switch {
	case rep.TimeFailure != "" && rep.Failed == 0:
		return fmt.Errorf("the time grows faster than -max %s", *max)
	case rep.TimeFailure != "" && *base == "":
		return fmt.Errorf("%d of %d site(s) and the time grow faster than -max %s", rep.Failed, len(c.Sites), *max)
	case rep.Failed > 0 && *base == "": // nothing to have grown worse than
		return fmt.Errorf("%d of %d site(s) grow faster than -max %s", rep.Failed, len(c.Sites), *max)
	case newFailed > 0:
		return fmt.Errorf("%d of %d site(s) grew worse, %d of them new (-allow-new accepts new sites)", rep.Failed, len(c.Sites), newFailed)
	case rep.Failed > 0:
		return fmt.Errorf("%d of %d site(s) grew worse", rep.Failed, len(c.Sites))
	}
	return nil
}

// timeFailure says, in one line, that HEAD's time (hs's findings, as
// suncat summary prints it) grows faster than max (named maxName), or
// "" when it does not. A test suite's time is per test family and per
// op, which -time does not gate: it says so.
func timeFailure(hs *prioritize.Summary, max prioritize.Class, maxName string) (string, error) {
	if prioritize.IsSuite(hs) {
		return "", usagef("-time gates a run's time; a test suite's is per family and per op: leave -time out")
	}
	f := hs.Findings
	if f == nil || !f.Time.Grows() || f.Time.Class <= max {
		return "", nil
	}
	return prioritize.TimeText(f) + ", above -max " + maxName, nil
}

// checkTitle names what check compared, for its page.
func checkTitle(base, head string) string {
	if base == "" {
		return "check of " + head
	}
	return "check of " + head + " against " + base
}

// checkGate checks check's command line and makes its gate.
func checkGate(nargs int, base, max, allow string) (prioritize.Gate, error) {
	var g prioritize.Gate
	if nargs != 1 {
		return g, usagef("give one HEAD (a trace, a directory of traces or a summary -json file); got %d argument(s)", nargs)
	}
	if base == "" && max == "" {
		return g, usagef("give -base BASE to compare with, or -max CLASS to check HEAD alone")
	}
	if max != "" {
		c, err := prioritize.ParseClass(max)
		if err != nil {
			return g, usagef("-max: %w", err)
		}
		g.Max = c
	}
	if allow != "" {
		re, err := regexp.Compile(allow)
		if err != nil {
			return g, usagef("-allow: %w", err)
		}
		g.Allow = re
	}
	return g, nil
}

func printCheck(w io.Writer, format string, rep checkReport) error {
	switch format {
	case formatJSON:
		return writeJSON(w, rep)
	case formatGitHub:
		for _, f := range rep.Failures {
			if f.Waived {
				fmt.Fprintln(w, annotation("notice", f.Site, waivedBy(f)+f.Line))
			} else {
				fmt.Fprintln(w, annotation("error", f.Site, f.Line))
			}
		}
		if rep.TimeFailure != "" {
			fmt.Fprintln(w, "::error::"+escapeData(rep.TimeFailure))
		}
		return nil
	}
	accepted := 0
	for _, f := range rep.Failures {
		if f.Waived {
			fmt.Fprintln(w, waivedBy(f)+f.Line)
		} else {
			fmt.Fprintln(w, f.Line)
		}
		if f.WaivedBy == "-allow-new" {
			accepted++
		}
	}
	if rep.TimeFailure != "" {
		fmt.Fprintln(w, rep.TimeFailure)
	}
	if rep.Failed == 0 && rep.TimeFailure == "" {
		against := "BASE"
		switch {
		case rep.Base == "":
			against = "-max " + rep.Max
		case rep.Max != "":
			against += " or -max " + rep.Max
		}
		fmt.Fprintf(w, "ok: %d site(s) over %d sub-trace(s), none worse than %s", len(rep.Sites), len(rep.Labels), against)
		if accepted > 0 {
			fmt.Fprintf(w, "; %d new site(s) grow, accepted", accepted)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// waivedBy is what a waived failure's line starts with.
func waivedBy(f prioritize.Failure) string {
	switch f.WaivedBy {
	case "-allow-new":
		return "accepted by -allow-new: "
	case prioritize.WaivedClock:
		return "paced by a clock (the loop at " + f.Site.Head.Clock + "), not gated: "
	}
	return "waived by -allow: "
}
