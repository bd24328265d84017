package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

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
		d *prioritize.Finding
		f *prioritize.Findings
	}
	var all []found
	fams := prioritize.Families(subTraceLabels(s))
	for _, fam := range fams {
		f, err := prioritize.FindingsOf(s, func(l string) bool { return l == fam || strings.HasPrefix(l, fam+"/") }, prioritize.Options{})
		if err != nil {
			continue
		}
		for _, d := range f.Findings {
			all = append(all, found{d, f})
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
	sort.SliceStable(all, func(i, j int) bool { return all[i].d.Predicted > all[j].d.Predicted })
	fmt.Fprintln(w, "suncat: what grows, by calls predicted at 10x the largest size:")
	for i, x := range all {
		if i == 5 {
			fmt.Fprintf(w, "suncat:   ... and %d more\n", len(all)-5)
			break
		}
		first, last := "", ""
		for k, c := range x.d.Counts {
			if c > 0 && x.f.Used[k] {
				if first == "" {
					first = s.Groups[0].SubTraces[k].Label
				}
				last = s.Groups[0].SubTraces[k].Label
			}
		}
		fmt.Fprintf(w, "suncat:   %s  over %s .. %s\n", prioritize.FindingLine(x.f, x.d), first, last)
	}
}

func subTraceLabels(s *prioritize.Summary) []string {
	var out []string
	for _, st := range s.Groups[0].SubTraces {
		out = append(out, st.Label)
	}
	return out
}
