package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/prioritize/stream"
)

var summaryCmd = &command{
	name:  "summary",
	args:  "[flags] TRACE|DIR...",
	short: "print the Performance Summary of traces",
	order: 40,
	long: `
Summary reads one or more traces (files, or directories of .suncat files),
abstracts each event to its call stack, splits the trace into sub-traces
(one per repetition of your action), compresses it with the lossy grammar
and prints the Performance Summary at the chosen levels of detail:

	findings    (the default) the call sites that grow with the input
	            size, over all goroutines, with their growth class
	            (n, n log n, n^2, ...) and the calls predicted at -at
	count       per call stack (terminal a, b, ...): calls in each sub-trace
	full        the Full Grammar (S -> A^4, A -> a^1|2|3|4 ...)
	summarized  counts replaced by their maximum, small items elided
	            (both grammars: the first 100 items of each rule, or
	            -top N; a last line counts the rest)
	patterns    every repetition pattern, classified and prioritized:
	            increasing, then varying, then decreasing, then constant
	strings     the values each call stack returned, per sub-trace

-level all prints the findings and every other level. Each sub-trace's
input size is the last number of its label when every label has one
(TestFind/n=8, a mark "size 400", a trace file n400.suncat read with
-split none), else its position 1, 2, 3, ...; -sizes gives them. A site
grows when it was called at two sizes or more, its best fit explains at
least 80% of the counts' variation and predicts at least twice as many
calls, and 2 more, at the largest size as at the smallest; it gets the
simplest class that fits about as well (doc/findings.md).

Every goroutine group (goroutines that started in the same function) is
summarized on its own, largest first.

-run keeps only the sub-traces whose label matches, with the rules of
go test -run: the traces of 'suncat test' label one sub-trace per test and
subtest with its full name (TestSearch/n=4), so the pattern you would give
go test selects the same tests; a parent test's own sub-traces are kept
with its subtests', as go test runs the parent.

Examples:

	suncat summary trace.suncat
	suncat summary -sizes 50,100,200,400 -at 10000 n50.suncat n100.suncat n200.suncat n400.suncat
	suncat summary -level patterns -kind increasing /tmp/suncat-traces-1000/run-1/
	suncat summary -split idle=200ms -goroutines main.main trace.suncat
	suncat summary -json trace.suncat > summary.json
	suncat summary -run 'TestSearch/' /tmp/suncat-traces-1000/test-1/
`,
}

func init() {
	summaryCmd.run = runSummary
	register(summaryCmd)
}

// summaryFlags are shared by summary and view.
type summaryFlags struct {
	split, goroutines string
	run               string
	frames            int
	sizes, stacks     string
	at                float64
	noPatterns        bool // set by the command: it shows no patterns
	patterns          int  // set by the command: patterns kept per group, items per grammar rule (0: the default)
	noGrammar         bool // set by the command: it shows no grammar (nor patterns)
}

func (f *summaryFlags) register(fs *flag.FlagSet) {
	f.registerSubTraces(fs)
	fs.StringVar(&f.goroutines, "goroutines", "each", "each (one summary per goroutine group), all, or a regexp selecting groups by entry function")
	fs.IntVar(&f.frames, "frames", 0, "abstract events by the top `N` frames of their stacks (0: all)")
	fs.StringVar(&f.sizes, "sizes", "", "findings: the input size of each sub-trace, comma-separated (e.g. 50,100,200,400; default: the last number of every label, else 1, 2, 3, ...)")
	fs.Float64Var(&f.at, "at", 0, "findings: predict the counts at size `N` (default: ten times the largest size)")
	fs.StringVar(&f.stacks, "stacks", "folded", "findings: call sites by folded stacks (recursion folded, standard library left out) or whole stacks")
}

// load checks the flags' options, reads the traces (args) with them
// for command cmd, and prints the reader's notes.
func (f *summaryFlags) load(stderr io.Writer, cmd string, args []string) (*stream.Result, prioritize.Options, error) {
	opt, err := f.options()
	if err != nil {
		return nil, opt, err
	}
	res, err := loadStreamed(stderr, cmd, args, opt)
	if err != nil {
		return nil, opt, err
	}
	printNotes(stderr, cmd, res.Notes)
	return res, opt, nil
}

// registerSubTraces registers the flags that choose the sub-traces
// (-split, -run), for commands that take only those (pprof).
func (f *summaryFlags) registerSubTraces(fs *flag.FlagSet) {
	fs.StringVar(&f.split, "split", "", "sub-traces: marks, idle=DURATION, at=GETTER or none (default: marks if the trace has any, else none)")
	fs.StringVar(&f.run, "run", "", "keep only the sub-traces whose label matches `REGEXP`, as go test -run matches test names (e.g. TestSearch/n=4)")
}

// options returns the summary's options, or a usage error for a value no
// summary takes (a -split, -goroutines or -run that no trace allows
// included).
func (f *summaryFlags) options() (prioritize.Options, error) {
	if f.frames < 0 {
		return prioritize.Options{}, usagef("-frames %d: want 0 or more", f.frames)
	}
	sizes, err := prioritize.ParseSizes(f.sizes)
	if err != nil {
		return prioritize.Options{}, usagef("%v", err)
	}
	if f.at < 0 {
		return prioritize.Options{}, usagef("-at %v: want a size above 0", f.at)
	}
	if f.stacks != "" && f.stacks != prioritize.StacksFolded && f.stacks != prioritize.StacksWhole {
		return prioritize.Options{}, usagef("-stacks %q: want folded or whole", f.stacks)
	}
	opt := prioritize.Options{Split: f.split, Frames: f.frames, Goroutines: f.goroutines, Run: f.run,
		Sizes: sizes, At: f.at, Stacks: f.stacks, NoPatterns: f.noPatterns, Patterns: f.patterns, Items: f.patterns,
		NoGrammar: f.noGrammar, Sources: userSources()}
	// Values no trace allows are misuse, reported before any trace is
	// looked for or read.
	return opt, checkSummaryOptions(opt)
}

func runSummary(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(summaryCmd, stderr)
	var sf summaryFlags
	sf.register(fs)
	level := fs.String("level", "findings", "levels to print, comma-separated: findings, count, full, summarized, patterns, strings, or all")
	top := fs.Int("top", 10, "findings: show the `N` findings (defects) predicted to make the most calls; patterns, strings, grammars and -json: keep the first N patterns of each group and the first N items of each grammar rule, 100 when N is less")
	min := fs.Int("min", 3, "Summarized Grammar: elide items whose largest count is below `N`")
	detail := fs.Bool("detail", false, "Summarized Grammar: print every count instead of the maximum")
	sortBy := fs.String("sort", "kind", "order of the patterns: kind, max or trend")
	kind := fs.String("kind", "", "only patterns of these kinds, comma-separated: increasing, varying, decreasing, constant")
	asJSON := fs.Bool("json", false, "print the summary as JSON (schema: doc/summary.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("give at least one trace file or directory")
	}
	levels, err := parseLevels(*level)
	if err != nil {
		return err
	}
	if *top < 1 {
		return usagef("-top %d: want 1 or more", *top)
	}
	if !contains(prioritize.SortKeys, *sortBy) {
		return usagef("-sort %q: want one of %s", *sortBy, strings.Join(prioritize.SortKeys, ", "))
	}
	kinds, err := parseKinds(*kind)
	if err != nil {
		return err
	}
	// The patterns, a pass over every place of the grammar (millions for
	// a -reads trace), are made only for the levels and the JSON that
	// show them, and each group keeps the first -top (at least 100).
	sf.noPatterns = !*asJSON && !contains(levels, "patterns") && !contains(levels, "strings")
	sf.patterns = max(*top, prioritize.DefaultPatterns)
	// The grammar, which keeps every event's call stack until it is
	// compressed, is made only for those and the levels full and
	// summarized: the findings and the Count Summary need only the counts
	// and values of each call site.
	sf.noGrammar = sf.noPatterns && !contains(levels, "full") && !contains(levels, "summarized")
	res, opt, err := sf.load(stderr, "summary", fs.Args())
	if err != nil {
		return err
	}
	s := res.Summary
	if *asJSON {
		out := summaryJSON{Summary: s}
		if fams, unsized, ok := suiteFamilies(s, opt); ok {
			out.Families, out.Unsized = fams, unsized
			if out.Families == nil {
				out.Families = []*prioritize.Family{}
			}
		}
		return encodeIndented(stdout, out)
	}
	return printSummary(stdout, s, summaryView{levels: levels, top: *top, sum: prioritize.SummarizeOptions{Min: *min, Detail: *detail}, sortBy: *sortBy, kinds: kinds,
		opt: opt, stopped: stopped(res)})
}

// summaryView says what printSummary prints: the levels (findings and
// the per-group levels), how many findings, and the patterns' options.
type summaryView struct {
	levels []string
	top    int
	sum    prioritize.SummarizeOptions
	sortBy string
	kinds  []prioritize.Kind
	// The findings of a test suite are fitted per family (see
	// prioritize.Families, suiteFamilies) with opt, unless -sizes fits
	// the run as one (opt.Sizes).
	opt prioritize.Options
	// stopped: a trace's recording stopped (its size cap, a full disk),
	// so a suite's later tests were not recorded.
	stopped bool
}

// levelFindings is the findings level: the defects whose calls grow, over all
// goroutine groups, printed before the groups.
const levelFindings = "findings"

func printSummary(w io.Writer, s *prioritize.Summary, v summaryView) error {
	levels, findings := v.levels, false
	if len(levels) > 0 && levels[0] == levelFindings {
		levels, findings = levels[1:], true
	}
	run := ""
	if s.Run != "" {
		run = fmt.Sprintf(", only -run %q", s.Run)
	}
	split := "sub-traces: " + s.Split
	if s.Split == "none" {
		split = "one sub-trace per trace file"
	}
	fmt.Fprintf(w, "Performance Summary of %s (%s%s)\n", strings.Join(s.Traces, ", "), split, run)
	if len(s.Groups) == 0 {
		if s.Split == "none" {
			fmt.Fprintln(w, noEvents)
		} else {
			fmt.Fprintf(w, "no events in any sub-trace (-split %s); -split none takes every event\n", s.Split)
		}
		return nil
	}
	if findings {
		io.WriteString(w, "\n"+findingsText(s, v))
		if n, calls := s.Unkept(); n > 0 {
			fmt.Fprintf(w, "\nvalues: %d call sites returned more than 1024 distinct values in a trace; %d calls past those are counted, their values not kept\n", n, calls)
		}
		if len(levels) == 0 {
			fmt.Fprintf(w, "\n(-level all adds, per goroutine group, the Count Summary, grammars, patterns and strings)\n")
			return nil
		}
	}
	for _, g := range s.Groups {
		fmt.Fprintf(w, "\n#### %s\n", prioritize.Header(g))
		if err := prioritize.WriteText(w, g, levels, v.sum, v.sortBy, v.kinds); err != nil {
			return err
		}
	}
	return nil
}

// parseLevels parses -level; findings, when asked for, comes first.
func parseLevels(s string) ([]string, error) {
	all := append([]string{levelFindings}, prioritize.Levels...)
	if s == "all" {
		return all, nil
	}
	var out []string
	findings := false
	for _, l := range strings.Split(s, ",") {
		l = strings.TrimSpace(l)
		switch {
		case l == levelFindings:
			findings = true
		case contains(prioritize.Levels, l):
			out = append(out, l)
		default:
			return nil, usagef("-level %q: want all or some of %s", l, strings.Join(all, ", "))
		}
	}
	if findings {
		out = append([]string{levelFindings}, out...)
	}
	return out, nil
}

func parseKinds(s string) ([]prioritize.Kind, error) {
	if s == "" {
		return nil, nil
	}
	var out []prioritize.Kind
	for _, k := range strings.Split(s, ",") {
		kind, err := prioritize.ParseKind(strings.TrimSpace(k))
		if err != nil {
			return nil, usagef("-kind: %w", err)
		}
		out = append(out, kind)
	}
	return out, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// defaultSummaryView is what suncat summary prints without flags.
var defaultSummaryView = summaryView{levels: []string{levelFindings}, top: 10, sum: prioritize.SummarizeOptions{Min: 3}, sortBy: "kind"}

// noEvents is what summary says of traces without a single event.
const noEvents = "no events in the traces: the program called none of the instrumented getters (Go code reads fields more often than it calls getters: instrument with -reads to record field reads, -calls sql to record database queries; suncat getters -v lists what is instrumented and why)"

// findingsText is the summary's findings: per family for a test suite
// (the tests of 'suncat test'), else over the whole run.
func findingsText(s *prioritize.Summary, v summaryView) string {
	if fams, unsized, ok := suiteFamilies(s, v.opt); ok {
		t := prioritize.FamiliesText(s, fams, unsized, v.top, v.opt.Sources)
		if v.stopped {
			t += stoppedSuite + "\n"
		}
		return t
	}
	return prioritize.FindingsText(s.Findings, v.top)
}

// stoppedSuite is what the findings of a suite add when a trace's
// recording stopped before the suite ended.
const stoppedSuite = "-- recording stopped before the run ended (see the note above): the tests after that point are not in the trace; SUNCAT_MAX_SIZE=0 (no size cap) or fewer tests (-run, -bench) records them"

// stopped reports whether a trace's recording stopped (its size cap, a
// full disk: tracefile.Trace.Stopped).
func stopped(r *stream.Result) bool {
	for _, tr := range r.Traces {
		if tr.Stopped != "" {
			return true
		}
	}
	return false
}

// summaryJSON is what summary -json prints: the summary, and for a test
// suite its families and the tests that give no class (families is
// then present, empty when no test has sizes).
type summaryJSON struct {
	*prioritize.Summary
	Families []*prioritize.Family `json:"families,omitempty"`
	Unsized  []prioritize.Unsized `json:"unsized,omitempty"`
}

// suiteFamilies returns a test suite's families (prioritize.Families)
// as summary and view show them: ok is false when the summary is no
// suite's, or -sizes fits the run as one.
func suiteFamilies(s *prioritize.Summary, opt prioritize.Options) ([]*prioritize.Family, []prioritize.Unsized, bool) {
	if len(opt.Sizes) > 0 || !prioritize.IsSuite(s) {
		return nil, nil, false
	}
	fams, unsized, err := prioritize.Families(s, opt)
	if err != nil {
		return nil, nil, false
	}
	return fams, unsized, true
}
