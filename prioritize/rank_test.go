package prioritize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// findingFrames lists the findings' responsible functions, in rank
// order.
func findingFrames(f *Findings) string {
	var out []string
	for _, d := range f.Findings {
		out = append(out, shortFunc(d.Frame.Func))
	}
	return strings.Join(out, " ")
}

// TestRankPerItemFirst: a linear walk with many calls per item and a
// quadratic lookup with few. With input sizes (labels n=..., or -sizes)
// the quadratic lookup, growth per item, is first though the walk is
// predicted more calls at the target; with repetitions of one action
// (unlabelled marks: sizes are positions) the walk's linear growth is
// itself a leak and ranks by its calls, as it did.
func TestRankPerItemFirst(t *testing.T) {
	record := func(label func(n int) string) *traceBuilder {
		b := newTrace("task.suncat")
		for _, n := range []int{1, 2, 3, 4} {
			b.mark(label(n))
			b.add(call{"Vars", []string{"example.com/app.walk@/app/vars.go:10"}, "main.main", "v"}, 400*n)
			b.add(call{"Task", []string{"example.com/app.lookup@/app/find.go:20"}, "main.main", "t"}, n*n)
		}
		return b
	}
	cases := []struct {
		name    string
		label   func(n int) string
		opt     Options
		want    string
		input   bool
		heading string
	}{
		{"labels", func(n int) string { return fmt.Sprintf("n=%d", n) }, Options{}, "app.lookup app.walk", true, "faster than linear first"},
		{"given", func(int) string { return "" }, Options{Sizes: []float64{1, 2, 3, 4}}, "app.lookup app.walk", true, "faster than linear first"},
		{"marks", func(int) string { return "" }, Options{}, "app.walk app.lookup", false, "by calls: a repetition should not grow"},
		{"counted", func(n int) string { return fmt.Sprintf("open %d", n) }, Options{}, "app.walk app.lookup", false, "by calls"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := buildFindingsOf(t, c.opt, record(c.label).tr)
			if got := findingFrames(f); got != c.want {
				t.Errorf("findings %q, want %q (sizes %v from %s)", got, c.want, f.Sizes, f.SizesFrom)
			}
			if f.InputSizes != c.input {
				t.Errorf("InputSizes %v, want %v", f.InputSizes, c.input)
			}
			if h := GrowText(f); !strings.Contains(h, c.heading) {
				t.Errorf("heading %q lacks %q", h, c.heading)
			}
		})
	}
}

// TestRankQueriesFirst: of two linear findings, the N+1 (a query a
// user, -calls sql) ranks above the seeding loop's getter calls, four a
// user, though it makes fewer calls (ent's generated mutations:
// doc/cases/ent-calls.md).
func TestRankQueriesFirst(t *testing.T) {
	at := appSources(t, map[string]string{
		"seed.go": "package app\n\nfunc seed(us []U) {\n\tfor _, u := range us {\n\t\tsave(u)\n\t}\n}\n",
		"list.go": "package app\n\nfunc list(us []U) {\n\tfor _, u := range us {\n\t\tpets(u)\n\t}\n}\n",
	})
	b := newTrace("ent.suncat")
	for _, n := range []int{100, 200, 400, 800} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"Name", []string{at("save", "seed.go", 9), at("seed", "seed.go", 5)}, "main.main", "user"}, 4*n)
		b.add(call{"QueryContext", []string{at("pets", "list.go", 9), at("list", "list.go", 5)}, "main.main", "SELECT pets"}, n)
	}
	for i, g := range b.tr.Getters {
		if g.Method == "QueryContext" {
			b.tr.Getters[i] = tracefile.Getter{ID: g.ID, Package: "database/sql", Receiver: "*DB", Method: "QueryContext", Field: tracefmt.CallPrefix + tracefmt.HookSQL}
		}
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	if got, want := findingFrames(f), "app.list app.seed"; got != want {
		t.Errorf("findings %q, want %q:\n%s", got, want, FindingsText(f, 0))
	}
}

// TestInputSizes: which labels give input sizes.
func TestInputSizes(t *testing.T) {
	cases := []struct {
		from   string
		labels []string
		sizes  []float64
		want   bool
	}{
		{SizesGiven, []string{"a", "b", "c"}, []float64{1, 2, 3}, true},
		{SizesFromPositions, []string{"a", "b", "c"}, []float64{1, 2, 3}, false},
		{SizesFromLabels, []string{"n=1", "n=2", "n=3"}, []float64{1, 2, 3}, true},
		{SizesFromLabels, []string{"stop 1", "stop 2", "stop 3"}, []float64{1, 2, 3}, false},
		{SizesFromLabels, []string{"mark 1", "mark 2", "mark 4"}, []float64{1, 2, 4}, false},
		{SizesFromLabels, []string{"episode 1", "episode 2", "episode 3"}, []float64{1, 2, 3}, false},
		{SizesFromLabels, []string{"Stop.Name #1", "Stop.Name #2", "Stop.Name #3"}, []float64{1, 2, 3}, false},
		{SizesFromLabels, []string{"w10.suncat", "w20.suncat", "w40.suncat"}, []float64{10, 20, 40}, true},
	}
	for _, c := range cases {
		if got := inputSizes(c.from, c.labels, c.sizes); got != c.want {
			t.Errorf("inputSizes(%s, %q) = %v, want %v", c.from, c.labels, got, c.want)
		}
	}
}

// TestRankSetupLast: in a test of an N+1, the test creates N rows, so its
// setup grows with the size too, and more: the N+1 (a loop in the code
// under test) is first, a statement found only as its caller (no loop on
// the stack: a request the test made) next, the test's own loop
// (a _test.go file) last, though it makes the most calls.
func TestRankSetupLast(t *testing.T) {
	at := appSources(t, map[string]string{
		"handler.go":    "package app\n\nfunc List(ids []int) {\n\tfor _, id := range ids {\n\t\ttags(id)\n\t}\n}\n",
		"insert.go":     "package app\n\nfunc insert(i int) {\n\texec(i)\n}\n",
		"store_test.go": "package app\n\nfunc TestList(t *testing.T) {\n\tfor i := 0; i < n; i++ {\n\t\tinsert(i)\n\t}\n}\n",
	})
	b := newTrace("test.suncat")
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("TestList/n=%d", n))
		b.add(call{"Query", []string{at("tags", "handler.go", 9), at("List", "handler.go", 5), at("TestList.func1", "store_test.go", 9)}, "testing.tRunner", "SELECT tags"}, n)
		b.add(call{"Exec", []string{at("insert", "insert.go", 4), at("TestList", "store_test.go", 5)}, "testing.tRunner", "INSERT"}, 3*n)
		b.add(call{"Prepare", []string{at("insert", "insert.go", 4), at("serve", "insert.go", 30)}, "example.com/app.serve", "SELECT 1"}, 2*n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	if !f.Test || !f.InputSizes {
		t.Fatalf("Test %v, InputSizes %v; want both", f.Test, f.InputSizes)
	}
	if got, want := findingFrames(f), "app.List app.insert app.TestList"; got != want {
		t.Errorf("findings %q, want %q", got, want)
	}
	if h := GrowText(f); !strings.Contains(h, "test setup last") {
		t.Errorf("heading %q", h)
	}
	s, err := Build([]*tracefile.Trace{b.tr}, Options{Sources: NewSources(os.ReadFile)})
	if err != nil {
		t.Fatal(err)
	}
	fams, _, err := Families(s, Options{Sources: NewSources(os.ReadFile)})
	if err != nil || len(fams) != 1 {
		t.Fatalf("families %v, %v", fams, err)
	}
	if got, want := findingFrames(fams[0].Findings), "app.List app.insert app.TestList"; got != want {
		t.Errorf("family's findings %q, want %q", got, want)
	}
}

// TestRankLoopSumClass: a writer's per-byte loop, linear in the bytes
// written, under two stacks whose shares shift with the size: a list's
// first page, rendered in the loop over all pages (which the rule names
// for that stack: its pages' titles keep a steady ratio to the bytes),
// and its later pages, which appear as lists pass the pager's size (Hugo's
// HasBytesWriter.Write, doc/cases/hugo-related.md: its counts at 50..400
// pages over 100). The later pages' share alone reads quadratic; the
// finding takes all the calls made inside its loop, linear, and the real
// quadratic with fewer calls ranks first.
func TestRankLoopSumClass(t *testing.T) {
	at := appSources(t, map[string]string{
		"scan.go":    "package app\n\nfunc scan(p []byte) {\n\tfor i := range p {\n\t\tcheck(i)\n\t}\n}\n",
		"render.go":  "package app\n\nfunc render(ps []Page) {\n\tfor _, p := range ps {\n\t\ttitle(p)\n\t\tscan(p.b)\n\t}\n}\n\nfunc pager(ps []Page) {\n\tfor _, p := range ps {\n\t\tscan(p.b)\n\t}\n}\n",
		"related.go": "package app\n\nfunc related(ps []int) {\n\tfor _, p := range ps {\n\t\tweight(p)\n\t}\n}\n",
	})
	build := func(first, later []int) *Findings {
		search := []int{144, 1050, 5027, 24270}
		b := newTrace("site.suncat")
		for i, n := range []int{50, 100, 200, 400} {
			b.mark(fmt.Sprintf("n=%d", n))
			b.add(call{"Title", []string{at("render", "render.go", 5)}, "main.main", "t"}, first[i]/100)
			b.add(call{"buff", []string{at("scan", "scan.go", 5), at("render", "render.go", 6)}, "main.main", "b"}, first[i])
			b.add(call{"buff", []string{at("scan", "scan.go", 5), at("pager", "render.go", 12)}, "main.main", "b"}, later[i])
			b.add(call{"Weight", []string{at("related", "related.go", 5), at("render", "render.go", 7)}, "main.main", "w"}, search[i])
		}
		return buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	}
	first, later := []int{8400, 15900, 26100, 38700}, []int{749, 1903, 10215, 34458}
	f := build(first, later)
	if got, want := findingFrames(f), "app.related app.scan app.render"; got != want {
		t.Fatalf("findings %q, want %q", got, want)
	}
	scan := f.Findings[1]
	if scan.Fit.Class != ClassLinear || scan.Counts[3] != first[3]+later[3] || len(scan.Sites) != 1 || scan.Sites[0].Fit.Class <= ClassLinear {
		t.Errorf("scan: %v, counts %v, %d sites; want n over both stacks, from one faster site", scan.Fit.Class, scan.Counts, len(scan.Sites))
	}
	// The first pages keep the whole's pace (linear) and the later
	// pages' share is small but quadratic: it may take the whole over,
	// and stays quadratic.
	f = build([]int{8400, 16800, 33600, 67200}, []int{30, 120, 480, 1920})
	if d := f.Findings[1]; findingFrames(f) != "app.related app.scan app.render" || d.Fit.Class != ClassQuadratic || d.Counts[3] != 1920 {
		t.Errorf("a small quadratic share beside a linear rest: %q, %v %v; want app.scan second, quadratic, its own counts", findingFrames(f), d.Fit.Class, d.Counts)
	}
}

// appSources writes the source files of package example.com/app into a
// temporary directory and returns at, which names a frame in one of
// them as the tests' call stacks do: "example.com/app.fn@file:line".
func appSources(t *testing.T, files map[string]string) (at func(fn, file string, line int) string) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return func(fn, file string, line int) string {
		return fmt.Sprintf("example.com/app.%s@%s:%d", fn, filepath.Join(dir, file), line)
	}
}
