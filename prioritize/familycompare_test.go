package prioritize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// suiteRun is a suite's trace: TestFind/n=10..80 (linear), and
// BenchmarkPairs/n=2..16 with runs of b.N 1 and bn(n), calling pairs
// perOp(n) times per op.
func suiteRun(t *testing.T, bn func(n int) int, perOp func(n int) int) *Summary {
	t.Helper()
	b := newTrace("suite.suncat")
	find := call{"Name", []string{"main.find@/app/find.go:9"}, "testing.tRunner", "x"}
	pairs := call{"Name", []string{"main.pairs@/app/pairs.go:5"}, "testing.tRunner", "x"}
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("TestFind/n=%d", n))
		b.add(find, n)
	}
	for _, n := range []int{2, 4, 8, 16} {
		for _, r := range []int{1, bn(n)} {
			b.mark(fmt.Sprintf("BenchmarkPairs/n=%d (b.N=%d)", n, r))
			b.add(pairs, perOp(n)*r)
		}
	}
	s, err := Build([]*tracefile.Trace{b.tr}, Options{Goroutines: "all"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCompareFamilies: two suites are compared family by family, a
// benchmark's counts per op whatever b.N each run had, so a benchmark
// made quadratic is a class up, and the unchanged test the same.
func TestCompareFamilies(t *testing.T) {
	base := suiteRun(t, func(n int) int { return 1000 / n }, func(n int) int { return n })
	head := suiteRun(t, func(n int) int { return 7 }, func(n int) int { return n * n })
	c, err := Compare(base, head, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fc := range c.Families {
		for _, d := range fc.Sites {
			got = append(got, fmt.Sprintf("%s: %s %s -> %s", fc.Family, d.Change, SideText(d.Base), SideText(d.Head)))
		}
	}
	want := []string{
		"BenchmarkPairs, per op: class up linear 2|4|8|16 -> quadratic 4|16|64|256",
		"TestFind: same linear 10|20|40|80 -> linear 10|20|40|80",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("families:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(c.Sites) != 2 || fmt.Sprint(c.Families[0].Labels) != "[BenchmarkPairs/n=2 BenchmarkPairs/n=4 BenchmarkPairs/n=8 BenchmarkPairs/n=16]" {
		t.Errorf("%d sites; labels %q", len(c.Sites), c.Families[0].Labels)
	}
	fails := Gate{}.Check(c)
	if len(fails) != 1 || fails[0].Line != "(*T).Name at pairs.go:5 in BenchmarkPairs, per op: linear -> quadratic (2|4|8|16 -> 4|16|64|256)" {
		t.Errorf("failures: %+v", fails)
	}
	// HEAD's families given, as fitted for a report, are not fitted
	// again: without BenchmarkPairs, its site is BASE's alone.
	hf, _, err := Families(head, Options{Stacks: head.Findings.Stacks})
	if err != nil || len(hf) != 2 {
		t.Fatalf("%d families: %v", len(hf), err)
	}
	var find []*Family
	for _, f := range hf {
		if f.Name == "TestFind" {
			find = append(find, f)
		}
	}
	fitted, err := CompareFitted(base, head, find, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fitted.Families) != 2 || fitted.Families[0].Family != "TestFind" || fitted.Families[1].Sites[0].Change != ChangeGone {
		t.Errorf("HEAD given TestFind alone: %d families, %s first", len(fitted.Families), fitted.Families[0].Family)
	}
	// The same suite, other b.N: the same, per op.
	again := suiteRun(t, func(n int) int { return 3 }, func(n int) int { return n })
	if c, err = Compare(base, again, "", nil); err != nil {
		t.Fatal(err)
	}
	for _, d := range c.Sites {
		if d.Change != ChangeSame {
			t.Errorf("%s: %s", d.Where(), DiffLine(d))
		}
	}
	// -run keeps the members it names; HEAD alone is fitted per family.
	if c, err = Compare(nil, head, "BenchmarkPairs/n=(4|8|16)$", nil); err != nil {
		t.Fatal(err)
	}
	if len(c.Families) != 1 || len(c.Sites) != 1 || SideText(c.Sites[0].Head) != "quadratic 16|64|256" || c.Sites[0].Where() != "(*T).Name at pairs.go:5" {
		t.Errorf("-run: %d families, site %s %s", len(c.Families), c.Sites[0].Where(), SideText(c.Sites[0].Head))
	}
}
