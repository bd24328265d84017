package prioritize

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// run describes a suncat test run for the comparison tests: the tests
// (labels, in order), and for each getter call site the calls it makes
// in a test of size n.
type site struct {
	getter string
	stack  []string
	calls  func(n int) int
}

func linear(n int) int    { return n }
func quadratic(n int) int { return n * n }
func constant(int) int    { return 3 }

// lookupAt is the stack of a lookup at line, called from TestFind.
func lookupAt(line int) []string {
	return []string{fmt.Sprintf("example.com/dir.lookup@/src/dir/dir.go:%d", line), "example.com/dir.TestFind.func1@/src/dir/dir_test.go:30"}
}

func summaryOf(t *testing.T, labels []string, sites ...site) *Summary {
	t.Helper()
	b := newTrace("run.suncat")
	for _, l := range labels {
		b.mark(l)
		n, _ := LabelSize(l)
		for _, s := range sites {
			if c := s.calls(int(n)); c > 0 {
				b.add(call{s.getter, s.stack, "testing.tRunner", "v"}, c)
			}
		}
	}
	s, err := Build([]*tracefile.Trace{b.tr}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func findLabels(sizes ...int) []string {
	var out []string
	for _, n := range sizes {
		out = append(out, fmt.Sprintf("TestFind/n=%d", n))
	}
	return out
}

func compareOf(t *testing.T, base, head *Summary) *Comparison {
	t.Helper()
	c, err := Compare(base, head, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func failureLines(fs []Failure) string {
	var b strings.Builder
	for _, f := range fs {
		if f.Waived {
			b.WriteString("waived: ")
		}
		b.WriteString(f.Line + "\n")
	}
	return b.String()
}

var sizes5 = findLabels(1, 2, 4, 8, 16)

// TestCompareRegression: the lookup turned quadratic (and moved two lines
// down) is matched with its old self by function, and fails the gate
// with the classes and counts of both runs; unchanged code passes.
func TestCompareRegression(t *testing.T) {
	base := summaryOf(t, sizes5, site{"Name", lookupAt(21), linear})
	head := summaryOf(t, sizes5, site{"Name", lookupAt(23), quadratic})
	c := compareOf(t, base, head)
	if len(c.Sites) != 1 {
		t.Fatalf("%d sites, want 1: %+v", len(c.Sites), c.Sites)
	}
	d := c.Sites[0]
	if d.Change != ChangeUp || d.Noise {
		t.Errorf("change %q (noise %v), want %q", d.Change, d.Noise, ChangeUp)
	}
	if d.Base.Line != 21 || d.Head.Line != 23 {
		t.Errorf("lines %d -> %d, want 21 -> 23", d.Base.Line, d.Head.Line)
	}
	if c.Target != 160 || d.Head.Predicted < 25000 || d.Base.Predicted > 200 {
		t.Errorf("target %v, predicted %v -> %v", c.Target, d.Base.Predicted, d.Head.Predicted)
	}
	got := failureLines(Gate{}.Check(c))
	want := "(*T).Name at dir.go:23: linear -> quadratic (1|2|4|8|16 -> 1|4|16|64|256)\n"
	if got != want {
		t.Errorf("failures:\n%s\nwant:\n%s", got, want)
	}

	same := compareOf(t, base, summaryOf(t, sizes5, site{"Name", lookupAt(21), linear}))
	if fs := (Gate{Max: ClassLinear}).Check(same); len(fs) != 0 {
		t.Errorf("unchanged code fails:\n%s", failureLines(fs))
	}
	if d := same.Sites[0]; d.Change != ChangeSame {
		t.Errorf("unchanged: change %q, want %q", d.Change, ChangeSame)
	}
}

// TestCompareMaxAllow: -max fails a site above it, new or not, and with
// or without BASE; -allow waives it by getter, function or file:line.
func TestCompareMaxAllow(t *testing.T) {
	lin := summaryOf(t, sizes5, site{"Name", lookupAt(21), linear})
	quad := summaryOf(t, sizes5, site{"Name", lookupAt(21), quadratic})
	for _, tc := range []struct {
		name       string
		base, head *Summary
		gate       Gate
		want       string
	}{
		{"head alone", nil, quad, Gate{Max: ClassLinear},
			"(*T).Name at dir.go:21: quadratic, above -max linear (1|4|16|64|256)\n"},
		{"head alone, within max", nil, lin, Gate{Max: ClassLinear}, ""},
		{"same class above max", quad, quad, Gate{Max: ClassLinear},
			"(*T).Name at dir.go:21: quadratic -> quadratic, above -max linear (1|4|16|64|256 -> 1|4|16|64|256)\n"},
		{"worse and above", lin, quad, Gate{Max: ClassConstant},
			"(*T).Name at dir.go:21: linear -> quadratic, above -max constant (1|2|4|8|16 -> 1|4|16|64|256)\n"},
		{"allow getter", lin, quad, Gate{Allow: regexp.MustCompile(`p\.\(\*T\)\.Name$`)},
			"waived: (*T).Name at dir.go:21: linear -> quadratic (1|2|4|8|16 -> 1|4|16|64|256)\n"},
		{"allow func", nil, quad, Gate{Max: ClassLinear, Allow: regexp.MustCompile(`dir\.lookup`)},
			"waived: (*T).Name at dir.go:21: quadratic, above -max linear (1|4|16|64|256)\n"},
		{"allow file:line", lin, quad, Gate{Allow: regexp.MustCompile(`^dir\.go:21$`)},
			"waived: (*T).Name at dir.go:21: linear -> quadratic (1|2|4|8|16 -> 1|4|16|64|256)\n"},
		{"allow other", lin, quad, Gate{Allow: regexp.MustCompile(`Other`)},
			"(*T).Name at dir.go:21: linear -> quadratic (1|2|4|8|16 -> 1|4|16|64|256)\n"},
		{"better", quad, lin, Gate{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := failureLines(tc.gate.Check(compareOf(t, tc.base, tc.head))); got != tc.want {
				t.Errorf("failures:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestCompareNewGone: a new site and a site gone are listed; a new site
// that grows where BASE had nothing fails, unless AllowNew accepts it
// (not above -max).
func TestCompareNewGone(t *testing.T) {
	other := []string{"example.com/dir.scan@/src/dir/scan.go:5", "example.com/dir.TestFind.func1@/src/dir/dir_test.go:31"}
	old := []string{"example.com/dir.walk@/src/dir/walk.go:9", "example.com/dir.TestFind.func1@/src/dir/dir_test.go:32"}
	base := summaryOf(t, sizes5, site{"Name", lookupAt(21), linear}, site{"Name", old, constant})
	head := summaryOf(t, sizes5, site{"Name", lookupAt(21), linear}, site{"Name", other, quadratic})
	c := compareOf(t, base, head)
	var got []string
	for _, d := range c.Sites {
		got = append(got, d.Func+" "+d.Change)
	}
	want := []string{"example.com/dir.scan " + ChangeNew, "example.com/dir.lookup " + ChangeSame, "example.com/dir.walk " + ChangeGone}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sites %q, want %q", got, want)
	}
	for _, tc := range []struct {
		gate Gate
		want string
	}{
		{Gate{}, "new: quadratic (*T).Name at scan.go:5 in dir.scan (1|4|16|64|256)\n"},
		{Gate{AllowNew: true}, "waived: new: quadratic (*T).Name at scan.go:5 in dir.scan (1|4|16|64|256)\n"},
		{Gate{AllowNew: true, Max: ClassLinear}, "new: quadratic (*T).Name at scan.go:5 in dir.scan (1|4|16|64|256), above -max linear\n"},
	} {
		if got := failureLines(tc.gate.Check(c)); got != tc.want {
			t.Errorf("%+v: failures:\n%s\nwant:\n%s", tc.gate, got, tc.want)
		}
	}
	// Without BASE nothing is new.
	alone, err := Compare(nil, head, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if fs := (Gate{}).Check(alone); len(fs) != 0 {
		t.Errorf("HEAD alone fails without -max:\n%s", failureLines(fs))
	}
}

// TestCompareLoop: a new site in a loop where BASE had a slower site
// fails, naming BASE's class there; one no faster passes; a query made
// in a function the loop calls is paired with the loop's query (a fix
// that replaces N queries by one is a class down).
func TestCompareLoop(t *testing.T) {
	inLoop := []string{"example.com/dir.lookup@/src/dir/dir.go:21", "example.com/dir.TestFind.func1@/src/dir/dir_test.go:31"}
	second := []string{"example.com/dir.lookup@/src/dir/dir.go:23", "example.com/dir.TestFind.func1@/src/dir/dir_test.go:31"}
	helper := []string{"example.com/dir.all@/src/dir/dir.go:50", "example.com/dir.lookup@/src/dir/dir.go:20", "example.com/dir.TestFind.func1@/src/dir/dir_test.go:31"}
	lin := summaryOf(t, sizes5, site{"Name", inLoop, linear})
	quad := summaryOf(t, sizes5, site{"Name", inLoop, linear}, site{"Title", second, quadratic})
	again := summaryOf(t, sizes5, site{"Name", inLoop, linear}, site{"Title", second, linear})
	fixed := summaryOf(t, sizes5, site{"Title", helper, constant})
	c := compareOf(t, lin, quad)
	want := "new: quadratic (*T).Title at dir.go:23 in dir.lookup (1|4|16|64|256), linear in BASE at that loop\n"
	if got := failureLines((Gate{}).Check(c)); got != want {
		t.Errorf("failures:\n%s\nwant:\n%s", got, want)
	}
	if fs := (Gate{}).Check(compareOf(t, lin, again)); len(fs) != 0 {
		t.Errorf("a second linear site in a linear loop fails:\n%s", failureLines(fs))
	}
	c = compareOf(t, lin, fixed)
	if len(c.Sites) != 1 || c.Sites[0].Change != ChangeDown {
		for _, d := range c.Sites {
			t.Errorf("site %s %s", d.Func, d.Change)
		}
		t.Fatalf("N+1 -> one query: want one site, a class down")
	}
	if fs := (Gate{}).Check(c); len(fs) != 0 {
		t.Errorf("the fix fails:\n%s", failureLines(fs))
	}
	c = compareOf(t, fixed, lin)
	if got, want := failureLines((Gate{}).Check(c)), "(*T).Name at dir.go:21: constant -> linear (3|3|3|3|3 -> 1|2|4|8|16)\n"; got != want {
		t.Errorf("one query -> N+1: failures:\n%s\nwant:\n%s", got, want)
	}
}

// TestCompareLabels: sub-traces are matched by label; each side's tests
// that the other does not have are left out, and so is the order.
func TestCompareLabels(t *testing.T) {
	noise := site{"Title", []string{"example.com/dir.other@/src/dir/o.go:3", "example.com/dir.TestOther@/src/dir/o_test.go:3"}, quadratic}
	base := summaryOf(t, append(findLabels(1, 2, 4, 8, 16), "TestOther/n=7"), site{"Name", lookupAt(21), linear}, noise)
	head := summaryOf(t, findLabels(16, 8, 4, 2, 32), site{"Name", lookupAt(21), quadratic})
	c := compareOf(t, base, head)
	if want := findLabels(16, 8, 4, 2); !reflect.DeepEqual(c.Labels, want) {
		t.Errorf("labels %q, want %q", c.Labels, want)
	}
	if want := []float64{16, 8, 4, 2}; !reflect.DeepEqual(c.Sizes, want) {
		t.Errorf("sizes %v, want %v", c.Sizes, want)
	}
	d := c.Sites[0]
	if want := []int{16, 8, 4, 2}; !reflect.DeepEqual(d.Base.Counts, want) {
		t.Errorf("base counts %v, want %v", d.Base.Counts, want)
	}
	if want := []int{256, 64, 16, 4}; !reflect.DeepEqual(d.Head.Counts, want) {
		t.Errorf("head counts %v, want %v", d.Head.Counts, want)
	}
	if d.Change != ChangeUp {
		t.Errorf("change %q, want %q", d.Change, ChangeUp)
	}
	if c.Sites[len(c.Sites)-1].Change != ChangeGone {
		t.Errorf("the other test's site: %q, want %q", c.Sites[len(c.Sites)-1].Change, ChangeGone)
	}

	_, err := Compare(summaryOf(t, []string{"TestA/n=1"}, site{"Name", lookupAt(21), linear}), head, "", nil)
	if err == nil || !strings.Contains(err.Error(), `share no sub-trace`) || !strings.Contains(err.Error(), `"TestA/n=1"`) {
		t.Errorf("no shared labels: error %v", err)
	}
}

// TestCompareStackMatch: a second caller of the same helper moves the
// old site's distinguishing frame; the site is still matched, by its
// whole stack's functions, and its regression still fails.
func TestCompareStackMatch(t *testing.T) {
	helper := func(from string) []string {
		return []string{"example.com/dir.get@/src/dir/get.go:4", from}
	}
	base := summaryOf(t, sizes5, site{"Name", helper("example.com/dir.lookup@/src/dir/dir.go:21"), linear})
	head := summaryOf(t, sizes5,
		site{"Name", helper("example.com/dir.lookup@/src/dir/dir.go:22"), quadratic},
		site{"Name", helper("example.com/dir.list@/src/dir/list.go:8"), constant})
	c := compareOf(t, base, head)
	got := failureLines(Gate{}.Check(c))
	want := "(*T).Name at dir.go:22: linear -> quadratic (1|2|4|8|16 -> 1|4|16|64|256)\n"
	if got != want {
		t.Errorf("failures:\n%s\nwant:\n%s", got, want)
	}
}

// TestCompareNoise: a class up whose counts at the largest size barely
// move is noise, listed but not failing.
func TestCompareNoise(t *testing.T) {
	sizes := []float64{1, 2, 4, 8, 16}
	side := func(c Class, counts ...int) *SiteSide { return &SiteSide{Counts: counts, Fit: Fit{Class: c}} }
	for _, tc := range []struct {
		base, head *SiteSide
		change     string
		noise      bool
	}{
		{side(ClassLinear, 1, 2, 4, 8, 16), side(ClassNLogN, 1, 2, 5, 9, 18), ChangeUp, true},
		{side(ClassLinear, 1, 2, 4, 8, 16), side(ClassNLogN, 1, 2, 8, 24, 64), ChangeUp, false},
		{side(ClassConstant, 1, 1, 1, 1, 1), side(ClassLinear, 1, 1, 2, 2, 2), ChangeUp, true}, // 1 call more: below minGain
		{side(ClassQuadratic, 1, 4, 16, 64, 256), side(ClassLinear, 1, 2, 4, 8, 16), ChangeDown, false},
		{side(ClassNone, 1, 2), side(ClassLinear, 1, 4), ChangeNoClass, false},
	} {
		d := &SiteDiff{Base: tc.base, Head: tc.head}
		d.classify(sizes)
		if d.Change != tc.change || d.Noise != tc.noise {
			t.Errorf("%v -> %v: change %q noise %v, want %q %v", tc.base, tc.head, d.Change, d.Noise, tc.change, tc.noise)
		}
		if fails := d.Change == ChangeUp && !d.Noise; fails != (len(Gate{}.Check(&Comparison{Sites: []*SiteDiff{d}})) > 0) {
			t.Errorf("%v -> %v: gate disagrees with the change", tc.base, tc.head)
		}
	}
}

// TestCompareJSON: a summary read back from its JSON form compares as the
// summary itself.
func TestCompareJSON(t *testing.T) {
	base := summaryOf(t, sizes5, site{"Name", lookupAt(21), linear}, site{"Title", lookupAt(40), constant})
	head := summaryOf(t, sizes5, site{"Name", lookupAt(21), quadratic})
	data, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	want, got := compareOf(t, base, head), compareOf(t, &back, head)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("from JSON:\n%+v\nwant:\n%+v", got, want)
	}
	if a, b := failureLines(Gate{}.Check(got)), failureLines(Gate{}.Check(want)); a != b || a == "" {
		t.Errorf("verdicts differ:\n%s\n%s", a, b)
	}
}

func TestParseClass(t *testing.T) {
	for in, want := range map[string]Class{
		"constant": ClassConstant, "log": ClassLog, "log n": ClassLog, "linear": ClassLinear, "n": ClassLinear,
		"n log n": ClassNLogN, "nlogn": ClassNLogN, "Quadratic": ClassQuadratic, "n^2": ClassQuadratic,
		"cubic": ClassCubic, "n^3": ClassCubic, "exponential": ClassExponential, "2^n": ClassExponential,
	} {
		if got, err := ParseClass(in); got != want || err != nil {
			t.Errorf("ParseClass(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"none", "", "fast", "n^4"} {
		if _, err := ParseClass(in); err == nil || !strings.Contains(err.Error(), "want one of constant, log, linear") {
			t.Errorf("ParseClass(%q): error %v", in, err)
		}
	}
}

// TestCompareRun: a suite is compared per test family, so a test
// without a size in its name is left out (it once made the sizes
// positions); -run keeps the table test, whose labels give the sizes.
func TestCompareRun(t *testing.T) {
	labels := append(findLabels(1, 2, 4, 8, 16), "TestOther")
	other := site{"Title", []string{"example.com/dir.other@/src/dir/o.go:3", "example.com/dir.TestOther@/src/dir/o_test.go:3"}, func(n int) int {
		if n == 0 { // TestOther: no size in its name
			return 1
		}
		return 0
	}}
	base := summaryOf(t, labels, site{"Name", lookupAt(21), linear}, other)
	head := summaryOf(t, labels, site{"Name", lookupAt(21), quadratic}, other)
	all := compareOf(t, base, head)
	if want := []float64{1, 2, 4, 8, 16}; !reflect.DeepEqual(all.Sizes, want) || len(all.Families) != 1 {
		t.Errorf("all: sizes %v, %d families, want %v of TestFind", all.Sizes, len(all.Families), want)
	}
	c, err := Compare(base, head, "TestFind", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 2, 4, 8, 16}; !reflect.DeepEqual(c.Sizes, want) {
		t.Errorf("-run TestFind: sizes %v, want %v", c.Sizes, want)
	}
	want := "(*T).Name at dir.go:21: linear -> quadratic (1|2|4|8|16 -> 1|4|16|64|256)\n"
	if got := failureLines(Gate{}.Check(c)); got != want {
		t.Errorf("-run TestFind: failures:\n%s\nwant:\n%s", got, want)
	}
	if _, err := Compare(base, head, "TestNone", nil); err == nil || !strings.Contains(err.Error(), `whose label matches "TestNone"`) {
		t.Errorf("-run TestNone: error %v", err)
	}
	if _, err := Compare(base, head, "Test[/", nil); err == nil {
		t.Errorf("-run Test[: no error")
	}
}

// TestWhereAmbiguous: sites that Where would write alike are told apart
// by the frames that differ: the line of the read (a getter that reads
// one field on two lines, called from one place), a caller further out
// (one loop reached from two calls), and both where both are needed;
// others keep the short form.
func TestWhereAmbiguous(t *testing.T) {
	side := &SiteSide{File: "/src/main.go", Line: 30}
	fr := func(at ...string) []tracefile.Frame { // "file:line"
		var fs []tracefile.Frame
		for _, a := range at {
			fs = append(fs, parseFrame("f@/src/"+a))
		}
		return fs
	}
	sites := []*SiteDiff{
		{Name: "C.M", Head: side, frames: fr("main.go:15", "main.go:30")},
		{Name: "C.M", Head: side, frames: fr("main.go:18", "main.go:30")},
		{Name: "Meta.Name", Head: side, frames: fr("main.go:18", "main.go:30")},
		{Name: "box.n", Head: side, frames: fr("main.go:14", "main.go:14", "main.go:25")},
		{Name: "box.n", Head: side, frames: fr("main.go:14", "main.go:14", "main.go:26")},
		{Name: "buf.arr", Head: side, frames: fr("b.go:56", "p.go:9", "p.go:1")},
		{Name: "buf.arr", Head: side, frames: fr("b.go:56", "p.go:9", "p.go:2")},
		{Name: "buf.arr", Head: side, frames: fr("b.go:64", "p.go:9", "p.go:1")},
		{Name: "buf.arr", Head: side, frames: fr("b.go:64", "p.go:9", "p.go:2")},
	}
	markAmbiguous(sites)
	for i, want := range []string{"C.M (main.go:15) at main.go:30", "C.M (main.go:18) at main.go:30", "Meta.Name at main.go:30",
		"box.n at main.go:30 via main.go:25", "box.n at main.go:30 via main.go:26",
		"buf.arr (b.go:56) at main.go:30 via p.go:1", "buf.arr (b.go:56) at main.go:30 via p.go:2",
		"buf.arr (b.go:64) at main.go:30 via p.go:1", "buf.arr (b.go:64) at main.go:30 via p.go:2"} {
		if got := sites[i].Where(); got != want {
			t.Errorf("site %d: Where() = %q, want %q", i, got, want)
		}
	}
}
