package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt/tracefmt"
	"github.com/suncat-go/suncat/prioritize"
)

var testCmd = &command{
	name:  "test",
	args:  "[flags] [packages] [-- go test flags]",
	short: "run go test on instrumented packages: one trace per test binary, one sub-trace per test",
	order: 13,
	long: `
Test runs go test on the packages (default ".") with their module's string
getters instrumented, as instrument does for a program: your files, go.mod
and go.sum are not modified. Each test binary writes one trace into a
directory that test reports at the end. Every test, subtest and benchmark
that calls a getter becomes a sub-trace labelled with its name
(TestSearch/n=4; the build hooks a copy of the testing package for this,
see -labels), so a table test over growing inputs is a run with
repeated, growing actions; 'suncat summary DIR' splits on those labels,
and its -run keeps the tests you choose.

The output and the exit status are go test's. The usual go test flags may
be given directly (-run, -skip, -v, -count, -timeout, -short, -json, ...);
any other flag for go test goes after "--"; -args and what follows it go
to the test binaries, as with go test.
Coverage (-cover...) is refused: go test's coverage tool would read your
original files instead of suncat's instrumented copies.
Unless you choose otherwise, tests run with -count=1 (a cached result
records nothing) and -parallel=1 (tests running at the same time would
mix their events under one label). Tests that call t.Parallel still run,
one at a time.

Examples:

	suncat test ./...
	suncat test -run 'TestSearch' -v ./search
	suncat test -traces /tmp/search-traces ./search -- -args -size 8
	suncat summary -run 'TestSearch/' /tmp/search-traces
`,
}

func init() {
	testCmd.run = runTest
	register(testCmd)
}

// testConfig is what test's command line asks for.
type testConfig struct {
	opt      instrument.Options // Patterns: the packages
	rewrite  bool               // -labels rewrite
	traceDir string             // -traces
	pass     []string           // go test flags given to suncat test, in order
	after    []string           // the arguments after "--" or from -args on
}

func runTest(stdout, stderr io.Writer, args []string) error {
	c, err := parseTest(stderr, args)
	if err != nil {
		return err
	}
	bctx, stop := whileBuilding()
	prep, err := instrument.PrepareTest(bctx, instrument.BuildOptions{Options: c.opt, RewriteTests: c.rewrite})
	ierr := interrupted(bctx, "test", stderr)
	stop()
	if prep != nil {
		defer prep.Close()
	}
	if ierr != nil {
		return ierr
	}
	if err != nil {
		return instrumentError(err)
	}
	ctx := context.Background()
	made := c.traceDir == "" // a new directory, removed again if it stays empty
	dir, err := newTraceDir(c.traceDir, "test")
	if err != nil {
		return err
	}
	if made {
		defer os.Remove(dir) // only if empty: a run that failed before recording
	}
	reportPrepared(stderr, prep, c.opt.Patterns)
	env := append(os.Environ(), prep.Env...)
	targets := testTargets(c.opt.Patterns, prep.Analysis.Roots)
	vetMode, pass, after := takeVetFlag(c.pass, c.after)
	goFlags := append(append([]string(nil), pass...), beforeArgs(after)...)
	jsonFlag, _ := flagValue(goFlags, "json")
	jsonOut := jsonFlag == "true"
	vetFailed, err := vetFirst(ctx, c.opt.Dir, env, append(prep.ModArgs(), c.opt.BuildFlags...), vetMode, targets, jsonOut, stdout, stderr)
	if err != nil {
		return err
	}
	targets = without(targets, vetFailed)
	goArgs, parallel := goTestArgs(append(append([]string(nil), prep.Args...), c.opt.BuildFlags...), pass, targets, after)
	compileOnly, _ := flagValue(goFlags, "c")
	if compileOnly == "true" {
		runErr := runGoTest(ctx, c.opt.Dir, env, goArgs, &testWatch{w: stdout, dir: dir}, stderr)
		if runErr == nil {
			fmt.Fprintln(stderr, "suncat: -c: the test binary records when it runs, each test's events labelled; SUNCAT_TRACE=DIR/ says where its trace goes")
		}
		return statusOf(runErr)
	}
	if parallel {
		fmt.Fprintln(stderr, "suncat: go test runs with -parallel=1, so that each test's events carry its own label (-parallel N changes it)")
	}
	watch := &testWatch{w: stdout, total: len(targets), dir: dir}
	if len(targets) >= progressMin && !jsonOut {
		watch.progress = stderr
	}
	var runErr error
	if len(targets) > 0 {
		runErr = runGoTest(ctx, c.opt.Dir, append(env, traceEnv(dir)), goArgs, watch, stderr)
	}
	var plain map[string]float64
	if len(watch.order) > 0 && runErr == nil {
		fmt.Fprintln(stderr, "suncat: running the benchmarks again without suncat, to state the recording's cost")
		plain = plainBench(ctx, c.opt.Dir, c.opt.BuildFlags, goFlags, targets, after)
	}
	if len(vetFailed) > 0 && runErr == nil {
		if !jsonOut {
			fmt.Fprintln(stdout, "FAIL") // as go test ends a run with a failed package
		}
		runErr = silentError{exitError(1)}
	}
	reportTraces(stderr, dir, made, !jsonOut, func(s *prioritize.Summary) { reportBench(stderr, s, watch.nsPerOp, plain, watch.order) })
	return statusOf(runErr)
}

// parseTest reads test's command line: its own flags, and the go test
// flags and arguments it passes on. Every misuse is found here.
func parseTest(stderr io.Writer, args []string) (*testConfig, error) {
	fs := newFlagSet(testCmd, stderr)
	sel := selection{matchName: "getters", skipName: "skip-getters"}
	sel.register(fs, chooseFlags|buildFlags)
	labels := fs.String("labels", "testing", "how tests label their events: `testing` (through the testing package; rewrite when it cannot) or rewrite (copies of the test files)")
	c := &testConfig{}
	fs.StringVar(&c.traceDir, "traces", "", "write the traces into `dir` (default: a new directory under "+tracefmt.DefaultDir()+")")
	registerGoTestFlags(fs, &c.pass, stderr)
	mine, after := splitTestArgs(args)
	c.after = after
	for _, a := range append(append([]string(nil), mine...), beforeArgs(after)...) {
		if name := strings.TrimLeft(a, "-"); strings.HasPrefix(a, "-") && strings.HasPrefix(name, "cover") {
			name, _, _ = strings.Cut(name, "=")
			return nil, usagef("-%s: go test's coverage tool reads your original files, not suncat's instrumented copies, so getters would go unrecorded; measure coverage with go test itself", name)
		}
	}
	if err := parseFlags(fs, mine); err != nil {
		return nil, err
	}
	for _, p := range fs.Args() {
		if strings.HasPrefix(p, "-") {
			return nil, usagef("%s: flags for go test that suncat does not know go after --", p)
		}
	}
	if *labels != "testing" && *labels != "rewrite" {
		return nil, usagef("-labels %q: want testing or rewrite", *labels)
	}
	c.rewrite = *labels == "rewrite"
	var err error
	if c.opt, err = sel.options(); err != nil {
		return nil, err
	}
	c.opt.Patterns, c.opt.Progress = fs.Args(), stderr
	if err := checkTraceDir("-traces", c.traceDir); err != nil {
		return nil, err
	}
	if c.traceDir != "" && len(tracesIn(c.traceDir)) > 0 {
		return nil, usagef("-traces %s already holds traces; give an empty or new directory, so that the summary reads only this run's", c.traceDir)
	}
	return c, nil
}

// reportPrepared says how many getters the tests record, and how the
// tests are labelled.
func reportPrepared(stderr io.Writer, prep *instrument.Prepared, packages []string) {
	a := prep.Analysis
	how := fmt.Sprintf("tests labelled through the testing package in %d package(s)", prep.Labelled)
	if !prep.Hooked {
		how = fmt.Sprintf("tests labelled in %d rewritten test file(s)", prep.Labelled)
	}
	fmt.Fprintf(stderr, "suncat: testing with %d instrumented getter(s)%s; %s\n", a.NumGetters(), a.Events(), how)
	if len(a.Getters) == 0 {
		where := strings.Join(a.Packages, " ")
		if where == "" { // none of the packages builds, or none exists
			where = "."
			if len(packages) > 0 {
				where = strings.Join(packages, " ")
			}
		}
		fmt.Fprintf(stderr, "suncat: test: no string getters found in %s; the tests run, but record nothing (-reads records field reads, -calls sql database queries)\n", where)
	}
}
