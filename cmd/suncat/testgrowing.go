package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

// reportTraces says where the run's traces are and, with growth, lists
// the findings per test family, then, when benchmarks ran (bench), their
// ns/op with the recording's cost. A directory suncat made (made) that
// holds no trace is removed.
func reportTraces(stderr io.Writer, dir string, made, growth bool, bench func(*prioritize.Summary)) {
	traces := tracesIn(dir)
	if len(traces) == 0 {
		if made && os.Remove(dir) == nil {
			fmt.Fprintln(stderr, "suncat: no test called a getter: no trace")
		} else {
			fmt.Fprintf(stderr, "suncat: no test called a getter: no trace; directory: %s\n", dir)
		}
		bench(nil)
		return
	}
	fmt.Fprintf(stderr, "suncat: %d trace(s), one per test binary, in %s\n", len(traces), dir)
	var s *prioritize.Summary
	if growth {
		s = growing(stderr, traces)
	}
	bench(s)
	fmt.Fprintf(stderr, "suncat: next: suncat summary %s\n", dir)
}

// growingMax bounds the traces growing reads (their total size): the
// point is a glance at the end of a run, not a wait.
const growingMax = 64 << 20

// growing prints, at the end of a test run, the top finding of each test
// family (a test or benchmark whose subtests' names give sizes:
// TestFind/n=1, /n=2, ...; see prioritize.Families), families ranked by
// it, and the tests that give no class. Traces that do not read, or are
// too big, are left to 'suncat summary'.
func growing(w io.Writer, paths []string) *prioritize.Summary {
	files, err := loadTraces(paths)
	if err != nil {
		return nil
	}
	var total int64
	for _, f := range files {
		total += f.Size()
	}
	if total > growingMax {
		fmt.Fprintf(w, "suncat: traces of %s in all, over %s: the findings per test family are left to suncat summary\n", byteSize(total), byteSize(growingMax))
		return nil
	}
	src := userSources()
	st, err := streamSummary(files, prioritize.Options{Split: "marks", Sources: src}, nil)
	if err != nil {
		return nil
	}
	printNotes(w, "test", st.Notes)
	if stopped(st) {
		fmt.Fprintln(w, "suncat: "+strings.TrimPrefix(stoppedSuite, "-- "))
	}
	s := st.Summary
	if len(s.Groups) == 0 {
		return s
	}
	fams, unsized, err := prioritize.Families(s, prioritize.Options{Sources: src})
	if err != nil {
		return s
	}
	if len(fams) == 0 {
		fmt.Fprintf(w, "suncat: no test family has sizes (%d test(s) without: subtest names such as n=10, size_100 or 1000 give them): nothing to fit; the summary shows a sized table test to add\n", len(unsized))
		return s
	}
	fmt.Fprintln(w, "suncat: findings per test family, ranked (in each, faster than linear first, test setup last; calls predicted at 10x each family's largest size):")
	for i, fam := range fams {
		if i == 8 {
			fmt.Fprintf(w, "suncat:   ... and %d more families\n", len(fams)-i)
			break
		}
		fmt.Fprintf(w, "suncat:   %s\n", prioritize.FamilyLine(fam))
		if n := len(fam.Findings.Findings); n > 1 {
			fmt.Fprintf(w, "suncat:     and %d more finding(s)\n", n-1)
		}
	}
	if len(unsized) > 0 {
		fmt.Fprintln(w, "suncat: "+prioritize.UnsizedLine(unsized))
	}
	return s
}
