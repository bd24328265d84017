package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// selection holds the flags that choose which getters are instrumented
// and the go build flags, shared by getters, instrument, run, test and
// delay.
type selection struct {
	funcs bool
	match string
	skip  string
	tags  string
	deps  string
	reads bool
	loops bool
	calls string

	// Build flags, passed through to go build (and to the analysis,
	// which must see the same files).
	race    bool
	ldflags string
	gcflags string
	mod     string

	// The names of the -match and -skip flags (test has its own: go test
	// has -run and -skip).
	matchName, skipName string
}

// Which flags of a selection a command registers.
const (
	chooseFlags = 1 << iota // -funcs, -match, -skip, -deps
	buildFlags              // -tags, -race, -ldflags, -gcflags, -mod
)

// register adds the selection's flags of the kinds in which to fs.
func (s *selection) register(fs *flag.FlagSet, which int) {
	if s.matchName == "" {
		s.matchName, s.skipName = "match", "skip"
	}
	if which&chooseFlags != 0 {
		fs.BoolVar(&s.funcs, "funcs", false, "also instrument plain functions, not only methods")
		fs.StringVar(&s.match, s.matchName, "", "only instrument getters whose `regexp` matches pkg.(*Recv).Method")
		fs.StringVar(&s.skip, s.skipName, "", "leave out getters whose `regexp` matches pkg.(*Recv).Method")
		fs.StringVar(&s.deps, "deps", "", "also instrument dependency packages matching these comma-separated `patterns` (example.com/lib/...)")
		fs.BoolVar(&s.reads, "reads", false, "also record every read of a struct field (value: the string, the number, len N, or the type)")
		fs.BoolVar(&s.loops, "loops", false, "also record every turn of every for and range loop (a loop that reads no field shows too)")
		callsFlag(fs, &s.calls, "also record calls: comma-separated `sets` sql and http (in database/sql and net/http, whoever calls) and regexps over pkg.(*Recv).Method")
	}
	if which&buildFlags != 0 {
		fs.StringVar(&s.tags, "tags", "", "comma-separated build `tags`, as for go build")
		fs.BoolVar(&s.race, "race", false, "build with the race detector, as go build -race")
		fs.StringVar(&s.ldflags, "ldflags", "", "`flags` for the linker, as for go build")
		fs.StringVar(&s.gcflags, "gcflags", "", "`flags` for the compiler, as for go build")
		fs.StringVar(&s.mod, "mod", "", "module `mode`: readonly or vendor, as for go build (not mod: suncat never lets go build edit your go.mod)")
	}
}

// callsFlag registers -calls into p: a value with no set or pattern in
// it ("", ",") is misuse.
func callsFlag(fs *flag.FlagSet, p *string, usage string) {
	fs.Func("calls", usage, func(v string) error {
		if strings.Trim(v, ", \t") == "" {
			return errors.New("want sets (sql, http) or regexps, comma-separated")
		}
		*p = v
		return nil
	})
}

// options returns the analysis options of the selection, in the working
// directory; a regexp that does not compile, or -mod=mod, is misuse.
func (s *selection) options() (instrument.Options, error) {
	opt := instrument.Options{Funcs: s.funcs, Deps: s.deps, Reads: s.reads, Loops: s.loops, Calls: s.calls}
	var err error
	if _, err := instrument.ParseCalls(s.calls); err != nil {
		return opt, usagef("-calls %w", err)
	}
	if s.match != "" {
		if opt.Match, err = regexp.Compile(s.match); err != nil {
			return opt, usagef("-%s: %w", s.matchName, err)
		}
	}
	if s.skip != "" {
		if opt.Skip, err = regexp.Compile(s.skip); err != nil {
			return opt, usagef("-%s: %w", s.skipName, err)
		}
	}
	if s.tags != "" {
		opt.BuildFlags = []string{"-tags", s.tags}
	}
	if s.race {
		opt.BuildFlags = append(opt.BuildFlags, "-race")
	}
	if s.ldflags != "" {
		opt.BuildFlags = append(opt.BuildFlags, "-ldflags", s.ldflags)
	}
	if s.gcflags != "" {
		opt.BuildFlags = append(opt.BuildFlags, "-gcflags", s.gcflags)
	}
	switch s.mod {
	case "":
	case "readonly", "vendor":
		opt.BuildFlags = append(opt.BuildFlags, "-mod="+s.mod)
	case "mod":
		return opt, usagef("-mod=mod would let go build edit your go.mod and go.sum; run go mod tidy first")
	default:
		return opt, usagef("-mod: %q is not readonly or vendor", s.mod)
	}
	opt.Dir, err = os.Getwd()
	return opt, err
}

// instrumentError names the flag behind an error of package instrument
// about an option's value.
func instrumentError(err error) error {
	if errors.Is(err, instrument.ErrNoDependency) {
		return usagef("-deps %w", err) // a flag value that does not fit the program: misuse, like -run
	}
	// The go command's hint for a package that no module provides, a
	// second line "go get PKG", is wrong for a path missing from the
	// user's own module: the message is its first part, one line.
	if msg := err.Error(); strings.Contains(msg, "no required module provides package") {
		if i := strings.Index(msg, "; to add it:"); i >= 0 {
			return errors.New(msg[:i])
		}
	}
	return err
}

var gettersCmd = &command{
	name:  "getters",
	args:  "[-v] [-json] [-funcs] [-reads] [-loops] [-calls sets] [-match re] [-skip re] [-tags t] [-deps patterns] [package]",
	short: "list the string getters suncat would instrument, and why",
	order: 10,
	long: `
Getters analyzes the package (default ".") and the packages of its module
that it imports, and lists the string getters: methods whose string result
is, on every return path, the value of a struct field or a constant. Each
line gives file:line, the getter and the field it returns. With -v it also
lists the functions returning strings that were rejected, and why. With
-reads and -calls it lists the field reads and calls that would be
recorded too (with -v, the reads left out and why; doc/events.md).

Examples:

	suncat getters ./cmd/app
	suncat getters -v -match 'Stop' ./cmd/app
	suncat getters -reads -calls sql -v ./cmd/app
`,
}

var instrumentCmd = &command{
	name:  "instrument",
	args:  "[-o out] [-funcs] [-reads] [-loops] [-calls sets] [-match re] [-skip re] [-tags t] [-deps patterns] [build flags] [package]",
	short: "build an instrumented copy of a program",
	order: 11,
	long: `
Instrument builds the main package (default ".") with every call of its
module's string getters logged to a trace: the call stack and the returned
string. -reads also logs every read of a struct field, -loops every turn
of every for and range loop (a loop over local values, which reads no
field, shows too), and -calls the calls of database/sql (sql), net/http
(http) or functions matching a regexp (doc/events.md). Your files, go.mod and go.sum are not modified:
the rewritten files and suncat's runtime reach the compiler through go
build -overlay.

The flags -tags, -race, -ldflags, -gcflags and -mod are passed to go
build. -deps also instruments the getters of dependency packages:
vendored and locally replaced modules are overlaid like your own files,
modules from the module cache are copied into suncat's cache and the build
redirected to the copy (doc/instrument.md); nothing of yours is edited.

Run the binary as usual; each process writes a trace file (see
SUNCAT_TRACE in doc/traces.md), which 'suncat summary' and 'suncat events'
read.

Examples:

	suncat instrument -o /tmp/app ./cmd/app
	suncat instrument -race -ldflags '-X main.version=dev' ./cmd/app
	suncat instrument -deps 'example.com/lib/...' ./cmd/app
	suncat instrument -reads -calls sql -o /tmp/app ./cmd/app
	suncat instrument -loops -o /tmp/app ./cmd/app
	SUNCAT_TRACE=$HOME/traces/ /tmp/app
`,
}

var runCmd = &command{
	name:  "run",
	args:  "[-trace dir] [-sizes n,n,... [-gen command]] [flags] [package] [-- args]",
	short: "instrument a program, run it, and say where its trace is",
	order: 12,
	long: `
Run instruments the main package (default "."), runs it with the arguments
after "--" (standard input, output and error pass through, signals are
forwarded), and prints where the trace is. The exit status is the
program's (128+n when a signal n ended it). It takes the same flags as
instrument.

-sizes runs the program once per input size, {} in its arguments
replaced by the size, each run writing the trace nSIZE.suncat (in -trace
or a new directory), and prints the summary of them all, the sizes taken
from the names. With -gen, the shell command given ({} the size) makes
each run's input before it: its standard output is the program's
standard input, or, where the program's arguments say {in}, the file
named there (removed after the run). A run that fails does not stop the
others (a signal does); the exit status is the first failure's.

Examples:

	suncat run ./cmd/app -- -port 8080
	suncat run -trace ~/traces ./cmd/app
	suncat run -race ./cmd/app -- -v
	suncat run -reads -sizes 10,20,40,80 ./cmd/app -- -n {}
	suncat run -reads -sizes 250,500,1000 -gen 'python3 gen.py {}' . -- -in {in}
`,
}

func init() {
	gettersCmd.run = runGetters
	instrumentCmd.run = runInstrument
	runCmd.run = runRun
	register(gettersCmd)
	register(instrumentCmd)
	register(runCmd)
}

// onePackage returns the one package argument of fs (default "."); hint
// follows the error for more.
func onePackage(fs *flag.FlagSet, hint string) (string, error) {
	switch fs.NArg() {
	case 0:
		return ".", nil
	case 1:
		return fs.Arg(0), nil
	}
	return "", usagef("want at most one package, got %q%s", strings.Join(fs.Args(), " "), hint)
}

func runGetters(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(gettersCmd, stderr)
	var sel selection
	sel.register(fs, chooseFlags|buildFlags)
	verbose := fs.Bool("v", false, "also list rejected functions and why")
	asJSON := fs.Bool("json", false, "print the analysis as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	pkg, err := onePackage(fs, "")
	if err != nil {
		return err
	}
	opt, err := sel.options()
	if err != nil {
		return err
	}
	opt.Patterns = []string{pkg}
	opt.Progress = stderr
	a, err := instrument.Analyze(context.Background(), opt)
	if err != nil {
		return instrumentError(err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(a)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	sites := map[uint32]int{}
	for _, st := range a.Sites {
		sites[st.ID]++
	}
	for _, g := range a.Getters {
		why := g.Why
		if n := sites[g.ID]; n > 0 {
			why += fmt.Sprintf(", %d site(s)", n)
		}
		where := g.PkgPath
		if g.Pos.Filename != "" {
			where = relPos(g.Pos.Filename, g.Pos.Line)
		}
		fmt.Fprintf(tw, "%s\t%s.%s\t%s\n", where, lastElem(g.PkgPath), g.Name(), why)
	}
	if *verbose {
		for _, st := range a.Sites {
			g := a.Getters[st.ID-1]
			fmt.Fprintf(tw, "%s\t%s.%s\trecorded: %s\n", relPos(st.File, st.Line), lastElem(g.PkgPath), g.Name(), siteWhat(st))
		}
		for _, r := range a.Rejected {
			what := "rejected"
			if sel.reads || sel.calls != "" {
				if strings.HasPrefix(r.Why, "not a read") || strings.HasPrefix(r.Why, "a path") || strings.HasPrefix(r.Why, "an array") || strings.HasPrefix(r.Why, "a generic") || strings.HasPrefix(r.Why, "the file's language") {
					what = "left out"
				}
			}
			fmt.Fprintf(tw, "%s\t%s.%s\t%s: %s\n", relPos(r.Pos.Filename, r.Pos.Line), lastElem(r.PkgPath), r.Name(), what, r.Why)
		}
	}
	tw.Flush()
	if *verbose {
		if sel.reads {
			fmt.Fprintln(stdout, "-reads: field reads are recorded where they are read; writes (x.f = v, x.f op= v, x.f++), &x.f, a receiver of a pointer method, composite-literal keys and the struct or array on the way to an inner field (x.f in x.f.g) are not reads; reads in _test.go and cgo files and in packages not instrumented (-deps adds some) are not seen")
		}
		if sel.calls != "" {
			fmt.Fprintln(stdout, "-calls: sql and http are recorded inside database/sql and net/http, so calls made by dependencies count; a pattern records the calls made in the instrumented packages, at the call, with the first string argument (or the function's name)")
		}
	}
	if len(a.Getters) == 0 && (sel.reads || sel.loops || sel.calls != "") {
		fmt.Fprintf(stderr, "suncat: no getters, field reads, loops or chosen calls found in %s\n", strings.Join(a.Packages, " "))
	} else if len(a.Getters) == 0 {
		fmt.Fprintf(stderr, "suncat: no string getters found in %s (-v says why each string method was left out; -reads lists field reads, -calls sql database queries)\n", strings.Join(a.Packages, " "))
	}
	return nil
}

func relPos(file string, line int) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// lastElem returns the name a package of import path p is usually known
// by: its last element, without a major version (chroma for
// github.com/alecthomas/chroma/v2, yaml for gopkg.in/yaml.v3).
func lastElem(p string) string {
	slash := strings.LastIndex(p, "/")
	elem := p[slash+1:]
	if isMajor(elem) && slash > 0 {
		return lastElem(p[:slash])
	}
	if i := strings.LastIndex(elem, ".v"); i > 0 && isMajor(elem[i+1:]) {
		return elem[:i]
	}
	return elem
}

// isMajor reports whether s is a major version suffix: v2, v3, ...
func isMajor(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func runInstrument(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(instrumentCmd, stderr)
	var sel selection
	sel.register(fs, chooseFlags|buildFlags)
	out := fs.String("o", "", "write the instrumented binary to `file` (default: in suncat's cache directory)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	pkg, err := onePackage(fs, "")
	if err != nil {
		return err
	}
	res, err := build(sel, "instrument", pkg, *out, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "instrumented %d getter(s)%s; binary: %s\n", res.Analysis.NumGetters(), res.Analysis.Events(), res.Output)
	if len(res.Analysis.Getters) > 0 { // else it writes no trace (build said so)
		fmt.Fprintf(stdout, "run it as usual; traces go to %s (set %s=/some/dir/ to choose)\n", tracefmt.DefaultDir(), tracefmt.TraceEnv)
	}
	return nil
}

func build(sel selection, cmd, pkg, out string, stderr io.Writer) (*instrument.BuildResult, error) {
	opt, err := sel.options()
	if err != nil {
		return nil, err
	}
	opt.Progress = stderr
	ctx, stop := whileBuilding()
	res, err := instrument.Build(ctx, instrument.BuildOptions{Options: opt, Package: pkg, Output: out})
	ierr := interrupted(ctx, cmd, stderr)
	stop()
	if ierr != nil {
		return nil, ierr
	}
	if err != nil {
		return nil, instrumentError(err)
	}
	if len(res.Analysis.Getters) == 0 && len(res.Analysis.Hooks) == 0 {
		hint := ""
		if len(res.Analysis.Packages) == 0 {
			hint = " (none of its packages is in your module; -deps instruments dependencies)"
		}
		fmt.Fprintf(stderr, "suncat: %s: no string getters found%s; the program was built but will record nothing (suncat getters -v %s says why each string method was left out; -reads records field reads, -calls sql database queries)\n", cmd, hint, pkg)
	}
	return res, nil
}

func runRun(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(runCmd, stderr)
	var sel selection
	sel.register(fs, chooseFlags|buildFlags)
	traceDir := fs.String("trace", "", "write the trace into `dir` (default: a new directory under "+tracefmt.DefaultDir()+")")
	sizes := fs.String("sizes", "", "run the program once per input `size`, comma-separated (10,20,40,80), {} in its arguments replaced by the size, and print the summary")
	gen := fs.String("gen", "", "with -sizes: run the shell `command` ({} the size) before each run; its output is the program's standard input, or the file {in} names in its arguments")
	args, progArgs := splitDashDash(args)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	pkg, err := onePackage(fs, " (put the program's arguments after --)")
	if err != nil {
		return err
	}
	if err := checkTraceDir("-trace", *traceDir); err != nil {
		return err
	}
	sized, err := parseSizedRun(*sizes, *gen, progArgs)
	if err != nil {
		return err
	}
	if sized != nil {
		if err := checkSizedTraces(*traceDir, sized); err != nil {
			return err
		}
	}
	res, err := build(sel, "run", pkg, "", stderr)
	if err != nil {
		return err
	}
	if sized != nil {
		return runSized(res.Output, sized, *traceDir, stdout, stderr)
	}
	return runInstrumented(res.Output, progArgs, *traceDir, stdout, stderr)
}

// runInstrumented runs an instrumented binary with its traces in dir (a
// new directory when dir is ""), passing the terminal through and
// forwarding signals, and says where the trace is.
func runInstrumented(bin string, args []string, dir string, stdout, stderr io.Writer) error {
	made := dir == "" // a new directory, removed again if it stays empty
	dir, err := newTraceDir(dir, "run")
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	cmd.Env = append(os.Environ(), traceEnv(dir))
	runErr := runForwarding(cmd, false)
	traces := tracesIn(dir)
	switch len(traces) {
	case 0:
		if made && os.Remove(dir) == nil {
			fmt.Fprintf(stderr, "suncat: the program recorded no trace (no getter was called; -reads records field reads, -calls sql database queries)\n")
		} else {
			fmt.Fprintf(stderr, "suncat: the program recorded no trace (no getter was called; -reads records field reads, -calls sql database queries); directory: %s\n", dir)
		}
	case 1:
		fmt.Fprintf(stderr, "suncat: trace: %s\n", traces[0])
		fmt.Fprintf(stderr, "suncat: next: suncat summary %s\n", traces[0])
	default:
		fmt.Fprintf(stderr, "suncat: %d traces (one per process) in %s\n", len(traces), dir)
	}
	return statusOf(runErr)
}

// siteWhat says what a read or call site records.
func siteWhat(s instrument.Site) string {
	if s.Stmt {
		return "each turn of the loop"
	}
	switch s.Func {
	case "ReadString":
		return "the string"
	case "ReadInt", "ReadUint", "ReadFloat":
		return "the number"
	case "ReadBool":
		return "the bool"
	case "ReadSlice", "ReadMap", "ReadArray":
		return "len N"
	case "ReadAs":
		return "the type name " + extraValue(s)
	case "CallArg":
		return "the call, with its first string argument"
	case "Call", "CallWith":
		return "the call, with the value " + extraValue(s)
	}
	return s.Func
}

// extraValue is the quoted value a site passes after its expression
// (Site.Extra is `, "name"`).
func extraValue(s instrument.Site) string {
	return strings.TrimPrefix(s.Extra, ", ")
}
