package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/suncat-go/suncat/delay"
	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt/host"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
	"github.com/suncat-go/suncat/prioritize"
)

var delayCmd = &command{
	name:  "delay",
	args:  "--getter X [--getter Y ...] [-d DURATION] [-mode sleep|spin] [-o out] [-run | -compare] [-trace T] [-deps patterns] [build flags] [package] [-- args]",
	short: "rebuild with delays in chosen getters, and measure what a user would feel",
	order: 60,
	long: `
Delay builds the program (default package ".") instrumented as 'suncat
instrument' does (with its build flags -tags, -race, -ldflags, -gcflags
and -mod), with a delay in every call of the chosen getters: sleep
blocks the goroutine, spin burns CPU like real work would. If the screen
gets slower, the getter is on the path a person waits for.

X is a getter name (Stop.Name, (*Stop).Name, pkg.(*Stop).Name, the full
import path form) or a regexp over pkg.(*Recv).Method; with -trace T it may
also be a terminal letter (a, b, ...) or a pattern (A, B, ...: all its
terminals) of that trace's summary (first goroutine group). Delays apply
to the getter at all its call sites. Field reads and calls are named as
the summary names them (Task.Aliases, (*DB).QueryContext) and need the
flag they were recorded with (-reads, -calls sql), which an error names
when it is missing; sql:PATTERN (or http:PATTERN) delays one statement
(URL) of the calls -calls sql (http) records: those whose text, white
space folded, matches the SQL LIKE pattern (% any run, _ any one
character), as in --getter 'sql:SELECT name FROM tags%'. A getter of a dependency module
needs -deps, as for instrument; one named by its full import path form
(as the viewer's delay box names it) adds its package to -deps itself.

-run runs the delayed build with the arguments after "--".

-compare measures instead: it runs a scenario twice, plainly and with the
delays (through SUNCAT_DELAY, on the same instrumented build), and reports
for every sub-trace the response time of the goroutine that handled it
(the time from its first to its last getter call in the sub-trace), plain
and delayed, the number of delayed calls it made, and a verdict: critical
path (the response grew by about calls x delay), off the path (unchanged),
or partly; not called when the delayed run made no delayed call. The
scenario is the command after "--", in which {} stands for the
instrumented binary (its path is also in $SUNCAT_BIN); without a command
the binary runs alone. Its output is shown only when a run fails. Without
marks each run is timed whole (start-up included): mark the action, or
give -split idle=DURATION.

Examples:

	suncat delay --getter Stop.Name -d 5ms -run ./cmd/app
	suncat delay --getter a -trace app.suncat -o /tmp/app-slow ./cmd/app
	suncat delay -compare -calls sql --getter 'sql:SELECT name FROM tags%' -d 1ms . -- {} list
	suncat delay -compare --getter Stop.Name -d 1ms -split idle=250ms -goroutines main.main \
		./testdata/busapp -- {} -script testdata/busapp/scenario-idle.txt
`,
}

func init() {
	delayCmd.run = runDelay
	register(delayCmd)
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// delayConfig is what delay's command line asks for.
type delayConfig struct {
	getters    stringList
	d          time.Duration
	mode       string // sleep or spin
	out        string
	run        bool
	compare    bool
	trace      string
	split      string
	json       bool
	goroutines *regexp.Regexp
	sel        selection
	pkg        string
	progArgs   []string
	// stmt is the --getter that names one statement ("sql:SELECT ..."),
	// its set and pattern; match limits the delays to it once resolved.
	stmt, stmtSet, stmtPattern string
	match                      *delay.Match
}

func runDelay(stdout, stderr io.Writer, args []string) error {
	c, err := parseDelay(stderr, args)
	if err != nil {
		return err
	}
	ctx := context.Background()
	opt, names, err := resolveDelay(ctx, c, stderr)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("%s (%s) in %s", c.d, c.mode, strings.Join(names, ", "))
	if !c.compare {
		opt.Delay, opt.Spin = c.d, c.mode == "spin"
	}
	ids := opt.Delays
	if c.compare {
		opt.Delays = nil // through SUNCAT_DELAY, on one build for both runs
	}
	bctx, stop := whileBuilding()
	res, err := instrument.Build(bctx, opt)
	ierr := interrupted(bctx, "delay", stderr)
	stop()
	if ierr != nil {
		return ierr
	}
	if err != nil {
		return instrumentError(err)
	}
	if !c.compare {
		fmt.Fprintf(stdout, "delayed build: %s\ndelay: %s\n", res.Output, what)
		if !c.run {
			return nil
		}
		return runInstrumented(res.Output, c.progArgs, "", stdout, stderr)
	}
	return compareDelay(stdout, stderr, c, res.Output, ids, names, what)
}

// parseDelay reads delay's command line; every misuse is found here,
// before the analysis, the build and the runs.
func parseDelay(stderr io.Writer, args []string) (*delayConfig, error) {
	fs := newFlagSet(delayCmd, stderr)
	c := &delayConfig{}
	fs.Var(&c.getters, "getter", "a getter to slow down (repeatable): name, regexp, or with -trace a terminal or pattern")
	dflag := fs.String("d", "1ms", "the delay per call")
	fs.StringVar(&c.mode, "mode", "sleep", "sleep (block the goroutine) or spin (burn CPU)")
	fs.StringVar(&c.out, "o", "", "write the delayed binary to `file` (default: in suncat's cache directory)")
	fs.BoolVar(&c.run, "run", false, "run the delayed build with the arguments after --")
	fs.BoolVar(&c.compare, "compare", false, "run the scenario after -- plainly and delayed, and compare response times")
	fs.StringVar(&c.trace, "trace", "", "resolve terminal letters and patterns against this `trace`'s summary")
	fs.StringVar(&c.split, "split", "", "-compare: sub-traces: marks, idle=DURATION, at=GETTER or none")
	fs.BoolVar(&c.json, "json", false, "-compare: print the report as JSON")
	goroutines := fs.String("goroutines", "", "-compare: only the goroutine groups whose entry function matches this `regexp` (e.g. main.main)")
	c.sel.register(fs, buildFlags)
	fs.StringVar(&c.sel.deps, "deps", "", "also analyze dependency packages matching these comma-separated `patterns` (a --getter named by its full name in a dependency adds its package)")
	fs.BoolVar(&c.sel.funcs, "funcs", false, "also take plain functions, as instrument -funcs")
	fs.BoolVar(&c.sel.reads, "reads", false, "also take field reads, as instrument -reads")
	fs.BoolVar(&c.sel.loops, "loops", false, "also take loops' turns, as instrument -loops")
	callsFlag(fs, &c.sel.calls, "also take calls, as instrument -calls `sets/patterns`")
	args, c.progArgs = splitDashDash(args)
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	var err error
	if c.d, err = time.ParseDuration(*dflag); err != nil {
		return nil, usagef("-d: %q is not a duration (for example 2ms)", *dflag)
	}
	switch {
	case c.d < 0:
		return nil, usagef("-d: %s is negative", *dflag)
	case c.mode != "sleep" && c.mode != "spin":
		return nil, usagef("-mode: %q is not sleep or spin", c.mode)
	case len(c.getters) == 0:
		return nil, usagef("choose at least one getter with --getter")
	}
	if err := c.statement(); err != nil {
		return nil, err
	}
	switch {
	case c.run && c.compare:
		return nil, usagef("-run and -compare do not go together")
	case c.out != "" && c.compare:
		return nil, usagef("-o and -compare do not go together")
	}
	if *goroutines != "" {
		if c.goroutines, err = regexp.Compile(*goroutines); err != nil {
			return nil, usagef("-goroutines: %w", err)
		}
	}
	if c.compare {
		if err := checkSummaryOptions(prioritize.Options{Split: c.split}); err != nil {
			return nil, err
		}
	}
	if c.pkg, err = onePackage(fs, ""); err != nil {
		return nil, err
	}
	return c, nil
}

// statement takes the --getter that names one statement or URL
// ("sql:SELECT Name FROM Tags%") out of the getters; there can be one.
func (c *delayConfig) statement() error {
	var rest stringList
	for _, name := range c.getters {
		set, pattern, ok := delay.Statement(name)
		switch {
		case !ok:
			rest = append(rest, name)
		case c.stmt != "":
			return usagef("--getter %q: one statement at a time (already %q)", name, c.stmt)
		default:
			c.stmt, c.stmtSet, c.stmtPattern = name, set, pattern
		}
	}
	c.getters = rest
	return nil
}

// resolveStatement adds the ids of the calls of the statement's set to
// ids, limited to the statement (c.match), and its name to names.
func resolveStatement(c *delayConfig, table []tracefile.Getter, ids []uint32, names []string) ([]uint32, []string, error) {
	if c.stmt == "" {
		return ids, names, nil
	}
	sids := delay.CallsOf(table, c.stmtSet)
	if len(sids) == 0 {
		return nil, nil, usagef("--getter %q is a statement of the calls -calls %s records: give -calls %s", c.stmt, c.stmtSet, c.stmtSet)
	}
	c.match = &delay.Match{IDs: sids, Pattern: c.stmtPattern}
	have := map[uint32]bool{}
	for _, id := range ids {
		have[id] = true
	}
	for _, id := range sids {
		if !have[id] {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, append(names, c.stmtSet+" "+strconv.Quote(c.stmtPattern)), nil
}

// resolveDelay analyzes the package and resolves the --getter names (with
// -trace's summary), returning the build's options with the ids to delay
// in Delays, and the getters' names.
func resolveDelay(ctx context.Context, c *delayConfig, stderr io.Writer) (instrument.BuildOptions, []string, error) {
	var opt instrument.BuildOptions
	// The trace before the analysis, which takes much longer.
	var sum *prioritize.Summary
	if c.trace != "" {
		var notes []string
		var err error
		sum, notes, err = loadSummary([]string{c.trace}, prioritize.Options{Sources: userSources()})
		printNotes(stderr, "delay", notes)
		if err != nil {
			return opt, nil, fmt.Errorf("-trace: %w", err)
		}
	}
	aopt, err := c.sel.options()
	if err != nil {
		return opt, nil, err
	}
	aopt.Patterns, aopt.Progress = []string{c.pkg}, stderr
	a, table, ids, err := analyzeAndResolve(ctx, aopt, c.getters, sum)
	if a == nil {
		return opt, nil, err
	}
	if deps := depsOf(c.getters, a, aopt.Deps); err != nil && deps != "" {
		// A getter named by its full name in a package of another module
		// (the viewer names them so): analyze that package too, as
		// instrument -deps would, and resolve again.
		fmt.Fprintf(stderr, "suncat: delay: analyzing with -deps %s, the packages of the getters named\n", deps)
		aopt.Deps = deps
		if a, table, ids, err = analyzeAndResolve(ctx, aopt, c.getters, sum); a == nil {
			return opt, nil, err
		}
	}
	if errors.Is(err, delay.ErrNoSummary) {
		return opt, nil, usagef("--getter %w: give the trace with -trace", err)
	}
	if err != nil {
		if hint := missingFlag(ctx, c, aopt, sum); hint != "" {
			return opt, nil, usagef("--getter %s", hint)
		}
		return opt, nil, usagef("--getter %w", err)
	}
	var names []string
	for _, id := range ids {
		names = append(names, table[id-1].Name())
	}
	if ids, names, err = resolveStatement(c, table, ids, names); err != nil {
		return opt, nil, err
	}
	opt = instrument.BuildOptions{Options: aopt, Package: c.pkg, Output: c.out, Delays: ids, Analysis: a}
	if c.match != nil {
		opt.DelayMatch, opt.DelayMatchIDs = c.match.Pattern, c.match.IDs
	}
	return opt, names, nil
}

// analyzeAndResolve analyzes the package and resolves the getter names
// against its getter table. An analysis that fails returns a nil
// Analysis and its error; names that do not resolve return the analysis
// and Resolve's error.
func analyzeAndResolve(ctx context.Context, aopt instrument.Options, getters []string, sum *prioritize.Summary) (*instrument.Analysis, []tracefile.Getter, []uint32, error) {
	a, err := instrument.Analyze(ctx, aopt)
	if err != nil {
		return nil, nil, nil, instrumentError(err)
	}
	table := make([]tracefile.Getter, len(a.Getters))
	for i, g := range a.Getters {
		table[i] = g.Runtime()
	}
	if len(getters) == 0 { // only a statement
		return a, table, nil, nil
	}
	ids, err := delay.Resolve(table, getters, sum)
	if err != nil {
		return a, table, nil, err
	}
	return a, table, ids, nil
}

// missingFlag names the flag that --getter names need when they did not
// resolve: -calls SET for a method the set records in the standard
// library (database/sql's, net/http's), -loops for a loop's turns
// (loop@FILE:LINE), -reads for a field read (found by analyzing again
// with -reads); "" when no flag would help.
func missingFlag(ctx context.Context, c *delayConfig, aopt instrument.Options, sum *prioritize.Summary) string {
	hooks := instrument.HookTable()
	for _, name := range c.getters {
		ids, err := delay.Resolve(hooks, []string{name}, nil)
		if err != nil || len(ids) == 0 {
			continue
		}
		g := hooks[ids[0]-1]
		if f := delay.Flag(g); !hasCallSet(c.sel.calls, strings.TrimPrefix(f, "-calls ")) {
			return fmt.Sprintf("%q is a %s of %s, recorded with %s: give %s", name, delay.KindText(g), delay.FullName(g), f, f)
		}
	}
	if !aopt.Loops {
		for _, name := range c.getters {
			if strings.HasPrefix(name, "loop@") {
				return fmt.Sprintf("%q is a loop's turns: give -loops", name)
			}
		}
	}
	if aopt.Reads {
		return ""
	}
	aopt.Reads, aopt.Progress = true, io.Discard
	a, err := instrument.Analyze(ctx, aopt)
	if err != nil {
		return ""
	}
	table := make([]tracefile.Getter, len(a.Getters))
	for i, g := range a.Getters {
		table[i] = g.Runtime()
	}
	for _, name := range c.getters {
		ids, err := delay.Resolve(table, []string{name}, sum)
		if err != nil || len(ids) == 0 {
			continue
		}
		if g := table[ids[0]-1]; g.EventKind() == tracefmt.KindRead {
			return fmt.Sprintf("%q is a field read of %s: give -reads", name, delay.FullName(g))
		}
	}
	return ""
}

// hasCallSet reports whether the -calls value calls names set.
func hasCallSet(calls, set string) bool {
	for _, s := range strings.Split(calls, ",") {
		if strings.TrimSpace(s) == set {
			return true
		}
	}
	return false
}

// depsOf returns the -deps value that adds the packages of the getters
// named by their full name in another module than the analyzed one, to
// the patterns already given (had); "" when there are none or all were
// analyzed already.
func depsOf(names []string, a *instrument.Analysis, had string) string {
	have := map[string]bool{}
	for _, p := range a.Packages {
		have[p] = true
	}
	deps := []string{}
	if had != "" {
		deps = append(deps, had)
	}
	added := false
	for _, name := range names {
		pkg := delay.PackageOf(name)
		first, _, _ := strings.Cut(pkg, "/")
		if !strings.Contains(first, ".") || have[pkg] || pkg == a.ModulePath || strings.HasPrefix(pkg, a.ModulePath+"/") {
			continue
		}
		have[pkg], added = true, true
		deps = append(deps, pkg)
	}
	if !added {
		return ""
	}
	return strings.Join(deps, ",")
}

// compareDelay runs the scenario plainly and with the delays on the
// instrumented binary bin, and reports the comparison.
func compareDelay(stdout, stderr io.Writer, c *delayConfig, bin string, ids []uint32, names []string, what string) error {
	envDelay := fmt.Sprintf("ids=%s d=%s mode=%s", joinIDs(ids), c.d, c.mode)
	var envMatch string
	if c.match != nil {
		envDelay += " match=" + joinIDs(c.match.IDs)
		envMatch = c.match.Pattern
	}
	base, err := newTraceDir("", "delay")
	if err != nil {
		return err
	}
	plainDir, delayedDir := filepath.Join(base, "plain"), filepath.Join(base, "delayed")
	fmt.Fprintf(stderr, "suncat: running the scenario plainly\n")
	plain, err := runScenario(bin, c.progArgs, plainDir, "", "", stderr)
	if err != nil {
		return fmt.Errorf("plain run: %w", err)
	}
	fmt.Fprintf(stderr, "suncat: running the scenario with a delay of %s\n", what)
	delayed, err := runScenario(bin, c.progArgs, delayedDir, envDelay, envMatch, stderr)
	if err != nil {
		return fmt.Errorf("delayed run: %w", err)
	}
	rep, err := delay.Compare(plain.Traces, delayed.Traces, ids, c.d, c.split, c.goroutines, c.match)
	if err != nil {
		return usagef("%w", summaryFlag(err))
	}
	if c.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Getters []string `json:"getters"`
			Mode    string   `json:"mode"`
			*delay.Report
		}{names, c.mode, rep})
	}
	fmt.Fprintf(stdout, "delay %s\n", what)
	fmt.Fprintf(stdout, "traces: %s (plain), %s (delayed)\n\n", plainDir, delayedDir)
	printDelayReport(stdout, rep)
	return nil
}

// printDelayReport prints the comparison as a table and its verdict.
func printDelayReport(w io.Writer, rep *delay.Report) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "sub-trace\tgoroutine\tplain\tdelayed\tgrowth\tcalls\texpected\tverdict\n")
	for _, r := range rep.Rows {
		other := ""
		if r.Elsewhere > 0 {
			other = fmt.Sprintf(" (+%d elsewhere)", r.Elsewhere)
		}
		fmt.Fprintf(tw, "%d %s\t%s\t%s\t%s\t%+v\t%d%s\t%s\t%s\n", r.SubTrace, r.Label, r.Goroutine,
			round(r.Plain), round(r.Delayed), round(r.Growth), r.Calls, other, round(r.Expected), r.Verdict)
	}
	tw.Flush()
	if rep.Note != "" {
		fmt.Fprintf(w, "note: %s\n", rep.Note)
	}
	fmt.Fprintf(w, "\nverdict: %s\n", rep.Verdict)
}

func round(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

func joinIDs(ids []uint32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	return strings.Join(s, ",")
}

// runScenario runs the scenario command once with its traces in dir, and
// reads them.
func runScenario(bin string, args []string, dir, envDelay, envMatch string, stderr io.Writer) (*traceSet, error) {
	dir, err := newTraceDir(dir, "")
	if err != nil {
		return nil, err
	}
	cmdline := []string{bin}
	if len(args) > 0 {
		cmdline = nil
		for _, a := range args {
			cmdline = append(cmdline, strings.ReplaceAll(a, "{}", bin))
		}
	}
	cmd := exec.Command(cmdline[0], cmdline[1:]...)
	cmd.Env = append(os.Environ(), traceEnv(dir), "SUNCAT_BIN="+bin, tracefmt.DelayEnv+"="+envDelay, tracefmt.DelayMatchEnv+"="+envMatch)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	host.RemoveStaleSockets() // the scenario's programs', now gone
	if err != nil {
		fmt.Fprint(stderr, out.String())
		return nil, err
	}
	set, err := readTraceArgs([]string{dir})
	if set != nil {
		printNotes(stderr, "delay", set.Notes)
	}
	return set, err
}
