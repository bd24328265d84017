package prioritize

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt/tracefile"
)

// Tests of Build's stages, each on its own: the options (compileOptions),
// a trace's part (Part: goroutine groups and segments), the default split
// (chooseSplit), the merge (Merger: -run, a group's terminals and
// grammar). The tests of Build as a whole are in
// prioritize_test.go, run_test.go and stream_test.go.

func TestChooseSplit(t *testing.T) {
	marked := synthetic("|one A@f", nil)
	plain := synthetic("A@f", nil)
	paused := synthetic("A@f", nil)
	paused.Marks = []tracefile.Marker{{Seq: 9, Kind: tracefile.KindPause}, {Seq: 10, Kind: tracefile.KindResume}}
	cases := []struct {
		split  string
		traces []*tracefile.Trace
		want   string
	}{
		{"", []*tracefile.Trace{plain}, "none"},
		{"", []*tracefile.Trace{plain, marked}, "marks"},   // a mark in any trace
		{"", []*tracefile.Trace{paused}, "none"},           // pauses are no marks
		{"idle=1s", []*tracefile.Trace{marked}, "idle=1s"}, // given: kept
		{"none", []*tracefile.Trace{marked}, "none"},
	}
	for _, tc := range cases {
		s, err := Build(tc.traces, Options{Split: tc.split})
		if err != nil {
			t.Fatal(err)
		}
		if s.Split != tc.want {
			t.Errorf("split %q of %d traces: %q, want %q", tc.split, len(tc.traces), s.Split, tc.want)
		}
	}
	if got, kind := chooseSplit("", false); got != "none" || kind != splitNone {
		t.Errorf("no trace, no mark: %q %v", got, kind)
	}
}

func TestCompileOptions(t *testing.T) {
	cases := []struct {
		opt  Options
		each bool
		sel  string // the regexp, "" for none
		run  bool
	}{
		{Options{}, true, "", false},
		{Options{Goroutines: "each"}, true, "", false},
		{Options{Goroutines: "all", Split: "none"}, false, "", false},
		{Options{Goroutines: "^main", Run: "one"}, false, "^main", true},
	}
	for _, tc := range cases {
		c, err := compileOptions(tc.opt)
		if err != nil {
			t.Errorf("%+v: %v", tc.opt, err)
			continue
		}
		sel := ""
		if c.sel != nil {
			sel = c.sel.String()
		}
		if c.each != tc.each || sel != tc.sel || (c.run != nil) != tc.run {
			t.Errorf("%+v: each %v, sel %q, run %v; want %v, %q, %v", tc.opt, c.each, sel, c.run != nil, tc.each, tc.sel, tc.run)
		}
	}
	for _, bad := range []struct {
		opt  Options
		want string
	}{
		{Options{Split: "weekly"}, `Split "weekly": want marks`},
		{Options{Split: "idle=soon"}, "Split idle=soon"},
		{Options{Goroutines: "("}, `Goroutines "(": error parsing regexp`},
		{Options{Run: "("}, `Run "(": `},
	} {
		err := CheckOptions(bad.opt)
		if err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%+v: error %v, want %q...", bad.opt, err, bad.want)
		}
		var oe *OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%+v: error %v is not an OptionError", bad.opt, err)
		}
		if _, err := NewPart(bad.opt, nil); err == nil {
			t.Errorf("%+v: NewPart: no error", bad.opt)
		}
	}
	// A getter missing from every table is an error of the traces, found
	// when they are merged; CheckOptions, which sees no trace, allows it.
	if err := CheckOptions(Options{Split: "at=Nope", Goroutines: "^main"}); err != nil {
		t.Errorf("at=Nope without traces: %v", err)
	}
	if _, err := Build([]*tracefile.Trace{synthetic("|one A@f", nil)}, Options{Split: "at=Nope"}); err == nil || !strings.HasPrefix(err.Error(), "Split at=Nope: no getter") {
		t.Errorf("at=Nope: error %v", err)
	}
}

func TestGroupIndex(t *testing.T) {
	part := func(opt Options) *Part {
		p, err := NewPart(opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	each, all, sel := part(Options{}), part(Options{Goroutines: "all"}), part(Options{Goroutines: "^main"})
	cases := []struct {
		name  string
		p     *Part
		entry string
		key   string // "": left out
	}{
		{"each", each, "main.main", "main.main"},
		{"each", each, "net/http.serve", "net/http.serve"},
		{"all", all, "main.main", "*"},
		{"all", all, "net/http.serve", "*"},
		{"selected", sel, "main.main", "^main"},
		{"not selected", sel, "net/http.serve", ""},
	}
	for _, tc := range cases {
		key := ""
		if i := tc.p.groupIndex(tc.entry); i >= 0 {
			key = tc.p.groups[i].key
		}
		if key != tc.key {
			t.Errorf("%s: groupIndex(%q) is group %q; want %q", tc.name, tc.entry, key, tc.key)
		}
	}
	if len(each.groups) != 2 || len(all.groups) != 1 || len(sel.groups) != 1 {
		t.Errorf("groups: each %d, all %d, selected %d; want 2, 1, 1", len(each.groups), len(all.groups), len(sel.groups))
	}
}

// entries sets the entry function of each event of tr, in order.
func entries(tr *tracefile.Trace, entry ...string) *tracefile.Trace {
	for i := range tr.Events {
		tr.Events[i].Entry = entry[i]
	}
	return tr
}

// partOf builds the part of a trace held in memory.
func partOf(t *testing.T, tr *tracefile.Trace, opt Options) *Part {
	t.Helper()
	p, err := NewPart(opt, tr.Getters)
	if err != nil {
		t.Fatal(err)
	}
	eachRecord(tr, func(_ int, ev *tracefile.Event, mk *tracefile.Marker) { p.Add(ev, mk) })
	p.Finish(tr)
	return p
}

func TestPart(t *testing.T) {
	tr := entries(synthetic("A@f |a A@f B@g |b |c A@f B@g", nil), "w", "main", "w", "main", "main")
	p := partOf(t, tr, Options{})
	if p.Events() != 5 {
		t.Errorf("%d events, want 5", p.Events())
	}
	var keys []string
	for _, g := range p.groups {
		keys = append(keys, g.key)
	}
	if got := strings.Join(keys, " "); got != "w main" {
		t.Errorf("groups in order %q, want w main", got)
	}
	// Segment 0 precedes the first mark; an empty segment (b) is kept.
	if got := strings.Join(p.seg.labels, " "); got != "a b c" {
		t.Errorf("segment labels %q, want a b c", got)
	}
	events := func(key string) []int {
		var n []int
		for _, sd := range p.group(key).segs {
			n = append(n, sd.span.Events)
		}
		return n
	}
	if w, m := events("w"), events("main"); !reflect.DeepEqual(w, []int{1, 1}) || !reflect.DeepEqual(m, []int{0, 1, 0, 2}) {
		t.Errorf("events per segment: w %v, main %v; want [1 1], [0 1 0 2]", w, m)
	}
	// Finish compressed main's segment 3 (A@f B@g): its chunk has its
	// two terminals, in order of first event; the start-up (segment 0,
	// never a sub-trace when the trace has marks) is not compressed.
	term := func(t int32) uint32 { return p.protos[p.termProto[t]].stack }
	if sd := p.group("main").segs[3]; sd.chunk == nil || sd.seq != nil || len(sd.firsts) != 2 || term(sd.firsts[0]) != 1 || term(sd.firsts[1]) != 2 {
		t.Errorf("main's segment 3: chunk %v, seq %v, terminals %v", sd.chunk != nil, sd.seq, sd.firsts)
	}
	if sd := p.group("w").segs[0]; sd.chunk != nil || sd.seq != nil {
		t.Errorf("w's start-up: chunk %v, seq %v", sd.chunk != nil, sd.seq)
	}
	if n := len(p.protos); n != 4 {
		t.Errorf("%d protos, want 4 (A@f in w and main, B@g in w and main)", n)
	}

	// Selected goroutines: one group named by the selection, split on
	// their events only.
	p = partOf(t, tr, Options{Goroutines: "^ma"})
	if len(p.groups) != 1 || p.groups[0].key != "^ma" || p.events != 5 {
		t.Errorf("-goroutines ^ma: %d groups", len(p.groups))
	}
	if _, err := Merge([]*Part{partOf(t, tr, Options{Goroutines: "^nothing"})}, Options{Goroutines: "^nothing"}); err == nil ||
		err.Error() != `Goroutines "^nothing" matches no goroutine; goroutines start in: main, w` {
		t.Errorf("-goroutines ^nothing: error %v", err)
	}
}

func TestMergerRun(t *testing.T) {
	tr := synthetic("|TestA A@f |TestB A@f |TestA/sub A@f A@f", nil)
	merge := func(run string) (*Summary, error) {
		m, err := NewMerger(Options{Run: run}, []string{tr.Path})
		if err != nil {
			t.Fatal(err)
		}
		m.Add(partOf(t, tr, Options{Run: run}))
		return m.Summary()
	}
	s, err := merge("TestA")
	if err != nil {
		t.Fatal(err)
	}
	g := s.Groups[0]
	if len(g.SubTraces) != 2 || g.SubTraces[0].Label != "TestA" || g.SubTraces[1].Label != "TestA/sub" || g.Left != 1 || g.Events != 3 {
		t.Errorf("kept %+v, %d left; want TestA, TestA/sub, 1 left", g.SubTraces, g.Left)
	}
	if got := g.Terminals[0].PerSub(); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("calls per kept sub-trace %v, want [1 2]", got)
	}
	if s, err := merge(""); err != nil || len(s.Groups[0].SubTraces) != 3 {
		t.Errorf("no filter: %v", err)
	}
	if _, err := merge("TestZ"); err == nil || !strings.HasPrefix(err.Error(), `Run "TestZ" matches no sub-trace; labels are: TestA, TestB, TestA/sub`) {
		t.Errorf("TestZ: error %v", err)
	}
	// No event in any sub-trace: nothing was lost, no error.
	m, _ := NewMerger(Options{Run: "TestZ"}, nil)
	m.Add(partOf(t, synthetic("A@f |TestA", nil), Options{Run: "TestZ"}))
	if s, err := m.Summary(); err != nil || len(s.Groups) != 0 {
		t.Errorf("TestZ, no event in a sub-trace: %v", err)
	}
}

// TestMergerWaitsForSplit: without -split, parts wait until a trace with a
// mark decides for marks (their events then count as left), or the end
// decides for none.
func TestMergerWaitsForSplit(t *testing.T) {
	plain, marked := synthetic("A@f A@f", nil), synthetic("A@f |one A@f", nil)
	plain.Path, marked.Path = "plain.suncat", "marked.suncat"
	m, _ := NewMerger(Options{}, []string{plain.Path, marked.Path})
	m.Add(partOf(t, plain, Options{}))
	if len(m.pending) != 1 || m.decided {
		t.Fatalf("a part without marks did not wait")
	}
	m.Add(partOf(t, marked, Options{}))
	s, err := m.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if g := s.Groups[0]; s.Split != "marks" || g.Left != 3 || g.Events != 1 || strings.Join(s.Traces, " ") != "plain.suncat marked.suncat" {
		t.Errorf("split %s, %d left, %d events, traces %v", s.Split, g.Left, g.Events, s.Traces)
	}
	m, _ = NewMerger(Options{}, []string{plain.Path, plain.Path})
	m.Add(partOf(t, plain, Options{}))
	m.Add(partOf(t, plain, Options{}))
	if s, err := m.Summary(); err != nil || s.Split != "none" || len(s.Groups[0].SubTraces) != 2 {
		t.Errorf("no mark anywhere: split %s, error %v", s.Split, err)
	}
	if m, _ := NewMerger(Options{}, nil); m != nil {
		if _, err := m.Summary(); err == nil {
			t.Errorf("no part: no error")
		}
	}
}

func TestMergeGroup(t *testing.T) {
	tr := synthetic("A@f |one B@g A@h |two A@f A@f |three", nil) // times 1000, 2000, ...
	s, err := Build([]*tracefile.Trace{tr}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := s.Groups[0]
	if g.Goroutine != "main.main" || g.Events != 4 || g.Left != 1 {
		t.Errorf("group %s: %d events, %d left; want main.main, 4, 1", g.Goroutine, g.Events, g.Left)
	}
	// A mark at the end starts no sub-trace.
	want := []SubTrace{{"one", 2, 3000, 4000}, {"two", 2, 6000, 7000}}
	if !reflect.DeepEqual(g.SubTraces, want) {
		t.Errorf("sub-traces %+v, want %+v", g.SubTraces, want)
	}
	// Terminals by stack, lettered in order of first event in a
	// sub-trace: B@g, A@h, A@f.
	var got []string
	for _, term := range g.Terminals {
		got = append(got, term.Letter+"="+term.Name+"@"+term.Frames[1].Func)
	}
	if s := strings.Join(got, " "); s != "a=(*T).B@main.g b=(*T).A@main.h c=(*T).A@main.f" {
		t.Errorf("terminals %s", s)
	}
	if c := g.Terminals[2]; c.Total != 2 || !reflect.DeepEqual(c.PerSub(), []int{0, 2}) || c.NumSubs() != 2 ||
		!reflect.DeepEqual(c.Values, []ValueCount{{"A-value", 2}}) || !reflect.DeepEqual(c.ValuesIn(1), c.Values) || c.ValuesIn(0) != nil {
		t.Errorf("A@f: total %d, per sub-trace %v, values %v", c.Total, c.PerSub(), c.Values)
	}
	if gr := g.Grammar.String(); gr != "S -> A B\nA -> a b\nB -> c^2\n" {
		t.Errorf("grammar\n%s", gr)
	}
	if len(g.Patterns) == 0 {
		t.Errorf("no patterns")
	}
	// Frames cuts stacks: A@f and A@h become one terminal.
	s, _ = Build([]*tracefile.Trace{tr}, Options{Split: "none", Frames: 1})
	if g := s.Groups[0]; len(g.Terminals) != 2 || g.Terminals[0].Total != 4 {
		t.Errorf("-frames 1: %d terminals, want 2 (a: A, called 4 times)", len(g.Terminals))
	}
	s, _ = Build([]*tracefile.Trace{synthetic("A@f |x", nil)}, Options{})
	if len(s.Groups) != 0 {
		t.Errorf("no event in a sub-trace: %d groups", len(s.Groups))
	}
}

// TestGroupGrammar: the grammar of a group whose events are missing
// from a sub-trace sees one sub-trace fewer; its observations name the
// group's sub-traces.
func TestGroupGrammar(t *testing.T) {
	tr := entries(synthetic("|one A@f B@g B@g |two C@h |three A@f B@g B@g B@g", nil), "m", "m", "m", "w", "m", "m", "m", "m")
	s, err := Build([]*tracefile.Trace{tr}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gr := s.Groups[0].Grammar
	if s.Groups[0].Goroutine != "m" || gr.SubTraces != 2 {
		t.Fatalf("group %s, grammar of %d sub-traces", s.Groups[0].Goroutine, gr.SubTraces)
	}
	if got := gr.String(); got != "S -> A^2\nA -> a b^2|3\n" {
		t.Errorf("grammar\n%s", got)
	}
	var subs []int32
	for _, rp := range gr.Rules[0].Body {
		for _, o := range rp.Obs {
			subs = append(subs, o.Sub)
		}
	}
	for _, s := range subs {
		if s != 0 && s != 2 {
			t.Errorf("observation in sub-trace %d, want 0 or 2 (all %v)", s, subs)
		}
	}
	if len(subs) == 0 {
		t.Errorf("no observations")
	}
}

// TestSubTraceAdd: a sub-trace spans its earliest to its latest event,
// in whatever order they come (traces are taken by start time, but their
// clocks may overlap).
func TestSubTraceAdd(t *testing.T) {
	st := SubTrace{Label: "x", Start: -1}
	for _, at := range []int64{50, 20, 80, 30} {
		st.add(at)
	}
	if want := (SubTrace{"x", 4, 20, 80}); st != want {
		t.Errorf("%+v, want %+v", st, want)
	}
}
