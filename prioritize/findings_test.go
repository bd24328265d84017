package prioritize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

const goroot = "/usr/local/go/src/"

// call is one getter call for traceBuilder: its getter ("(*Item).Name"
// style method name on *T in package p), its stack below the getter as
// "Func@file:line" frames, nearest first, and the goroutine's entry.
type call struct {
	getter string
	stack  []string
	entry  string
	value  string
}

// traceBuilder records calls into an in-memory trace, with a mark before
// each sub-trace.
type traceBuilder struct {
	tr      *tracefile.Trace
	stacks  map[string]uint32
	getters map[string]uint32
	now     int64
	seq     uint64
	tick    int64 // ns per call; 1 µs when 0
}

func newTrace(path string) *traceBuilder {
	return &traceBuilder{tr: &tracefile.Trace{Path: path}, stacks: map[string]uint32{}, getters: map[string]uint32{}}
}

func (b *traceBuilder) mark(label string) {
	b.now += 1000
	b.tr.Marks = append(b.tr.Marks, tracefile.Marker{Seq: b.seq, Time: b.now, Kind: tracefile.KindMark, Label: label})
	b.seq++
}

func parseFrame(s string) tracefile.Frame {
	fn, loc, _ := strings.Cut(s, "@")
	file, line, _ := strings.Cut(loc, ":")
	n, _ := strconv.Atoi(line)
	return tracefile.Frame{Func: fn, File: file, Line: n}
}

func (b *traceBuilder) add(c call, times int) { b.addStack(c, times, false) }

// addStack is add, with the stack marked cut at the writer's depth limit
// (tracefile.Stack.Truncated) when cut.
func (b *traceBuilder) addStack(c call, times int, cut bool) {
	gid, ok := b.getters[c.getter]
	if !ok {
		gid = uint32(len(b.getters) + 1)
		b.getters[c.getter] = gid
		b.tr.Getters = append(b.tr.Getters, tracefile.Getter{ID: gid, Package: "example.com/p", Receiver: "*T", Method: c.getter, File: "/src/p/t.go", Line: int(gid)})
	}
	key := c.getter + "\x00" + strings.Join(c.stack, "\x00") + "\x00" + c.entry
	sid, ok := b.stacks[key]
	if !ok {
		sid = uint32(len(b.stacks) + 1)
		b.stacks[key] = sid
		fs := []tracefile.Frame{{Func: "example.com/p.(*T)." + c.getter, File: "/src/p/t.go", Line: int(gid)}}
		for _, f := range c.stack {
			fs = append(fs, parseFrame(f))
		}
		b.tr.Stacks = append(b.tr.Stacks, tracefile.Stack{ID: sid, Entry: c.entry, Frames: fs, Truncated: cut})
	}
	tick := b.tick
	if tick == 0 {
		tick = 1000
	}
	for i := 0; i < times; i++ {
		b.now += tick
		b.tr.Events = append(b.tr.Events, tracefile.Event{Seq: b.seq, Time: b.now, Getter: gid, Stack: sid, Value: c.value, Entry: c.entry})
		b.seq++
	}
}

func buildFindingsOf(t *testing.T, opt Options, trs ...*tracefile.Trace) *Findings {
	t.Helper()
	s, err := Build(trs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s.Findings
}

func siteAt(f *Findings, where string) *Site {
	for _, s := range f.Sites {
		if s.Where() == where {
			return s
		}
	}
	return nil
}

func sitesOf(f *Findings) string {
	var b strings.Builder
	for _, s := range f.Sites {
		fmt.Fprintf(&b, "%s %s %v %v\n", s.Name, s.Where(), s.Counts, s.Fit.Class)
	}
	return b.String()
}

// TestFindingsRecursionFolded: a comparator reached through sort's
// internal recursion, from a recursive evaluator, at depths that differ
// from call to call, is one site, whose counts grow as n log n; with
// whole stacks it falls apart into one site per stack shape.
func TestFindingsRecursionFolded(t *testing.T) {
	b := newTrace("eval.suncat")
	sizes := []int{16, 32, 64, 128, 256}
	for _, n := range sizes {
		b.mark(fmt.Sprintf("size %d", n))
		total := n * int(math.Log2(float64(n)))
		for i := 0; i < total; i++ {
			stack := []string{"main.less@/app/cmp.go:10", "main.compare@/app/cmp.go:20"}
			for d := 0; d < i%4; d++ { // compare recurses into nested values
				stack = append(stack, "main.compare@/app/cmp.go:25")
			}
			stack = append(stack, "sort.insertionSort@"+goroot+"sort/zsortinterface.go:12")
			for d := 0; d < (i/4)%5; d++ {
				stack = append(stack, "sort.pdqsort@"+goroot+"sort/zsortinterface.go:70")
			}
			stack = append(stack, "sort.Sort@"+goroot+"sort/sort.go:48", "main.eval@/app/eval.go:30")
			for d := 0; d < (i/20)%3; d++ {
				stack = append(stack, "main.eval@/app/eval.go:44")
			}
			stack = append(stack, "main.main@/app/main.go:9", "runtime.main@"+goroot+"runtime/proc.go:283")
			b.add(call{"Key", stack, "runtime.main", "k"}, 1)
		}
	}
	f := buildFindingsOf(t, Options{}, b.tr)
	if len(f.Sites) != 1 {
		t.Fatalf("%d sites, want 1:\n%s", len(f.Sites), sitesOf(f))
	}
	s := f.Sites[0]
	if s.Fit.Class != ClassNLogN {
		t.Errorf("class %v, want n log n: %v", s.Fit.Class, s.Counts)
	}
	if want := "main.less (cmp.go:10)"; s.Where() != want {
		t.Errorf("site at %q, want %q", s.Where(), want)
	}
	for i, n := range sizes {
		if want := n * int(math.Log2(float64(n))); s.Counts[i] != want {
			t.Errorf("sub-trace %d: %d calls, want %d", i, s.Counts[i], want)
		}
	}
	whole := buildFindingsOf(t, Options{Stacks: StacksWhole}, b.tr)
	if len(whole.Sites) < 10 {
		t.Errorf("whole stacks: %d sites, want one per stack shape", len(whole.Sites))
	}
}

// addDeep adds n calls of Name from a loop at the bottom of a recursion
// depth deep (main.walk), reached from outer, as the writer records
// them: past 128 frames, the innermost 128 kept and the goroutine
// unknown.
func (b *traceBuilder) addDeep(n, depth int, outer string) {
	stack := []string{"main.main.func1@/app/main.go:33"}
	for i := 0; i < depth; i++ {
		stack = append(stack, "main.walk@/app/main.go:19")
	}
	stack = append(stack, outer, "runtime.main@"+goroot+"runtime/proc.go:283")
	if len(stack) < 128 {
		b.add(call{"Name", stack, "runtime.main", "item"}, n)
		return
	}
	b.addStack(call{"Name", stack[:127], "?", "item"}, n, true) // 127 and the getter's frame
}

// TestFindingsCutStacks: the calls of one loop at the bottom of a
// recursion as deep as the input have stacks cut past 128 frames at the
// larger sizes; they are counted in the site of the whole stacks, which
// grows, and the finding says so. Where two outer callers could have made
// the cut calls, the callers' sites are counted with them, under the
// frames they share: apart, each caller's site lost its largest size and
// the cut one grew with the stacks' depth.
func TestFindingsCutStacks(t *testing.T) {
	b := newTrace("deep.suncat")
	sizes := []int{20, 40, 80, 160}
	for _, n := range sizes {
		b.mark(fmt.Sprintf("size %d", n))
		b.addDeep(n, n, "main.main@/app/main.go:31")
	}
	f := buildFindingsOf(t, Options{}, b.tr)
	if len(f.Sites) != 1 || len(f.Findings) != 1 {
		t.Fatalf("%d sites, %d findings, want 1 and 1:\n%s", len(f.Sites), len(f.Findings), sitesOf(f))
	}
	s := f.Sites[0]
	if fmt.Sprint(s.Counts) != "[20 40 80 160]" || s.Fit.Class != ClassLinear || s.Cut != 160 || s.Where() != "main.main.func1 (main.go:33)" {
		t.Errorf("site %s %v %v, %d cut calls; want main.main.func1 (main.go:33) [20 40 80 160] linear, 160 cut", s.Where(), s.Counts, s.Fit.Class, s.Cut)
	}
	if got := FindingLines(f, f.Findings[0], 1); !strings.Contains(got, "160 of its 300 calls had stacks deeper than 128 frames, cut") {
		t.Errorf("the finding does not say its calls were cut:\n%s", got)
	}
	if w := buildFindingsOf(t, Options{Stacks: StacksWhole}, b.tr); len(w.Sites) != 4 {
		t.Errorf("whole stacks: %d sites, want 4 (cut stacks are merged only folded)", len(w.Sites))
	}

	b = newTrace("two.suncat")
	for _, n := range sizes {
		b.mark(fmt.Sprintf("size %d", n))
		b.addDeep(n, n, "main.main@/app/main.go:31")
		b.addDeep(n, n, "main.other@/app/main.go:50")
	}
	f = buildFindingsOf(t, Options{}, b.tr)
	if len(f.Sites) != 1 || fmt.Sprint(f.Sites[0].Counts) != "[40 80 160 320]" || f.Sites[0].Fit.Class != ClassLinear {
		t.Errorf("two callers: want one site, [40 80 160 320] linear, under the frames they share:\n%s", sitesOf(f))
	}
}

// TestFindingsSharedHelper: a getter read through one helper by a sort
// comparator (growing) and by a printer (constant): the growing site is
// named by the comparator, the frame that sets it apart, not the helper.
func TestFindingsSharedHelper(t *testing.T) {
	b := newTrace("shared.suncat")
	b.tick = 100e3
	for _, n := range []int{10, 20, 40, 80} {
		b.mark(fmt.Sprintf("TestSort/n=%d", n))
		b.add(call{"Name", []string{"example.com/app/util.key@/app/util/key.go:10", "example.com/app/sorting.byName.func1@/app/sorting/sort.go:42", "slices.SortFunc@" + goroot + "slices/sort.go:30", "example.com/app/sorting.Sort@/app/sorting/sort.go:40"}, "main.main", "apple"}, n*n/4)
		b.add(call{"Name", []string{"example.com/app/util.key@/app/util/key.go:10", "example.com/app/report.print@/app/report/print.go:7"}, "main.main", "pear"}, 5)
	}
	f := buildFindingsOf(t, Options{}, b.tr)
	g := f.Growing()
	if len(g) != 1 {
		t.Fatalf("%d growing sites, want 1:\n%s", len(g), sitesOf(f))
	}
	s := g[0]
	if s.Where() != "sorting.byName.func1 (sort.go:42)" || s.Distinct != 2 || s.Fit.Class != ClassQuadratic {
		t.Errorf("growing site: %s (frame %d), %v; want sorting.byName.func1 (sort.go:42), frame 2, n^2", s.Where(), s.Distinct, s.Fit.Class)
	}
	if s.Value != (ValueCount{"apple", 25 + 100 + 400 + 1600}) {
		t.Errorf("value %+v", s.Value)
	}
	if want := 1600.0 * 100; math.Abs(s.Predicted-want) > 1 {
		t.Errorf("predicted %v at %v, want %v", s.Predicted, f.Target, want)
	}
	// The builder spends 100 µs per call: a sub-trace of size n takes
	// about (n²/4 + 5) × 100 µs, which passes 100 ms at n ≈ 63.1.
	if f.Time.Class != ClassQuadratic || math.Abs(f.LagSize-63.1) > 0.5 {
		t.Errorf("time %v (%v), passes 100 ms at %v; want n^2, about 63.1", f.Time.Class, f.TimeNs, f.LagSize)
	}
	// At 1 µs per call the same sub-traces take 30µs..1.6ms: within the
	// noise of a run, no class.
	small := newTrace("small.suncat")
	for _, n := range []int{10, 20, 40, 80} {
		small.mark(fmt.Sprintf("TestSort/n=%d", n))
		small.add(call{"Name", []string{"example.com/app/sorting.Sort@/app/sorting/sort.go:40"}, "main.main", "apple"}, n*n/4)
	}
	if g := buildFindingsOf(t, Options{}, small.tr); g.Time.Grows() || !strings.Contains(g.Time.Note, "within the noise") {
		t.Errorf("time of %v ns: %v, note %q; want no class, within the noise", g.TimeNs, g.Time.Class, g.Time.Note)
	}
	if p := siteAt(f, "report.print (print.go:7)"); p == nil || p.Fit.Class != ClassConstant {
		t.Errorf("printer's site: %+v\n%s", p, sitesOf(f))
	}
}

// TestFindingsParallel: workers (goroutine groups of their own) share the
// work of each sub-trace arbitrarily; a site counts over all of them, so
// the same work each time is constant and growing work grows.
func TestFindingsParallel(t *testing.T) {
	b := newTrace("server.suncat")
	split := [][]int{{50, 30, 20}, {10, 60, 30}, {34, 33, 33}, {90, 5, 5}, {20, 20, 60}, {45, 45, 10}}
	for r, parts := range split {
		b.mark(fmt.Sprintf("request %d", r+1))
		for w, n := range parts {
			// Each worker its own group (as when the first request is
			// served by the main goroutine and the rest by a pool).
			entry := fmt.Sprintf("main.pool%d", w)
			b.add(call{"Title", []string{"main.handle@/srv/h.go:12", "main.serve@/srv/main.go:30"}, entry, "t"}, n+r%2)
			b.add(call{"ID", []string{"main.index@/srv/idx.go:5", "main.serve@/srv/main.go:30"}, entry, "id"}, n*(r+1)/10)
		}
	}
	f := buildFindingsOf(t, Options{}, b.tr)
	if f.SizesFrom != SizesFromLabels {
		t.Errorf("sizes from %s", f.SizesFrom)
	}
	for _, s := range f.Sites {
		want := ClassConstant
		if s.Name == "(*T).ID" {
			want = ClassLinear
		}
		if s.Fit.Class != want {
			t.Errorf("%s %s: %v %v, want %v", s.Name, s.Where(), s.Counts, s.Fit.Class, want)
		}
	}
	if n := len(f.Sites); n != 2 {
		t.Errorf("%d sites, want one per getter:\n%s", n, sitesOf(f))
	}
}

func TestSizesFrom(t *testing.T) {
	for _, tc := range []struct {
		labels []string
		given  []float64
		want   []float64
		from   string
	}{
		{[]string{"TestFind/n=1", "TestFind/n=2", "TestFind/n=8"}, nil, []float64{1, 2, 8}, SizesFromLabels},
		{[]string{"size 400", "size 800", "size 1600"}, nil, []float64{400, 800, 1600}, SizesFromLabels},
		{[]string{"iter 3", "iter 4", "iter 5"}, nil, []float64{3, 4, 5}, SizesFromLabels},
		{[]string{"n400.suncat", "n800-4242-20261123T094500.123456789.suncat", "n1600.suncat"}, nil, []float64{400, 800, 1600}, SizesFromLabels},
		{[]string{"TestFind", "TestFind/n=2", "TestFind/n=4"}, nil, []float64{1, 2, 3}, SizesFromPositions},
		{[]string{"app-4242-20261123T094500.123456789.suncat", "app-4243-20261123T094501.123456789.suncat"}, nil, []float64{1, 2}, SizesFromPositions},
		{[]string{"a", "b"}, []float64{50, 100}, []float64{50, 100}, SizesGiven},
		{[]string{"v1.5", "v2.5"}, nil, []float64{1.5, 2.5}, SizesFromLabels},
	} {
		got, from, err := Sizes(tc.labels, tc.given)
		if err != nil || from != tc.from || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q %v: %v from %s (%v); want %v from %s", tc.labels, tc.given, got, from, err, tc.want, tc.from)
		}
	}
	if _, _, err := Sizes([]string{"a", "b", "c"}, []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "2 sizes for 3 sub-traces") {
		t.Errorf("mismatched -sizes: %v", err)
	}
	if got, err := ParseSizes("50, 100,200,400"); err != nil || fmt.Sprint(got) != "[50 100 200 400]" {
		t.Errorf("ParseSizes: %v %v", got, err)
	}
	for _, bad := range []string{"50,x", "-1,2", "1,,2"} {
		if _, err := ParseSizes(bad); err == nil {
			t.Errorf("ParseSizes(%q): no error", bad)
		}
	}
}

// TestFindingsSizesFromFiles: one trace per run, named by its size, read
// with -split none: sizes from the file names; -sizes overrides them.
func TestFindingsSizesFromFiles(t *testing.T) {
	var trs []*tracefile.Trace
	for i, n := range []int{100, 200, 400, 800} {
		b := newTrace(fmt.Sprintf("/tmp/runs/n%d.suncat", n))
		b.tr.Start = b.tr.Start.AddDate(0, 0, i)
		b.add(call{"Name", []string{"main.find@/app/find.go:7", "main.main@/app/main.go:3"}, "main.main", "x"}, n/2)
		trs = append(trs, b.tr)
	}
	f := buildFindingsOf(t, Options{Split: "none"}, trs...)
	if f.SizesFrom != SizesFromLabels || fmt.Sprint(f.Sizes) != "[100 200 400 800]" || f.Target != 8000 {
		t.Errorf("sizes %v from %s, target %v", f.Sizes, f.SizesFrom, f.Target)
	}
	if s := f.Sites[0]; s.Fit.Class != ClassLinear || math.Abs(s.Predicted-4000) > 1 {
		t.Errorf("site: %v, predicted %v", s.Fit.Class, s.Predicted)
	}
	f = buildFindingsOf(t, Options{Split: "none", Sizes: []float64{1, 2, 3, 4}, At: 10}, trs...)
	if f.SizesFrom != SizesGiven || f.Target != 10 || f.Sites[0].Fit.Class == ClassLinear {
		t.Errorf("given sizes: %v from %s, target %v, class %v (the counts double at each step: not linear in 1, 2, 3, 4)", f.Sizes, f.SizesFrom, f.Target, f.Sites[0].Fit.Class)
	}
	if _, err := Build(trs, Options{Split: "none", Sizes: []float64{1, 2}}); err == nil {
		t.Error("two sizes for four sub-traces: no error")
	}
	f = buildFindingsOf(t, Options{Split: "none"}, trs[:2]...)
	if f.Note == "" || len(f.Growing()) != 0 || f.Sites[0].Fit.Class != ClassNone {
		t.Errorf("two sizes: note %q, class %v", f.Note, f.Sites[0].Fit.Class)
	}
}

func TestFoldStack(t *testing.T) {
	fs := []tracefile.Frame{
		parseFrame("example.com/p.(*T).Name@/src/p/t.go:3"),
		parseFrame("main.walk@/app/walk.go:10"),
		parseFrame("main.walk@/app/walk.go:14"),
		parseFrame("fmt.Sprintf@" + goroot + "fmt/print.go:239"),
		parseFrame("main.visit@/app/walk.go:30"),
		parseFrame("main.walk@/app/walk.go:14"),
		parseFrame("myapp/util.Do@/home/u/myapp/util/do.go:5"),
		parseFrame("slices.SortFunc[go.shape.[]example.com/x.Item,go.shape.struct {}]@" + goroot + "slices/sort.go:30"),
		parseFrame("main.main@/app/main.go:1"),
	}
	var got []string
	for _, f := range FoldStack(fs) {
		got = append(got, shortFunc(f.Func)+":"+strconv.Itoa(f.Line))
	}
	want := "p.(*T).Name:3 main.walk:10 main.visit:30 util.Do:5 main.main:1"
	if strings.Join(got, " ") != want {
		t.Errorf("folded: %s\nwant:   %s", strings.Join(got, " "), want)
	}
}

// TestFindingsTableTest: the sub-traces of a go test run: a table test's
// parent (its set-up) is left out, other tests are left out by keep, and
// the subtests' names give the sizes.
func TestFindingsTableTest(t *testing.T) {
	b := newTrace("test.suncat")
	b.mark("TestOther")
	b.add(call{"Name", []string{"main.other@/app/o.go:3"}, "testing.tRunner", "o"}, 50)
	b.mark("TestFind")
	b.add(call{"Name", []string{"main.setup@/app/find_test.go:5"}, "testing.tRunner", "s"}, 30)
	for _, n := range []int{1, 2, 4, 8} {
		b.mark(fmt.Sprintf("TestFind/n=%d", n))
		b.add(call{"Name", []string{"main.find@/app/find.go:9"}, "testing.tRunner", "item0"}, n)
	}
	s, err := Build([]*tracefile.Trace{b.tr}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fams, unsized, err := Families(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fams) != 1 || fams[0].Name != "TestFind" || unsizedString(unsized) != "[{TestOther no subtests}]" {
		t.Fatalf("families %v, unsized %v; want [TestFind], TestOther", fams, unsized)
	}
	f := fams[0].Findings
	if f.SizesFrom != SizesFromLabels || fmt.Sprint(f.Used, f.Sizes) != "[true true true true] [1 2 4 8]" {
		t.Errorf("sizes %v from %s, used %v", f.Sizes, f.SizesFrom, f.Used)
	}
	g := f.Growing()
	if len(g) != 1 || g[0].Where() != "main.find (find.go:9)" || g[0].Fit.Class != ClassLinear || g[0].Predicted != 80 {
		t.Errorf("growing:\n%s", sitesOf(f))
	}
	// The whole run: TestOther has no number, so positions 1, 2, ...
	if s.Findings.SizesFrom != SizesFromPositions {
		t.Errorf("whole run: sizes from %s", s.Findings.SizesFrom)
	}
}

// TestEndMarks: a span's end mark (a test's or benchmark run's) extends
// its sub-trace's time past the last event; one whose label is still
// pending (no event since) extends none; main's end extends a whole
// run's.
func TestEndMarks(t *testing.T) {
	end := func(b *traceBuilder, label string, after int64) {
		b.tr.Marks = append(b.tr.Marks, tracefile.Marker{Seq: b.seq, Time: b.now + after, Kind: tracefile.KindEnd, Label: label})
		b.seq++
		b.now += after
	}
	b := newTrace("spans.suncat")
	for i, n := range []int{1, 2, 4, 8} {
		b.mark(fmt.Sprintf("T/n=%d", n))
		b.add(call{"Name", []string{"main.main@/src/main.go:5"}, "main.main", "x"}, n)
		end(b, "span", int64(n)*1e6) // work after the last event, n ms
		if i == 1 {
			b.mark("T/quiet") // a label with no event: its span's end is its own
			end(b, "span", 9e9)
		}
	}
	f := buildFindingsOf(t, Options{}, b.tr)
	if !f.ToEnd {
		t.Fatalf("ToEnd false; times %v", f.TimeNs)
	}
	var used []int64 // the quiet label is a sub-trace with no event
	for i, u := range f.Used {
		if u {
			used = append(used, f.TimeNs[i])
		}
	}
	for i, n := range []int64{1, 2, 4, 8} {
		if i >= len(used) || used[i] < n*1e6 || used[i] > n*1e6+n*1000 {
			t.Errorf("sub-trace %d: times %v, want %d ms and the events' spread", i, used, n)
		}
	}
	// A whole run (no marks): main's end.
	r := newTrace("run.suncat")
	r.add(call{"Name", []string{"main.main@/src/main.go:5"}, "main.main", "x"}, 3)
	end(r, "main", 5e6)
	if g := buildFindingsOf(t, Options{}, r.tr); !g.ToEnd || g.TimeNs[0] < 5e6 {
		t.Errorf("whole run: ToEnd %v, %v ns; want to main's end", g.ToEnd, g.TimeNs)
	}
}
