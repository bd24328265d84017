package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt"
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

// goTestFlags are the flags of go test (and of test binaries) that test
// passes through as given; the others go after "--". true: the flag takes
// a value.
var goTestFlags = map[string]bool{
	"run": true, "skip": true, "count": true, "timeout": true, "parallel": true,
	"bench": true, "benchtime": true, "cpu": true, "shuffle": true, "list": true,
	"vet": true, "p": true, "exec": true, "cpuprofile": true, "memprofile": true, "blockprofile": true,
	"mutexprofile": true, "outputdir": true, "fuzz": true, "fuzztime": true,
	"short": false, "v": false, "failfast": false, "json": false, "benchmem": false,
	"fullpath": false, "x": false, "a": false, "c": false, "o": true,
}

// goOnlyFlags are the flags in goTestFlags that are go test's own; the
// others are the test binaries' flags, which go test also takes as
// -test.name.
var goOnlyFlags = map[string]bool{"vet": true, "p": true, "exec": true, "json": true, "x": true, "a": true, "c": true, "o": true}

// passFlag is a go test flag given to suncat test: it is recorded, in
// order, for go test.
type passFlag struct {
	name   string
	isBool bool
	to     *[]string
}

func (f passFlag) String() string   { return "" }
func (f passFlag) IsBoolFlag() bool { return f.isBool }
func (f passFlag) Set(v string) error {
	*f.to = append(*f.to, "-"+f.name+"="+v)
	return nil
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
	ctx := context.Background()
	prep, err := instrument.PrepareTest(ctx, instrument.BuildOptions{Options: c.opt, RewriteTests: c.rewrite})
	if err != nil {
		return instrumentError(err)
	}
	defer prep.Close()
	dir, err := newTraceDir(c.traceDir, "test")
	if err != nil {
		return err
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
	if parallel {
		fmt.Fprintln(stderr, "suncat: go test runs with -parallel=1, so that each test's events carry its own label (-parallel N changes it)")
	}
	var runErr error
	if len(targets) > 0 {
		runErr = runGoTest(ctx, c.opt.Dir, append(env, traceEnv(dir)), goArgs, stdout, stderr)
	}
	if len(vetFailed) > 0 && runErr == nil {
		if !jsonOut {
			fmt.Fprintln(stdout, "FAIL") // as go test ends a run with a failed package
		}
		runErr = silentError{exitError(1)}
	}
	reportTraces(stderr, dir, !jsonOut)
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
	fs.StringVar(&c.traceDir, "traces", "", "write the traces into `dir` (default: a new directory under "+logrt.DefaultDir()+")")
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
	if c.traceDir != "" && len(tracesIn(c.traceDir)) > 0 {
		return nil, usagef("-traces %s already holds traces; give an empty or new directory, so that the summary reads only this run's", c.traceDir)
	}
	return c, nil
}

// registerGoTestFlags adds the go test flags that test passes on, as given,
// to pass; -h lists test's own flags, then these by name only.
func registerGoTestFlags(fs *flag.FlagSet, pass *[]string, stderr io.Writer) {
	own := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) { own.Var(f.Value, f.Name, f.Usage) })
	var names []string
	for name, takes := range goTestFlags {
		fs.Var(passFlag{name: name, isBool: !takes, to: pass}, name, "passed to go test")
		names = append(names, "-"+name)
		if !goOnlyFlags[name] { // the test binaries' flag, also spelled -test.name
			fs.Var(passFlag{name: "test." + name, isBool: !takes, to: pass}, "test."+name, "passed to go test")
		}
	}
	sort.Strings(names)
	fs.Usage = func() {
		printCommandHelp(stderr, testCmd, own)
		fmt.Fprintf(stderr, "\ngo test flags given as they are to go test:\n  %s\n", strings.Join(names, " "))
	}
}

// reportPrepared says how many getters the tests record, and how the
// tests are labelled.
func reportPrepared(stderr io.Writer, prep *instrument.Prepared, packages []string) {
	a := prep.Analysis
	how := fmt.Sprintf("tests labelled through the testing package in %d package(s)", prep.Labelled)
	if !prep.Hooked {
		how = fmt.Sprintf("tests labelled in %d rewritten test file(s)", prep.Labelled)
	}
	fmt.Fprintf(stderr, "suncat: testing with %d instrumented getter(s); %s\n", len(a.Getters), how)
	if len(a.Getters) == 0 {
		where := strings.Join(a.Packages, " ")
		if where == "" { // none of the packages builds, or none exists
			where = "."
			if len(packages) > 0 {
				where = strings.Join(packages, " ")
			}
		}
		fmt.Fprintf(stderr, "suncat: test: no string getters found in %s; the tests run, but record nothing\n", where)
	}
}

// without returns the targets not in failed, in order.
func without(targets []string, failed map[string]bool) []string {
	if len(failed) == 0 {
		return targets
	}
	var rest []string
	for _, t := range targets {
		if !failed[t] {
			rest = append(rest, t)
		}
	}
	return rest
}

// goTestArgs assembles go test's arguments: build (the overlay's and the
// build flags), vet off (vetFirst vetted your own files), -count=1 and
// -parallel=1 unless pass sets them, then pass, the targets and after.
// parallel reports that -parallel=1 was added.
func goTestArgs(build, pass, targets, after []string) (args []string, parallel bool) {
	given := append(append([]string(nil), pass...), beforeArgs(after)...)
	has := func(name string) bool { _, ok := flagValue(given, name); return ok }
	args = append(append([]string{"test"}, build...), "-vet=off")
	if !has("count") {
		args = append(args, "-count=1")
	}
	if !has("parallel") {
		args, parallel = append(args, "-parallel=1"), true
	}
	args = append(args, pass...)
	args = append(args, targets...)
	return append(args, after...), parallel
}

// runGoTest runs go with args in dir, the terminal passed through and
// signals forwarded.
func runGoTest(ctx context.Context, dir string, env, args []string, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.Env = env
	if _, set := os.LookupEnv(logrt.ControlEnv); !set {
		// The control channel's goroutine waits in a system call, which
		// would hide a deadlocked test from the runtime's detector.
		cmd.Env = append(cmd.Env, logrt.ControlEnv+"=off")
	}
	return runForwarding(cmd, true)
}

// reportTraces says where the run's traces are and, with growth, lists
// the patterns that grow.
func reportTraces(stderr io.Writer, dir string, growth bool) {
	traces := tracesIn(dir)
	if len(traces) == 0 {
		fmt.Fprintf(stderr, "suncat: no test called a getter: no trace; directory: %s\n", dir)
		return
	}
	fmt.Fprintf(stderr, "suncat: %d trace(s), one per test binary, in %s\n", len(traces), dir)
	if growth {
		growing(stderr, traces)
	}
	fmt.Fprintf(stderr, "suncat: next: suncat summary %s\n", dir)
}

var _ flag.Value = passFlag{}

// flagValue finds the go test flag name among flags (-name, --name,
// -name=v, and -test.name for the test binaries' flags) and returns its
// last value: "true" for a bare -name.
func flagValue(flags []string, name string) (string, bool) {
	value, found := "", false
	for _, f := range flags {
		if !strings.HasPrefix(f, "-") {
			continue
		}
		f = strings.TrimPrefix(strings.TrimLeft(f, "-"), "test.")
		n, v, hasValue := strings.Cut(f, "=")
		if n != name {
			continue
		}
		if !hasValue {
			v = "true"
		}
		value, found = v, true
	}
	return value, found
}

// testTargets returns the packages to give go test: the import paths the
// analysis found for the patterns, since a pattern such as ./... would
// also match the runtime's packages, which exist only in the overlay
// (and cannot be vetted there). Patterns naming .go files stay as they
// are.
func testTargets(patterns, roots []string) []string {
	if len(roots) == 0 {
		return patterns
	}
	for _, p := range patterns {
		if strings.HasSuffix(p, ".go") {
			return patterns
		}
	}
	return roots
}

// vetChecks are the go vet checks that go test runs by default: those go
// help test lists, and slog (cmd/go's defaultVetFlags).
var vetChecks = []string{"atomic", "bool", "buildtags", "directive", "errorsas", "ifaceassert", "nilfunc", "printf", "slog", "stringintconv", "tests"}

// takeVetFlag removes go test's -vet flag from the flags for go test and
// returns its value ("" when not given).
func takeVetFlag(pass, after []string) (string, []string, []string) {
	mode := ""
	var p []string
	for _, f := range pass {
		if v, ok := strings.CutPrefix(f, "-vet="); ok {
			mode = v
			continue
		}
		p = append(p, f)
	}
	var a []string
	for i := 0; i < len(after); i++ {
		f := after[i]
		if f == "-args" || f == "--args" {
			a = append(a, after[i:]...) // the test binaries' own arguments
			break
		}
		name := strings.TrimLeft(f, "-")
		if v, ok := strings.CutPrefix(name, "vet="); ok && strings.HasPrefix(f, "-") {
			mode = v
			continue
		}
		if name == "vet" && strings.HasPrefix(f, "-") && i+1 < len(after) {
			mode = after[i+1]
			i++
			continue
		}
		a = append(a, f)
	}
	return mode, p, a
}

// vetFirst runs the vet checks of go test on your own files, before the
// instrumented go test (which runs with -vet=off: go vet cannot visit the
// runtime's packages, which exist only in the build's overlay, and the
// checks belong on your code, not on suncat's copy of it). It reports the
// problems as go test would and returns the packages that failed, whose
// tests then do not run, as under go test.
func vetFirst(ctx context.Context, dir string, env, buildFlags []string, mode string, targets []string, jsonOut bool, stdout, stderr io.Writer) (map[string]bool, error) {
	if mode == "off" || len(targets) == 0 {
		return nil, nil
	}
	cmd := exec.CommandContext(ctx, "go", vetArgs(buildFlags, mode, targets)...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil && out.Len() == 0 {
		// Not a report of vet problems (with -json, vet exits 0 for
		// those) but a pattern or build error: go test will say the
		// same, in its own words. When only some packages do not
		// build, the others' reports are still there.
		return nil, nil
	} else if err == nil && out.Len() == 0 {
		out = errOut // should a toolchain write vet's JSON there
	}
	found := decodeVet(&out, targets)
	if len(found) == 0 {
		return nil, nil
	}
	failed := map[string]bool{}
	var order []string
	blocks := map[string][]string{}
	for _, t := range targets {
		if ds := found[t]; len(ds) > 0 {
			failed[t] = true
			order = append(order, t)
			blocks[t] = vetBlock(dir, t, ds)
		}
	}
	if !jsonOut {
		for _, p := range order {
			fmt.Fprint(stderr, strings.Join(blocks[p], ""))
			fmt.Fprintf(stdout, "FAIL\t%s [build failed]\n", p)
		}
		return failed, nil
	}
	enc := json.NewEncoder(stdout)
	for _, p := range order {
		id := p + " [" + p + ".test]"
		for _, l := range blocks[p] {
			enc.Encode(map[string]string{"ImportPath": id, "Action": "build-output", "Output": l})
		}
		enc.Encode(map[string]string{"ImportPath": id, "Action": "build-fail"})
		now := time.Now()
		enc.Encode(testEvent{Time: now, Action: "start", Package: p})
		enc.Encode(testEvent{Time: now, Action: "output", Package: p, Output: "FAIL\t" + p + " [build failed]\n"})
		enc.Encode(testEvent{Time: now, Action: "fail", Package: p, Elapsed: new(float64), FailedBuild: id})
	}
	return failed, nil
}

// vetArgs are go vet's arguments for go test's -vet mode ("" or default:
// go test's checks; all: vet's own default; else the checks named).
func vetArgs(buildFlags []string, mode string, targets []string) []string {
	args := append([]string{"vet"}, buildFlags...)
	switch mode {
	case "", "default":
		for _, c := range vetChecks {
			args = append(args, "-"+c)
		}
	case "all":
	default:
		for _, c := range strings.Split(mode, ",") {
			if c = strings.TrimSpace(c); c != "" {
				args = append(args, "-"+c)
			}
		}
	}
	args = append(args, "-json")
	return append(args, targets...)
}

// A vetDiag is one problem go vet -json reports.
type vetDiag struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// decodeVet reads go vet -json's stream of objects (import path -> check
// -> diagnostics) into the problems of each target; an external test
// package's count as its package's. Output that is not vet's JSON gives
// nothing (go test will report it).
func decodeVet(r io.Reader, targets []string) map[string][]vetDiag {
	known := map[string]bool{}
	for _, t := range targets {
		known[t] = true
	}
	found := map[string][]vetDiag{}
	dec := json.NewDecoder(r)
	for {
		var report map[string]map[string]json.RawMessage
		if err := dec.Decode(&report); err == io.EOF {
			return found
		} else if err != nil {
			return nil
		}
		for id, checks := range report {
			pkg, _, _ := strings.Cut(id, " [")
			if !known[pkg] {
				pkg = strings.TrimSuffix(pkg, "_test")
			}
			for _, raw := range checks {
				var ds []vetDiag
				if json.Unmarshal(raw, &ds) == nil {
					found[pkg] = append(found[pkg], ds...)
				}
			}
		}
	}
}

// vetBlock is the report of a package's problems as go test prints it,
// positions relative to dir, in order.
func vetBlock(dir, pkg string, ds []vetDiag) []string {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Posn < ds[j].Posn })
	lines := []string{"# " + pkg + "\n", "# [" + pkg + "]\n"}
	for _, d := range ds {
		pos := d.Posn
		if rel, err := filepath.Rel(dir, pos); err == nil && !strings.HasPrefix(rel, "..") {
			pos = rel
		}
		lines = append(lines, pos+": "+d.Message+"\n")
	}
	return lines
}

// testEvent is a go test -json event (the fields vetFirst writes).
type testEvent struct {
	Time        time.Time `json:",omitempty"`
	Action      string
	Package     string   `json:",omitempty"`
	Output      string   `json:",omitempty"`
	Elapsed     *float64 `json:",omitempty"`
	FailedBuild string   `json:",omitempty"`
}

// splitTestArgs separates test's own arguments from those for go test:
// the ones after "--", or -args and the ones after it (which go test
// passes to the test binaries as they are, "--" included), whichever
// comes first.
func splitTestArgs(args []string) (own, rest []string) {
	for i, a := range args {
		switch a {
		case "--":
			return args[:i], args[i+1:]
		case "-args", "--args":
			return args[:i], args[i:]
		}
	}
	return args, nil
}

// beforeArgs returns the flags before -args, which go test passes to the
// test binaries as they are.
func beforeArgs(flags []string) []string {
	for i, f := range flags {
		if f == "-args" || f == "--args" {
			return flags[:i]
		}
	}
	return flags
}

// growingMax bounds the traces growing reads (their total size): the
// point is a glance at the end of a run, not a wait.
const growingMax = 64 << 20

// growing prints, at the end of a test run, the findings of each table
// test (a parent whose subtests' names give three or more sizes:
// TestFind/n=1, /n=2, ...), the call sites predicted to be called most
// first, with their class and the tests they grow over. Traces that do
// not read, or are too big, are left to 'suncat summary'.
func growing(w io.Writer, files []string) {
	var total int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			total += fi.Size()
		}
	}
	if total > growingMax {
		return
	}
	st, err := streamSummary(files, prioritize.Options{Split: "marks"}, nil)
	if err != nil {
		return
	}
	printNotes(w, "test", st.Notes)
	s := st.Summary
	if len(s.Groups) == 0 {
		return
	}
	type found struct {
		site *prioritize.Site
		f    *prioritize.Findings
	}
	var all []found
	fams := prioritize.Families(subTraceLabels(s))
	for _, fam := range fams {
		f, err := prioritize.FindingsOf(s, func(l string) bool { return l == fam || strings.HasPrefix(l, fam+"/") }, prioritize.Options{})
		if err != nil {
			continue
		}
		for _, site := range f.Growing() {
			all = append(all, found{site, f})
		}
	}
	switch {
	case len(fams) == 0:
		fmt.Fprintln(w, "suncat: no table test over three or more sizes (TestX/n=1, /n=2, /n=4): nothing to fit")
		return
	case len(all) == 0:
		fmt.Fprintf(w, "suncat: nothing grows with the size in %s\n", strings.Join(fams, ", "))
		return
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].site.Predicted > all[j].site.Predicted })
	fmt.Fprintln(w, "suncat: growing call sites, by calls predicted at 10x the largest size:")
	for i, x := range all {
		if i == 5 {
			fmt.Fprintf(w, "suncat:   ... and %d more\n", len(all)-5)
			break
		}
		first, last := "", ""
		for k, c := range x.site.Counts {
			if c > 0 && x.f.Used[k] {
				if first == "" {
					first = s.Groups[0].SubTraces[k].Label
				}
				last = s.Groups[0].SubTraces[k].Label
			}
		}
		fmt.Fprintf(w, "suncat:   %-7s %s %s -> %s at %s  %s  over %s .. %s\n", x.site.Fit.Class, x.site.Name,
			siteCounts(x.f, x.site), prioritize.Number(math.Round(x.site.Predicted)), prioritize.Number(x.f.Target), x.site.Where(), first, last)
	}
}

// siteCounts joins a site's counts in the sub-traces its findings fit.
func siteCounts(f *prioritize.Findings, s *prioritize.Site) string {
	var parts []string
	for i, c := range s.Counts {
		if f.Used[i] {
			parts = append(parts, strconv.Itoa(c))
		}
	}
	return strings.Join(parts, "|")
}

func subTraceLabels(s *prioritize.Summary) []string {
	var out []string
	for _, st := range s.Groups[0].SubTraces {
		out = append(out, st.Label)
	}
	return out
}
