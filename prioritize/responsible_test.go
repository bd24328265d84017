package prioritize

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// loopsTrace records, at sizes 1, 2, 4, 8 and 16, the calls the
// functions of testdata/loops/loops.go make (their frames point at its
// lines): a quadratic append through an equality helper (the getter's
// two return lines), a helper that loops over three getters called from
// four places, a recursive walk, a sort comparator, a loop reaching the
// getter through two delegating accessors, a fixed inner loop inside one
// that grows (records, fields) and a growing one inside another
// (dedupe, scan), each beside a getter the outer loop reads.
func loopsTrace(t *testing.T) *traceBuilder {
	t.Helper()
	at := loopsAt(t)
	const run = "main.run@/src/main/main.go:5"
	std := func(fn, file string) string { return fmt.Sprintf("sort.%s@/usr/local/go/src/sort/%s", fn, file) }
	b := newTrace("loops.suncat")
	for _, n := range []int{1, 2, 4, 8, 16} {
		b.mark(fmt.Sprintf("n=%d", n))
		// build -> appendUnique (loop) -> equal -> Name: n(n-1) calls,
		// from two return lines of the getter (two entries, see below).
		quad := []string{at("equal", 22), at("appendUnique", 27), at("build", 38), run}
		b.add(call{"Name", quad, "main.main", "x"}, n*(n-1)/2)
		b.add(call{"Name", quad, "main.worker", "x"}, n*(n-1)-n*(n-1)/2)
		// sum (loop) reads three getters; a, b, c, d call it.
		for i, caller := range []string{"a", "b", "c", "d"} {
			for j, g := range []string{"Name", "Title", "ID"} {
				b.add(call{g, []string{at("sum", 48+j), at(caller, 55+i), run}, "main.main", "v"}, n)
			}
		}
		// walk is recursive: n nodes at depths 1..3.
		for k := 0; k < n; k++ {
			st := []string{at("walk", 67)}
			for d := 0; d < k%3; d++ {
				st = append(st, at("walk", 69))
			}
			b.add(call{"Name", append(st, run), "main.main", "w"}, 1)
		}
		// byName sorts: the comparator is called from sort's loop.
		cmp := []string{at("byName.func1", 77), std("insertionSort_func", "zsortfunc.go:12"), std("Slice", "slice.go:20"), at("byName", 77), run}
		b.add(call{"Name", cmp, "main.main", "s"}, 2*n*int(math.Log2(float64(2*n))))
		// titles loops; Page.Name and T.Label delegate to Title.
		del := []string{at("(*T).Label", 14), at("(*Page).Name", 19), at("titles", 83), run}
		b.add(call{"Title", del, "main.main", "t"}, n)
		// records loops, fields' fixed loop reads three titles per
		// record: records is responsible for both (the ID calibrates).
		b.add(call{"ID", []string{at("records", 100), run}, "main.main", "r"}, n)
		b.add(call{"Title", []string{at("fields", 92), at("records", 101), run}, "main.main", "r"}, 3*n)
		// dedupe loops and reads IDs; scan's loop grows inside it.
		b.add(call{"ID", []string{at("dedupe", 119), run}, "main.main", "d"}, n)
		b.add(call{"Name", []string{at("scan", 110), at("dedupe", 120), run}, "main.main", "d"}, n*(n+1))
	}
	// The second entry's stack reaches Name from another return line.
	for i := range b.tr.Stacks {
		if b.tr.Stacks[i].Entry == "main.worker" {
			b.tr.Stacks[i].Frames[0].Line = 99
		}
	}
	return b
}

// TestResponsibleGolden: each finding names the function whose loop
// makes the calls grow, one finding per defect; the text is compared
// with testdata/golden/responsible.txt (-update rewrites it).
func TestResponsibleGolden(t *testing.T) {
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, loopsTrace(t).tr)
	text := FindingsText(f, 0)
	path := filepath.Join("testdata", "golden", "responsible.txt")
	if *update {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if text != string(want) {
		os.WriteFile(path+".got", []byte(text), 0o644)
		t.Errorf("findings differ from %s (see %s.got):\n%s", path, path, text)
	}
	got := map[string]*Finding{}
	for _, d := range f.Findings {
		got[shortFunc(d.Frame.Func)] = d
	}
	for _, tc := range []struct {
		fn, why  string
		class    Class
		getters  int
		callers  int
		line     int
		numSites int
	}{
		{"p.appendUnique", WhyLoop, ClassQuadratic, 1, 1, 27, 1},
		{"p.sum", WhyLoop, ClassLinear, 3, 4, 48, 12},
		{"p.walk", WhyRecursion, ClassLinear, 1, 1, 67, 1},
		{"p.byName", WhySort, ClassNLogN, 1, 1, 77, 1},
		{"p.titles", WhyLoop, ClassLinear, 1, 1, 83, 1},
		{"p.records", WhyLoop, ClassLinear, 2, 1, 101, 2},
		{"p.scan", WhyLoop, ClassQuadratic, 1, 1, 110, 1},
		{"p.dedupe", WhyLoop, ClassLinear, 1, 1, 119, 1},
	} {
		d := got[tc.fn]
		if d == nil {
			t.Errorf("no finding names %s", tc.fn)
			continue
		}
		if d.Sites[0].LoopLine == 0 && tc.why == WhyLoop {
			t.Errorf("%s: no loop line", tc.fn)
		}
		if d.Why != tc.why || d.Fit.Class != tc.class || len(d.Getters) != tc.getters || len(d.Callers) != tc.callers || d.Frame.Line != tc.line || len(d.Sites) != tc.numSites {
			t.Errorf("%s: %s %v, %d getters, %d callers, line %d, %d sites; want %s %v, %d, %d, line %d, %d sites",
				tc.fn, d.Why, d.Fit.Class, len(d.Getters), len(d.Callers), d.Frame.Line, len(d.Sites), tc.why, tc.class, tc.getters, tc.callers, tc.line, tc.numSites)
		}
	}
	if len(f.Findings) != 8 {
		t.Errorf("%d findings, want 8:\n%s", len(f.Findings), text)
	}
	if !strings.Contains(text, "3 getters, 4 callers") {
		t.Errorf("the helper's finding does not count its getters and callers:\n%s", text)
	}
}

// TestResponsibleNoSource: without the source, the responsible frame is
// the one that sets the site apart, past the getter's own type.
func TestResponsibleNoSource(t *testing.T) {
	b := newTrace("nosrc.suncat")
	for _, n := range []int{1, 2, 4, 8, 16} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"Title", []string{"example.com/p.(*T).Label@/nowhere/t.go:14", "example.com/p.list@/nowhere/l.go:3", "main.main@/nowhere/main.go:9"}, "main.main", "v"}, n)
	}
	f := buildFindingsOf(t, Options{}, b.tr)
	if len(f.Findings) != 1 || shortFunc(f.Findings[0].Frame.Func) != "p.list" || f.Findings[0].Why != WhyCaller {
		t.Errorf("findings:\n%s", FindingsText(f, 0))
	}
}

// TestResponsibleOwnTypeLoop: a method of the getter's own type that
// calls it from a loop is responsible (gqlparser's parser looping over
// its tokens through its name getter, doc/cases/gqlparser-reads.md);
// before, it was skipped as the getter's neighbour, and the finding named
// the fixed loop of its caller.
func TestResponsibleOwnTypeLoop(t *testing.T) {
	at := loopsAt(t)
	b := newTrace("owntype.suncat")
	for _, n := range []int{1, 2, 4, 8, 16} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"Name", []string{at("(*T).NameAll", 166), at("titles", 84), "main.main@/src/main/main.go:9"}, "main.main", "v"}, n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	if len(f.Findings) != 1 || shortFunc(f.Findings[0].Frame.Func) != "p.(*T).NameAll" || f.Findings[0].Why != WhyLoop {
		t.Errorf("findings:\n%s", FindingsText(f, 0))
	}
}

// TestResponsibleFoldedWalk: a tree walk calls two observers at each
// node (testdata/loops/observe.go): leaves reads the name of each leaf,
// collect loops over the root's children. Folded, both stacks read
// walkOne's loop over the observers reached by the same frames, and
// their counts are equal, but the leaves' reads are a level of the
// recursion deeper: they do not say that collect's loop is fixed, and it
// is named (gqlparser, doc/cases/gqlparser-reads.md, defect 2).
func TestResponsibleFoldedWalk(t *testing.T) {
	at := loopsFileAt(t, "observe.go")
	const run = "main.main@/src/main/main.go:9"
	b := newTrace("observe.suncat")
	for _, n := range []int{1, 2, 4, 8, 16} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"tree.name", []string{at("collect", 30), at("walkOne", 24), at("walkSet", 17), run}, "main.main", "c"}, n)
		b.add(call{"tree.name", []string{at("leaves", 37), at("walkOne", 24), at("walkSet", 17), at("walkOne", 22), at("walkSet", 17), run}, "main.main", "l"}, n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	named := map[string]bool{}
	for _, d := range f.Findings {
		named[shortFunc(d.Frame.Func)] = true
	}
	if !named["p.collect"] {
		t.Errorf("collect's loop is not named:\n%s", FindingsText(f, 0))
	}
}

// TestResponsibleRecursionLoop: a function that calls itself one level
// deep from its loop over the imports (testdata/loops/resolve.go) reads
// each import's name in the inner activation and a flag in the loop: one
// finding, named at the loop's recursive call, not a second one at the
// inner activation's read (a line in no loop). A tree walk, whose depth
// varies, keeps its recursion (TestResponsible's p.walk).
func TestResponsibleRecursionLoop(t *testing.T) {
	at := loopsFileAt(t, "resolve.go")
	const run = "main.main@/src/main/main.go:9"
	b := newTrace("resolve.suncat")
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"file.name", []string{at("find", 16), run}, "main.main", "top"}, n)
		b.add(call{"file.name", []string{at("find", 16), at("find", 26), run}, "main.main", "d"}, n*(n+1)/2)
		b.add(call{"file.public", []string{at("find", 23), run}, "main.main", "false"}, n*(n+1)/2)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1:\n%s", len(f.Findings), text)
	}
	d := f.Findings[0]
	if d.Frame.Func != "example.com/p.find" || d.Frame.Line != 26 || d.Fit.Class != ClassQuadratic || len(d.Sites) != 2 {
		t.Errorf("finding at %s:%d, %s, %d sites; want find:26, quadratic, 2 sites:\n%s", d.Frame.Func, d.Frame.Line, d.Fit.Class, len(d.Sites), text)
	}
}

// TestRecursionInLoopOneFinding: a loop that runs in every activation of
// a recursion (go-diff's bisect) is one finding: the outermost
// activation's site, found by the loop, and the deeper ones', found by
// the recursion, sum to the loop's n log n.
func TestRecursionInLoopOneFinding(t *testing.T) {
	at := loopsFileAt(t, "bisect.go")
	const run = "main.main@/src/main/main.go:9"
	b := newTrace("bisect.suncat")
	for _, n := range []int{64, 128, 256, 512} {
		b.mark(fmt.Sprintf("n=%d", n))
		st := []string{at("bisect", 10), at("compute", 6)}
		b.add(call{"x.v", append(slices.Clone(st), at("Diff", 5), run), "main.main", "1"}, n)
		for d := 1; 1<<d <= n; d++ {
			st = append(st, at("split", 17), at("bisect", 13), at("compute", 6))
			b.add(call{"x.v", append(slices.Clone(st), at("Diff", 5), run), "main.main", "1"}, n)
		}
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1:\n%s", len(f.Findings), text)
	}
	d := f.Findings[0]
	want := []int{64 * 7, 128 * 8, 256 * 9, 512 * 10}
	if d.Frame.Func != "example.com/p.bisect" || d.Fit.Class != ClassNLogN || !slices.Equal(d.Counts, want) {
		t.Errorf("finding at %s, %s, counts %v; want bisect, n log n, %v:\n%s", d.Frame.Func, d.Fit.Class, d.Counts, want, text)
	}
}

// TestRecursionOneLevelEveryStack: a function that calls itself once
// from its loop, one level deep in every stack of its reads, is that
// loop, as if the inner call were to another function: one finding at
// the loop, not at the loop further out.
func TestRecursionOneLevelEveryStack(t *testing.T) {
	at := loopsFileAt(t, "bisect.go")
	const run = "main.main@/src/main/main.go:9"
	b := newTrace("check.suncat")
	for _, n := range []int{100, 200, 400, 800} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"x.enum", []string{at("check", 45), at("check", 39), at("Diff", 5), run}, "main.main", "a"}, n*n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1:\n%s", len(f.Findings), text)
	}
	d := f.Findings[0]
	if d.Frame.Func != "example.com/p.check" || d.Frame.Line != 39 || d.Why != WhyLoop {
		t.Errorf("finding at %s:%d (%s), want check's loop, its call at line 39:\n%s", d.Frame.Func, d.Frame.Line, d.Why, text)
	}
}

// TestFlatLoopGrowingContext: a bare for loop is not taken for a flat
// one (a retry loop) on the word of a site that stays flat through it
// from elsewhere when, from there too, another site of the loop grows:
// graphql-go's visitor walks again from inside one of its callbacks, and
// each walk reads its root once (doc/cases/graphql-reads.md). Both
// walks' ancestor reads are the visitor's loop, one finding.
func TestFlatLoopGrowingContext(t *testing.T) {
	at := loopsFileAt(t, "visit.go")
	const run = "main.main@/src/main/main.go:9"
	first := []string{at("drive", 42), run}
	second := append([]string{at("again", 35), at("drive.func1", 42), at("visit", 26)}, first...)
	b := newTrace("visit.suncat")
	for _, n := range []int{100, 200, 400, 800} {
		b.mark(fmt.Sprintf("n=%d", n))
		for _, outer := range [][]string{first, second} {
			b.add(call{"x.kind", append([]string{at("visit", 24)}, outer...), "main.main", "field"}, n*(n+1)/2)
			b.add(call{"x.kind", append([]string{at("visit", 21)}, outer...), "main.main", "root"}, 1)
		}
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1:\n%s", len(f.Findings), text)
	}
	if d := f.Findings[0]; d.Frame.Func != "example.com/p.visit" || d.Why != WhyLoop {
		t.Errorf("finding at %s (%s), want visit's loop:\n%s", d.Frame.Func, d.Why, text)
	}
}

// TestCalibrationByTurns: a site in a fixed loop (two observers a node)
// inside a walk's loop moves out to the walk, calibrated by the walk's
// read made on every turn; neither the read made in one turn only (the
// root's) nor a read in a loop inside the walk's (each ancestor's) says
// how often the walk goes round.
func TestCalibrationByTurns(t *testing.T) {
	at := loopsFileAt(t, "visit.go")
	const run = "main.main@/src/main/main.go:9"
	outer := []string{at("observe", 52), run}
	b := newTrace("observe.suncat")
	for _, n := range []int{100, 200, 400, 800} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"x.kind", append([]string{at("visit", 21)}, outer...), "main.main", "root"}, 1)
		b.add(call{"x.kind", append([]string{at("visit", 24)}, outer...), "main.main", "field"}, n*(n-1)/2)
		b.add(call{"x.kid", append([]string{at("visit", 28)}, outer...), "main.main", "*chain"}, n)
		b.add(call{"x.kind", append([]string{at("look", 47), at("observe.func1", 54), at("visit", 26)}, outer...), "main.main", "field"}, 2*n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	for _, d := range f.Findings {
		if d.Frame.Func != "example.com/p.visit" {
			t.Errorf("a finding at %s:%d, want all at the walk's loop in visit:\n%s", d.Frame.Func, d.Frame.Line, text)
		}
	}
}

// TestRecursionTwoLoopsOneFinding: a recursion whose deeper activations
// read inside two loops of the function, with no site of those loops
// found by the loop itself, stays one finding, the recursion's.
func TestRecursionTwoLoopsOneFinding(t *testing.T) {
	at := loopsFileAt(t, "bisect.go")
	const run = "main.main@/src/main/main.go:9"
	b := newTrace("scan.suncat")
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("n=%d", n))
		for d := 1; d <= 3; d++ {
			var below []string
			for i := 0; i < d; i++ {
				below = append(below, at("scan", 24+4*(i%2)))
			}
			b.add(call{"x.v", append(append([]string{at("scan", 23)}, below...), run), "main.main", "1"}, n*n*d)
			b.add(call{"x.w", append(append([]string{at("scan", 27)}, below...), run), "main.main", "1"}, n*n*d)
		}
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 || f.Findings[0].Why != WhyRecursion {
		t.Fatalf("%d findings, want 1 recursion:\n%s", len(f.Findings), text)
	}
}

// TestFoldedAlike: two sites calibrate each other only if some of their
// stacks lost as many frames to folding.
func TestFoldedAlike(t *testing.T) {
	for _, tc := range []struct {
		a, b []int
		want bool
	}{
		{[]int{0}, []int{0}, true},
		{[]int{0}, []int{2}, false},   // all of one a level deeper (an observer of each leaf)
		{[]int{0, 2}, []int{0}, true}, // a list type's name read through its element's, now and then
		{[]int{2, 4, 6}, []int{1, 6}, true},
		{[]int{2, 4}, []int{1, 3, 5}, false},
	} {
		if got := foldedAlike(tc.a, tc.b); got != tc.want || foldedAlike(tc.b, tc.a) != tc.want {
			t.Errorf("foldedAlike(%v, %v) = %v, want %v either way", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestResponsibleTwoLoops: a function that registers n routes in one
// loop, passing a handler literal that starts on the line of the call,
// and serves requests in another, each scanning the routes
// (testdata/loops/serve.go, gorilla/mux's shape in doc/cases.md). The
// registration is named by serve's first loop, not by the literal
// (which has none); the scan by match, not moved out to serve by a site
// of serve's other loop; and the two loops are two findings.
func TestResponsibleTwoLoops(t *testing.T) {
	at := loopsFileAt(t, "serve.go")
	const run = "main.main@/src/main/main.go:5"
	b := newTrace("serve.suncat")
	const reqs = 100
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"Path", []string{at("add", 11), at("serve", 30), run}, "main.main", "/r"}, n)
		b.add(call{"Path", []string{at("match", 18), at("serve", 35), run}, "main.main", "/r"}, reqs*n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 2 {
		t.Fatalf("%d findings, want 2:\n%s", len(f.Findings), text)
	}
	for i, want := range []struct {
		fn         string
		line, loop int
	}{{"p.match", 18, 17}, {"p.serve", 30, 29}} {
		d := f.Findings[i]
		if shortFunc(d.Frame.Func) != want.fn || d.Frame.Line != want.line || d.Why != WhyLoop || d.Sites[0].LoopLine != want.loop || d.Fit.Class != ClassLinear {
			t.Errorf("finding %d: %s line %d, %s loop %d, %v; want %s line %d, loop %d, linear\n%s",
				i+1, shortFunc(d.Frame.Func), d.Frame.Line, d.Why, d.Sites[0].LoopLine, d.Fit.Class, want.fn, want.line, want.loop, text)
		}
	}
}

// TestClosureDepth: how many function literals deep a frame's function
// is, from its name.
func TestClosureDepth(t *testing.T) {
	for name, want := range map[string]int{
		"main.main":                           0,
		"example.com/app/mux.(*Router).Match": 0,
		"main.main.func1":                     1,
		"main.main.func1.2":                   2,
		"example.com/a.b/p.(*T).M.func3":      1,
		"example.com/p.F-range1":              0,
		"example.com/p.F.func1-range2":        1,
		"example.com/p.glob..func1":           1,
		"example.com/p.function":              0,
	} {
		if got := closureDepth(name); got != want {
			t.Errorf("closureDepth(%q) = %d, want %d", name, got, want)
		}
	}
}

// TestResponsibleReadInOwnMethod: a field read inside a loop of a method
// of the field's own type (a TUI model's View over its matches, gum's
// filter in doc/cases.md) is named by that method's loop. Only a
// getter's own type's methods are its neighbours; before, the read
// passed View by and named the event loop that calls it.
func TestResponsibleReadInOwnMethod(t *testing.T) {
	at := loopsFileAt(t, "view.go")
	b := newTrace("view.suncat")
	const views = 30
	for _, n := range []int{250, 500, 1000, 2000} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"reverse", []string{at("model.View", 14), at("eventLoop", 25), "main.main@/src/main/main.go:5"}, "main.main", "false"}, views*n)
	}
	for i := range b.tr.Getters {
		b.tr.Getters[i].Receiver, b.tr.Getters[i].Field = "model", "read:bool"
	}
	for i := range b.tr.Stacks {
		b.tr.Stacks[i].Frames[0].Func = "example.com/p.model.reverse"
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1:\n%s", len(f.Findings), text)
	}
	d := f.Findings[0]
	if shortFunc(d.Frame.Func) != "p.model.View" || d.Why != WhyLoop || d.Sites[0].LoopLine != 13 {
		t.Errorf("finding names %s (%s, loop line %d), want p.model.View's loop at line 13:\n%s", shortFunc(d.Frame.Func), d.Why, d.Sites[0].LoopLine, text)
	}
}

// TestLoopAtRangeHeader: a range's expression is evaluated once, so a
// read on the header's line (range m.matches) is not inside that loop
// (mux's Router.Match reading r.routes, which calibrated the loop of
// the reads inside it); a loop on one line is.
func TestLoopAtRangeHeader(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("testdata", "loops", "view.go"))
	if err != nil {
		t.Fatal(err)
	}
	// Not gofmt's layout, so written here rather than in testdata.
	one := "/src/p/one.go"
	s := NewSources(func(path string) ([]byte, error) {
		if path == one {
			return []byte("package p\n\nfunc total(ms []model) (n int) {\n\tfor _, m := range ms { n += len(m.View()) }\n\treturn n\n}\n"), nil
		}
		return os.ReadFile(path)
	}).cache()
	for _, tc := range []struct {
		fn         string
		line, want int
	}{
		{"example.com/p.model.View", 13, 0},
		{"example.com/p.model.View", 14, 13},
		{"example.com/p.eventLoop", 24, 0},
		{"example.com/p.eventLoop", 25, 24},
	} {
		if got := s.loopAt(src, tc.line, tc.fn); got != tc.want {
			t.Errorf("loopAt(view.go:%d) = %d, want %d", tc.line, got, tc.want)
		}
	}
	if got := s.loopAt(one, 4, "example.com/p.total"); got != 4 {
		t.Errorf("loopAt(one.go:4), a loop on one line = %d, want 4", got)
	}
}

// TestResponsibleMovedLoopForAll: a loop that the counts show does not
// grow (fields' fixed loop, its titles at 3 a record beside the ID read
// in records' loop) does not grow for any site through it with the same
// frames further out. A read made in that loop only now and then (a
// buffer refilled when a word crosses it: shfmt's lexer in
// doc/cases/shfmt-reads.md), a few calls whose share of the loop's
// shifts with the size, moves out with the titles to records' loop,
// whose calls are linear: one finding, where it was a second one of
// fields' loop (shfmt's read n log n and ranked first).
func TestResponsibleMovedLoopForAll(t *testing.T) {
	at := loopsAt(t)
	const run = "main.run@/src/main/main.go:5"
	b := newTrace("moved.suncat")
	for i, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"ID", []string{at("records", 100), run}, "main.main", "r"}, 10*n)
		b.add(call{"Title", []string{at("fields", 92), at("records", 101), run}, "main.main", "r"}, 30*n)
		b.add(call{"Name", []string{at("fields", 92), at("records", 101), run}, "main.main", "r"}, []int{1, 3, 9, 24}[i])
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1 (records' loop):\n%s", len(f.Findings), text)
	}
	d := f.Findings[0]
	if shortFunc(d.Frame.Func) != "p.records" || d.Fit.Class != ClassLinear || len(d.Sites) != 3 {
		t.Errorf("finding: %s %v, %d sites; want p.records linear, 3 sites\n%s", shortFunc(d.Frame.Func), d.Fit.Class, len(d.Sites), text)
	}
}

// TestResponsibleMovedLoopNotOutnumbered: a site that leaves a loop
// takes out only the sites it outnumbers. scan's loop grows (Name,
// n(n+1)); a read in it only the first time the scan meets a record (a
// value computed once: n calls, a steady ratio to dedupe's IDs) leaves
// it for dedupe's loop, but the scan's own reads stay scan's quadratic
// (go-jsonnet's std.member, whose elements are forced once, in
// doc/cases/jsonnet-reads.md).
func TestResponsibleMovedLoopNotOutnumbered(t *testing.T) {
	at := loopsAt(t)
	const run = "main.run@/src/main/main.go:5"
	b := newTrace("forced.suncat")
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"ID", []string{at("dedupe", 119), run}, "main.main", "d"}, n)
		b.add(call{"Name", []string{at("scan", 110), at("dedupe", 120), run}, "main.main", "d"}, n*(n+1))
		b.add(call{"Title", []string{at("scan", 110), at("dedupe", 120), run}, "main.main", "d"}, n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) == 0 {
		t.Fatalf("no findings:\n%s", text)
	}
	d := f.Findings[0]
	if shortFunc(d.Frame.Func) != "p.scan" || d.Fit.Class != ClassQuadratic || len(d.Sites) != 1 || !strings.HasSuffix(d.Sites[0].Name, "Name") {
		t.Errorf("first finding: %s %v, %d sites; want p.scan quadratic, its Name site alone\n%s", shortFunc(d.Frame.Func), d.Fit.Class, len(d.Sites), text)
	}
}

// TestResponsibleMovedTwoLoops: a read two loops of one inside the loop
// that grows (chain's, over the routes), whose nearest loop out has no
// read of its own: the route's group, read in chain's loop, keeps a
// steady ratio to it, so neither loop in between grows, and the read
// joins chain's finding (Caddy's route chain, doc/cases/caddy-reads.md:
// one defect, two findings before).
func TestResponsibleMovedTwoLoops(t *testing.T) {
	at := loopsAt(t)
	const run = "main.run@/src/main/main.go:5"
	b := newTrace("chain.suncat")
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("n=%d", n))
		b.add(call{"Group", []string{at("chain", 151), run}, "main.main", ""}, n)
		b.add(call{"Path", []string{at("matchSet", 133), at("anyMatch", 142), at("chain", 154), run}, "main.main", "/r"}, 2*n)
	}
	f := buildFindingsOf(t, Options{Sources: NewSources(os.ReadFile)}, b.tr)
	text := FindingsText(f, 0)
	if len(f.Findings) != 1 {
		t.Fatalf("%d findings, want 1 (chain's loop):\n%s", len(f.Findings), text)
	}
	if d := f.Findings[0]; shortFunc(d.Frame.Func) != "p.chain" || d.Fit.Class != ClassLinear || len(d.Sites) != 2 {
		t.Errorf("finding: %s %v, %d sites; want p.chain linear, 2 sites\n%s", shortFunc(d.Frame.Func), d.Fit.Class, len(d.Sites), text)
	}
}

// loopsAt returns a function that names frame fn of example.com/p at a
// line of testdata/loops/loops.go, as call stacks spell it.
func loopsAt(t *testing.T) func(fn string, line int) string { return loopsFileAt(t, "loops.go") }

// loopsFileAt is loopsAt for the file name of testdata/loops.
func loopsFileAt(t *testing.T, name string) func(fn string, line int) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", "loops", name))
	if err != nil {
		t.Fatal(err)
	}
	return func(fn string, line int) string { return fmt.Sprintf("example.com/p.%s@%s:%d", fn, src, line) }
}

// TestRecursiveDepthVaries: a function is recursive for a site when it
// appears twice in one of the site's stacks and not the same number of
// times in all of them; one that appears twice in every stack (an
// iterator wrapping an iterator of its own type) is not, and the loop
// around it is looked for further out.
func TestRecursiveDepthVaries(t *testing.T) {
	frame := func(fn string, line int) tracefile.Frame {
		return tracefile.Frame{Func: fn, File: "/src/main/main.go", Line: line}
	}
	next, scan, join := frame("plan.(*Tracked).Next", 306), frame("memory.(*iter).Next", 40), frame("rowexec.(*joinIter).Next", 158)
	nested := [][]tracefile.Frame{
		{next, scan, next, join},
		{next, scan, next, join},
	}
	if recursive(next, nested) {
		t.Errorf("a function twice in every stack of the site is recursive")
	}
	walk := frame("main.walk", 67)
	varying := [][]tracefile.Frame{{walk, join}, {walk, walk, join}, {walk, walk, walk, join}}
	if !recursive(walk, varying) {
		t.Errorf("a function at depths 1, 2 and 3 is not recursive")
	}
	if recursive(join, varying) {
		t.Errorf("a function once in every stack is recursive")
	}
}
