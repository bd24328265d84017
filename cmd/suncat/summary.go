package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
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

	count       per call stack (terminal a, b, ...): calls in each sub-trace
	full        the Full Grammar (S -> A^4, A -> a^1|2|3|4 ...)
	summarized  counts replaced by their maximum, small items elided
	patterns    every repetition pattern, classified and prioritized:
	            increasing, then varying, then decreasing, then constant
	strings     the values each call stack returned, per sub-trace

By default every goroutine group (goroutines that started in the same
function) is summarized on its own, largest first.

-run keeps only the sub-traces whose label matches, with the rules of
go test -run: the traces of 'suncat test' label one sub-trace per test and
subtest with its full name (TestSearch/n=4), so the pattern you would give
go test selects the same tests; a parent test's own sub-traces are kept
with its subtests', as go test runs the parent.

Examples:

	suncat summary trace.suncat
	suncat summary -level patterns -kind increasing /tmp/suncat-traces/run-1/
	suncat summary -split idle=200ms -goroutines main.main trace.suncat
	suncat summary -json trace.suncat > summary.json
	suncat summary -run 'TestSearch/' /tmp/suncat-traces/test-1/
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
}

func (f *summaryFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.split, "split", "", "sub-traces: marks, idle=DURATION, at=GETTER or none (default: marks if the trace has any, else none)")
	fs.StringVar(&f.goroutines, "goroutines", "each", "each (one summary per goroutine group), all, or a regexp selecting groups by entry function")
	fs.IntVar(&f.frames, "frames", 0, "abstract events by the top `N` frames of their stacks (0: all)")
	fs.StringVar(&f.run, "run", "", "keep only the sub-traces whose label matches `REGEXP`, as go test -run matches test names (e.g. TestSearch/n=4)")
}

// options returns the summary's options, or a usage error for a value no
// summary takes.
func (f *summaryFlags) options() (prioritize.Options, error) {
	if f.frames < 0 {
		return prioritize.Options{}, usagef("-frames %d: want 0 or more", f.frames)
	}
	return prioritize.Options{Split: f.split, Frames: f.frames, Goroutines: f.goroutines, Run: f.run}, nil
}

func runSummary(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(summaryCmd, stderr)
	var sf summaryFlags
	sf.register(fs)
	level := fs.String("level", "all", "levels to print, comma-separated: count, full, summarized, patterns, strings, or all")
	min := fs.Int("min", 3, "Summarized Grammar: elide items whose largest count is below `N`")
	detail := fs.Bool("detail", false, "Summarized Grammar: print every count instead of the maximum")
	sortBy := fs.String("sort", "kind", "order of the patterns: kind, max or trend")
	kind := fs.String("kind", "", "only patterns of these kinds, comma-separated: increasing, varying, decreasing, constant")
	asJSON := fs.Bool("json", false, "print the summary as JSON (schema: README, 'suncat summary -json')")
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
	if !contains(prioritize.SortKeys, *sortBy) {
		return usagef("-sort %q: want one of %s", *sortBy, strings.Join(prioritize.SortKeys, ", "))
	}
	kinds, err := parseKinds(*kind)
	if err != nil {
		return err
	}
	opt, err := sf.options()
	if err != nil {
		return err
	}
	res, err := loadStreamed(stderr, "summary", fs.Args(), opt)
	if err != nil {
		return err
	}
	printNotes(stderr, "summary", res.Notes)
	s := res.Summary
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	return printSummary(stdout, s, levels, prioritize.SummarizeOptions{Min: *min, Detail: *detail}, *sortBy, kinds)
}

func printSummary(w io.Writer, s *prioritize.Summary, levels []string, sum prioritize.SummarizeOptions, sortBy string, kinds []prioritize.Kind) error {
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
			fmt.Fprintln(w, "no events in the traces")
		} else {
			fmt.Fprintf(w, "no events in any sub-trace (-split %s); -split none takes every event\n", s.Split)
		}
		return nil
	}
	for _, g := range s.Groups {
		fmt.Fprintf(w, "\n#### %s\n", prioritize.Header(g))
		if _, err := io.WriteString(w, prioritize.Text(g, levels, sum, sortBy, kinds)); err != nil {
			return err
		}
	}
	return nil
}

func parseLevels(s string) ([]string, error) {
	if s == "all" {
		return prioritize.Levels, nil
	}
	var out []string
	for _, l := range strings.Split(s, ",") {
		l = strings.TrimSpace(l)
		if !contains(prioritize.Levels, l) {
			return nil, usagef("-level %q: want all or some of %s", l, strings.Join(prioritize.Levels, ", "))
		}
		out = append(out, l)
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
