package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/prioritize"
)

// suiteTrace writes the trace of a test suite: TestFind/n=10..80, each
// calling a getter perN(n) times from the test's goroutine.
func suiteTrace(t *testing.T, path string, perN func(n int) int) {
	t.Helper()
	s := testtrace.NewSynth("find.test")
	g := s.Getters(1, true)
	stack := []testtrace.Frame{{Func: "example.com/p.T.M1", File: "/src/p/t.go", Line: 1},
		{Func: "example.com/p.find", File: "/src/p/find.go", Line: 9}, {Func: "testing.tRunner", File: "/go/testing.go", Line: 1}}
	for _, n := range []int{10, 20, 40, 80} {
		s.Mark(fmt.Sprintf("TestFind/n=%d", n), 10)
		for i := 0; i < perN(n); i++ {
			s.Event(g, stack, "x", 1)
		}
	}
	if err := s.WriteFile(path); err != nil {
		t.Fatal(err)
	}
}

// TestReportBaseFitsOnce: report -base on two suites compares the
// families it fitted for the page (before, prioritize.Compare fitted
// HEAD's families a second time); CompareFitted fits none it is given
// (TestCompareFamilies).
func TestReportBaseFitsOnce(t *testing.T) {
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base.suncat"), filepath.Join(dir, "head.suncat")
	suiteTrace(t, base, func(n int) int { return n })
	suiteTrace(t, head, func(n int) int { return n * n / 10 })
	var given [][]*prioritize.Family
	defer func(f func(base, head *prioritize.Summary, fams []*prioritize.Family, run string, src *prioritize.Sources) (*prioritize.Comparison, error)) {
		compareFitted = f
	}(compareFitted)
	compareFitted = func(b, h *prioritize.Summary, fams []*prioritize.Family, run string, src *prioritize.Sources) (*prioritize.Comparison, error) {
		given = append(given, fams)
		return prioritize.CompareFitted(b, h, fams, run, src)
	}
	var out, errb bytes.Buffer
	if err := run(&out, &errb, []string{"report", "-base", base, "-o", filepath.Join(dir, "r.html"), head}); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if len(given) != 1 || len(given[0]) != 1 || given[0][0].Name != "TestFind" {
		t.Fatalf("compared with the families %v, want the page's one, TestFind", given)
	}
	page, err := os.ReadFile(filepath.Join(dir, "r.html"))
	if err != nil || !bytes.Contains(page, []byte("class up")) {
		t.Errorf("the page has no site that went a class up: %v\n%s", err, page)
	}
}
