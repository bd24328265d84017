package prioritize

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

func TestNameSize(t *testing.T) {
	for _, tc := range []struct {
		elem, tmpl string
		size       float64
	}{
		{"n=10", "n=#", 10},
		{"size_100", "size_#", 100},
		{"1000", "#", 1000},
		{"len:8", "len:#", 8},
		{"n=8#01", "n=#", 8},
		{"k=2,n=16", "k=2,n=#", 16},
		{"#00", "##", 0},
		{"32K", "#", 32 << 10},
		{"size=1M", "size=#", 1 << 20},
		{"4KiB/op", "#/op", 4 << 10},
		{"2MB", "#", 2 << 20},
		{"10ms", "#ms", 10},
	} {
		size, tmpl, ok := nameSize(tc.elem)
		if !ok || size != tc.size || tmpl != tc.tmpl {
			t.Errorf("nameSize(%q) = %v, %q, %v; want %v, %q", tc.elem, size, tmpl, ok, tc.size, tc.tmpl)
		}
	}
	if _, _, ok := nameSize("empty"); ok {
		t.Errorf("nameSize(empty) has a size")
	}
}

func TestBenchN(t *testing.T) {
	name, n, ok := BenchN("BenchmarkSort/n=10 (b.N=1000)")
	if !ok || name != "BenchmarkSort/n=10" || n != 1000 {
		t.Errorf("BenchN = %q, %d, %v", name, n, ok)
	}
	if name, _, ok := BenchN("TestX/n=10"); ok || name != "TestX/n=10" {
		t.Errorf("BenchN(test) = %q, %v", name, ok)
	}
}

// TestFamilies: a suite of tests that are families (sizes in their
// subtests' names) and tests that are not (indexes, names without sizes,
// no subtests); a benchmark family is fitted per op.
func TestFamilies(t *testing.T) {
	b := newTrace("suite.suncat")
	find := call{"Name", []string{"main.find@/app/find.go:9"}, "testing.tRunner", "x"}
	pairs := call{"Name", []string{"main.pairs@/app/pairs.go:5"}, "testing.tRunner", "x"}
	b.mark("TestPlain")
	b.add(find, 3)
	for i, n := range []int{3, 1, 4, 1, 5} { // indexes, whatever they find, in any order
		b.mark(fmt.Sprintf("TestCases/%d", (i+2)%5))
		b.add(find, n)
	}
	for i, n := range []int{3, 9, 27} {
		b.mark(fmt.Sprintf("TestCase/case_%d", i+1))
		b.add(find, n)
	}
	for _, name := range []string{"utf8", "base64", "ipv6", "int64_slice", "int64_slice#01", "uint64_slice", "Tabs/007", "Tabs/009", "Tabs/010", "Links/12", "Links/13", "Links/14", "Lists/303", "Lists/305", "Lists/326"} {
		b.mark("TestNames/" + name)
		b.add(find, 7)
	}
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("TestFind/n=%d", n))
		b.add(find, n)
	}
	for _, n := range []int{1, 2, 3, 4} { // counts 1, 2, 3 but named as sizes
		b.mark(fmt.Sprintf("TestPairs/size_%d", n))
		b.add(pairs, n*n)
	}
	for _, n := range []int{10, 100, 1000} {
		for _, bn := range []int{1, 10, 100} {
			b.mark(fmt.Sprintf("BenchmarkFind/%d (b.N=%d)", n, bn))
			b.add(find, n*bn)
		}
	}
	// The size in a middle element (bitset's size=%d/fn=ExtractTo), and
	// not taken from a later number without a size word
	// (size=%d/density=%.1f).
	for _, n := range []int{64, 256, 1024} {
		for _, fn := range []string{"fn=Extract", "fn=Deposit"} {
			b.mark(fmt.Sprintf("BenchmarkBits/size=%d/%s (b.N=10)", n, fn))
			b.add(find, n/64*10)
		}
		for _, d := range []string{"0.1", "0.5", "0.9"} {
			b.mark(fmt.Sprintf("TestOnes/size=%d/density=%s", n, d))
			b.add(pairs, 3)
		}
	}
	s, err := Build([]*tracefile.Trace{b.tr}, Options{Goroutines: "all"})
	if err != nil {
		t.Fatal(err)
	}
	fams, unsized, err := Families(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "[TestPairs n^2 1|4|9|16] [BenchmarkFind n 10|100|1000] [TestFind n 10|20|40|80] [BenchmarkBits/size=#/fn=Extract n 1|4|16] [BenchmarkBits/size=#/fn=Deposit n 1|4|16] " +
		"[TestOnes/size=#/density=0.1 none] [TestOnes/size=#/density=0.5 none] [TestOnes/size=#/density=0.9 none]"
	var got []string
	for _, f := range fams {
		g := f.Findings.Growing()
		if len(g) == 0 {
			got = append(got, fmt.Sprintf("[%s none]", f.Name))
			continue
		}
		got = append(got, fmt.Sprintf("[%s %s %s]", f.Name, g[0].Fit.Class, joinInts(g[0].Counts)))
	}
	if fmt.Sprint(got) != "["+want+"]" {
		t.Errorf("families:\n got %v\nwant [%s]", got, want)
	}
	wantUnsized := "[{TestPlain no subtests} {TestCases subtests 0..4 are indexes, not sizes} {TestCase subtests case_1..case_3 are indexes, not sizes} {TestNames subtests 007..010 are indexes, not sizes}]"
	if unsizedString(unsized) != wantUnsized {
		t.Errorf("unsized:\n got %v\nwant %s", unsizedString(unsized), wantUnsized)
	}
	for _, f := range fams {
		if f.Name == "BenchmarkFind" && fmt.Sprint(f.N) != "[100 100 100]" {
			t.Errorf("BenchmarkFind: b.N %v, want the longest runs", f.N)
		}
	}
}

func joinInts(xs []int) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += "|"
		}
		s += fmt.Sprint(x)
	}
	return s
}

func TestPackageName(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/Masterminds/semver/v3": "semver",
		"github.com/hashicorp/go-version":  "version",
		"gopkg.in/yaml.v3":                 "yaml",
		"example.com/words":                "words",
		"github.com/mattn/go-runewidth":    "runewidth",
		"github.com/tidwall/gjson":         "gjson",
		"github.com/spf13/cobra-go":        "cobra",
		"github.com/foo/v2":                "foo",
	} {
		if got := packageName(path); got != want {
			t.Errorf("packageName(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestNoSizesHintMainPackage: the template for a getter of a main
// package goes in package main, not in one named after the import path.
// The test binary names its functions example.com/confsrv.F either way:
// the name comes from the getter's file.
func TestNoSizesHintMainPackage(t *testing.T) {
	main := "/src/confsrv/main.go"
	src := memSources(map[string]string{main: "// A server.\npackage main\n\nfunc main() {}\n"})
	site := func(pkg, file string) *Site {
		return &Site{Package: pkg, Name: "(*Session).Title", Total: 41,
			Getter: tracefile.Getter{Package: pkg, File: file}}
	}
	for _, c := range []struct {
		site *Site
		want string
	}{
		{site("example.com/confsrv", main), "of package main:"},
		{site("example.com/go-sched/v2", "/no/such/file.go"), "of package sched:"},
	} {
		s := &Summary{Findings: &Findings{Sites: []*Site{c.site}}}
		if got := NoSizesHint(s, nil, src); !strings.Contains(got, c.want) {
			t.Errorf("NoSizesHint for %s lacks %q:\n%s", c.site.Getter.File, c.want, got)
		}
	}
}

// TestNoSizesHintReads: a -reads suite is told in its own words: the
// tests recorded field reads, and the field read most was read, not
// called.
func TestNoSizesHintReads(t *testing.T) {
	file := "/src/diff/diff.go"
	src := memSources(map[string]string{file: "package diff\n"})
	for _, c := range []struct {
		field, want, not string
	}{
		{tracefmt.ReadPrefix + "Type", "recorded field reads; ", "called most"},
		{"", "recorded getter calls; ", "read most"},
	} {
		g := tracefile.Getter{Package: "example.com/diff", Receiver: "Diff", Method: "Type", Field: c.field, File: file}
		site := &Site{Package: "example.com/diff", Name: "Diff.Type", Total: 70, Getter: g}
		s := &Summary{Findings: &Findings{Sites: []*Site{site}},
			Groups: []*Group{{Terminals: []*Terminal{{Name: "Diff.Type", Getter: g}}}}}
		got := NoSizesHint(s, nil, src)
		verb := "Diff.Type was read most (70 reads)"
		if c.field == "" {
			verb = "Diff.Type was called most (70 calls)"
		}
		if !strings.Contains(got, c.want) || !strings.Contains(got, verb) || strings.Contains(got, c.not) {
			t.Errorf("NoSizesHint with field %q lacks %q or %q:\n%s", c.field, c.want, verb, got)
		}
	}
}

// TestNoSizesHintCall: a -calls sql statement is recorded inside
// database/sql; the template goes in the package of the program that
// queries, never in database/sql, and not in the test's own file.
func TestNoSizesHintCall(t *testing.T) {
	store := "/src/notes/store/store.go"
	src := memSources(map[string]string{store: "package store\n"})
	sql := "/usr/local/go/src/database/sql/"
	site := &Site{Package: "database/sql", Name: "(*DB).QueryContext", Total: 90,
		Getter: tracefile.Getter{Package: "database/sql", Receiver: "*DB", Method: "QueryContext", Field: tracefmt.CallPrefix + "sql", File: sql + "sql.go"},
		Frames: []tracefile.Frame{
			{Func: "database/sql.(*DB).QueryContext", File: sql + "sql.go", Line: 1},
			{Func: "example.com/notes/store.(*Store).Tags", File: store, Line: 12},
			{Func: "example.com/notes/store.TestTags", File: filepath.Join(filepath.Dir(store), "store_test.go"), Line: 30},
		}}
	s := &Summary{Findings: &Findings{Sites: []*Site{site}}}
	got := NoSizesHint(s, nil, src)
	if !strings.Contains(got, "from example.com/notes/store; in a _test.go file of package store:") || strings.Contains(got, "package sql") {
		t.Errorf("NoSizesHint for a call in database/sql:\n%s", got)
	}
}

// FuzzFamilyNames: any set of labels groups into families without a
// panic; every member of a family has a size and the family two or more.
func FuzzFamilyNames(f *testing.F) {
	f.Add("TestFind/n=1\nTestFind/n=2\nTestFind/n=4\nTestX/0\nTestX/1")
	f.Add("BenchmarkA/1K (b.N=10)\nBenchmarkA/32K (b.N=1)\nBenchmarkA/1M (b.N=1)\nTestDup/#00\nTestDup/#01")
	f.Add("T/a/b/c=9\nT/a/b/c=9#01\nT/int64\nT/utf8\n/\n//5\nT/5e9999\nT/1.5.6")
	f.Add("B/size=64/fn=X\nB/size=256/fn=X\nB/size=1K/d=0.5\nB/size=4K/d=0.5\nT/n=1/2\nT/n=4/2/int8")
	f.Fuzz(func(t *testing.T, labels string) {
		var subs []SubTrace
		var used []bool
		for _, l := range strings.Split(labels, "\n") {
			subs = append(subs, SubTrace{Label: l, Events: 1})
			used = append(used, true)
			if size, tmpl, ok := nameSize(l); ok && (!strings.Contains(tmpl, "#") || size < 0) {
				t.Fatalf("nameSize(%q) = %v, %q", l, size, tmpl)
			}
		}
		groups, _ := familyGroups(subs, used)
		for _, g := range groups {
			if distinct(g.sizes) < 2 || len(g.sizes) != len(g.members) {
				t.Fatalf("family %q: members %q, sizes %v", g.parent, g.members, g.sizes)
			}
		}
	})
}

// unsizedString prints tests without sizes as "[{Name why} ...]".
func unsizedString(us []Unsized) string {
	var parts []string
	for _, u := range us {
		parts = append(parts, "{"+u.Name+" "+u.Why()+"}")
	}
	return "[" + strings.Join(parts, " ") + "]"
}
