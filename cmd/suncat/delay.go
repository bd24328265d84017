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
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/suncat-go/suncat/delay"
	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt"
	"github.com/suncat-go/suncat/prioritize"
)

var delayCmd = &command{
	name:  "delay",
	args:  "--getter X [--getter Y ...] [-d DURATION] [-mode sleep|spin] [-o out] [-run | -compare] [-trace T] [build flags] [package] [-- args]",
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
to the getter at all its call sites.

-run runs the delayed build with the arguments after "--".

-compare measures instead: it runs a scenario twice, plainly and with the
delays (through SUNCAT_DELAY, on the same instrumented build), and reports
for every sub-trace the response time of the goroutine that handled it
(the time from its first to its last getter call in the sub-trace), plain
and delayed, the number of delayed calls it made, and a verdict: critical
path (the response grew by about calls x delay), off the path (unchanged),
or partly. The scenario is the command after "--", in which {} stands for
the instrumented binary (its path is also in $SUNCAT_BIN); without a
command the binary runs alone.

Examples:

	suncat delay --getter Stop.Name -d 5ms -run ./cmd/app
	suncat delay --getter a -trace app.suncat -o /tmp/app-slow ./cmd/app
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

func runDelay(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(delayCmd, stderr)
	var getters stringList
	fs.Var(&getters, "getter", "a getter to slow down (repeatable): name, regexp, or with -trace a terminal or pattern")
	dflag := fs.String("d", "1ms", "the delay per call")
	mode := fs.String("mode", "sleep", "sleep (block the goroutine) or spin (burn CPU)")
	out := fs.String("o", "", "write the delayed binary to `file` (default: in suncat's cache directory)")
	runIt := fs.Bool("run", false, "run the delayed build with the arguments after --")
	compare := fs.Bool("compare", false, "run the scenario after -- plainly and delayed, and compare response times")
	traceFile := fs.String("trace", "", "resolve terminal letters and patterns against this `trace`'s summary")
	split := fs.String("split", "", "-compare: sub-traces: marks, idle=DURATION, at=GETTER or none")
	asJSON := fs.Bool("json", false, "-compare: print the report as JSON")
	goroutines := fs.String("goroutines", "", "-compare: only the goroutine groups whose entry function matches this `regexp` (e.g. main.main)")
	var sel selection
	sel.register(fs, buildFlags)
	args, progArgs := splitDashDash(args)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	d, err := time.ParseDuration(*dflag)
	if err != nil {
		return usagef("-d: %q is not a duration (for example 2ms)", *dflag)
	}
	if d < 0 {
		return usagef("-d: %s is negative", *dflag)
	}
	if *mode != "sleep" && *mode != "spin" {
		return usagef("-mode: %q is not sleep or spin", *mode)
	}
	if len(getters) == 0 {
		return usagef("choose at least one getter with --getter")
	}
	if *runIt && *compare {
		return usagef("-run and -compare do not go together")
	}
	if *out != "" && *compare {
		return usagef("-o and -compare do not go together")
	}
	var gre *regexp.Regexp
	if *goroutines != "" {
		if gre, err = regexp.Compile(*goroutines); err != nil {
			return usagef("-goroutines: %w", err)
		}
	}
	if *compare {
		// Before the build and the runs: a -split no summary takes.
		if err := checkSummaryOptions(prioritize.Options{Split: *split}); err != nil {
			return err
		}
	}
	// The trace before the analysis, which takes much longer.
	var sum *prioritize.Summary
	if *traceFile != "" {
		var notes []string
		sum, notes, err = loadSummary([]string{*traceFile}, prioritize.Options{})
		printNotes(stderr, "delay", notes)
		if err != nil {
			return fmt.Errorf("-trace: %w", err)
		}
	}
	pkg, err := onePackage(fs, "")
	if err != nil {
		return err
	}
	aopt, err := sel.options()
	if err != nil {
		return err
	}
	aopt.Patterns, aopt.Progress = []string{pkg}, stderr
	ctx := context.Background()
	a, err := instrument.Analyze(ctx, aopt)
	if err != nil {
		return instrumentError(err)
	}
	table := make([]logrt.Getter, len(a.Getters))
	for i, g := range a.Getters {
		table[i] = g.Runtime()
	}
	ids, err := delay.Resolve(table, getters, sum)
	if errors.Is(err, delay.ErrNoSummary) {
		return usagef("--getter %w: give the trace with -trace", err)
	}
	if err != nil {
		return usagef("--getter %w", err)
	}
	var names []string
	for _, id := range ids {
		names = append(names, a.Getters[id-1].Name())
	}
	what := fmt.Sprintf("%s (%s) in %s", d, *mode, strings.Join(names, ", "))
	opt := instrument.BuildOptions{Options: aopt, Package: pkg, Output: *out, Analysis: a}
	if !*compare {
		opt.Delays, opt.Delay, opt.Spin = ids, d, *mode == "spin"
	}
	res, err := instrument.Build(ctx, opt)
	if err != nil {
		return instrumentError(err)
	}
	if !*compare {
		fmt.Fprintf(stdout, "delayed build: %s\ndelay: %s\n", res.Output, what)
		if !*runIt {
			return nil
		}
		return runInstrumented(res.Output, progArgs, "", stdout, stderr)
	}
	envDelay := fmt.Sprintf("ids=%s d=%s mode=%s", joinIDs(ids), d, *mode)
	base, err := newTraceDir("", "delay")
	if err != nil {
		return err
	}
	plainDir, delayedDir := filepath.Join(base, "plain"), filepath.Join(base, "delayed")
	fmt.Fprintf(stderr, "suncat: running the scenario plainly\n")
	plain, err := runScenario(res.Output, progArgs, plainDir, "", stderr)
	if err != nil {
		return fmt.Errorf("plain run: %w", err)
	}
	fmt.Fprintf(stderr, "suncat: running the scenario with a delay of %s\n", what)
	delayed, err := runScenario(res.Output, progArgs, delayedDir, envDelay, stderr)
	if err != nil {
		return fmt.Errorf("delayed run: %w", err)
	}
	rep, err := delay.Compare(plain.Traces, delayed.Traces, ids, d, *split, gre)
	if err != nil {
		return usagef("%w", summaryFlag(err))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Getters []string `json:"getters"`
			Mode    string   `json:"mode"`
			*delay.Report
		}{names, *mode, rep})
	}
	fmt.Fprintf(stdout, "delay %s\n", what)
	fmt.Fprintf(stdout, "traces: %s (plain), %s (delayed)\n\n", plainDir, delayedDir)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
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
		fmt.Fprintf(stdout, "note: %s\n", rep.Note)
	}
	fmt.Fprintf(stdout, "\nverdict: %s\n", rep.Verdict)
	return nil
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
func runScenario(bin string, args []string, dir, envDelay string, stderr io.Writer) (*traceSet, error) {
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
	cmd.Env = append(os.Environ(), traceEnv(dir), "SUNCAT_BIN="+bin, logrt.DelayEnv+"="+envDelay)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		fmt.Fprint(stderr, out.String())
		return nil, err
	}
	set, err := readTraceArgs([]string{dir})
	if set != nil {
		printNotes(stderr, "delay", set.Notes)
	}
	return set, err
}
