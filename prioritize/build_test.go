package prioritize

import (
	"reflect"
	"strings"
	"testing"

	"github.com/suncat-go/suncat/logrt"
)

// Tests of Build's stages, each on its own; the tests of Build as a whole
// are in prioritize_test.go and run_test.go.

func TestChooseSplit(t *testing.T) {
	marked := synthetic("|one A@f", nil)
	plain := synthetic("A@f", nil)
	paused := synthetic("A@f", nil)
	paused.Marks = []logrt.Marker{{Kind: logrt.KindPause}, {Kind: logrt.KindResume}}
	cases := []struct {
		split  string
		traces []*logrt.Trace
		want   string
	}{
		{"", []*logrt.Trace{plain}, "none"},
		{"", []*logrt.Trace{plain, marked}, "marks"}, // a mark in any trace
		{"", []*logrt.Trace{paused}, "none"},         // pauses are no marks
		{"", nil, "none"},
		{"idle=1s", []*logrt.Trace{marked}, "idle=1s"}, // given: kept
		{"none", []*logrt.Trace{marked}, "none"},
	}
	for _, tc := range cases {
		if got := chooseSplit(tc.split, tc.traces...); got != tc.want {
			t.Errorf("chooseSplit(%q, %d traces) = %q, want %q", tc.split, len(tc.traces), got, tc.want)
		}
	}
}

func TestResolve(t *testing.T) {
	tr := []*logrt.Trace{synthetic("|one A@f", nil)}
	cases := []struct {
		opt   Options
		split string
		each  bool
		sel   string // the regexp, "" for none
		run   bool
	}{
		{Options{}, "marks", true, "", false},
		{Options{Goroutines: "each"}, "marks", true, "", false},
		{Options{Goroutines: "all", Split: "none"}, "none", false, "", false},
		{Options{Goroutines: "^main", Run: "one"}, "marks", false, "^main", true},
	}
	for _, tc := range cases {
		p, err := resolve(tr, tc.opt)
		if err != nil {
			t.Errorf("%+v: %v", tc.opt, err)
			continue
		}
		sel := ""
		if p.sel != nil {
			sel = p.sel.String()
		}
		if p.split != tc.split || p.splitter == nil || p.each != tc.each || sel != tc.sel || (p.run != nil) != tc.run {
			t.Errorf("%+v: split %q (splitter %v), each %v, sel %q, run %v; want %q, %v, %q, %v",
				tc.opt, p.split, p.splitter, p.each, sel, p.run != nil, tc.split, tc.each, tc.sel, tc.run)
		}
	}
	for _, bad := range []struct {
		opt  Options
		want string
	}{
		{Options{Split: "weekly"}, "-split"},
		{Options{Split: "at=Nope"}, "-split at=Nope: no getter"},
		{Options{Goroutines: "("}, "-goroutines"},
		{Options{Run: "("}, "-run"},
	} {
		if _, err := resolve(tr, bad.opt); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("%+v: error %v, want %q...", bad.opt, err, bad.want)
		}
	}
}

func TestGroupOf(t *testing.T) {
	each, _ := resolve(nil, Options{})
	all, _ := resolve(nil, Options{Goroutines: "all"})
	sel, _ := resolve(nil, Options{Goroutines: "^main"})
	cases := []struct {
		name  string
		p     plan
		entry string
		key   string
		ok    bool
	}{
		{"each", each, "main.main", "main.main", true},
		{"each", each, "net/http.serve", "net/http.serve", true},
		{"all", all, "main.main", "*", true},
		{"selected", sel, "main.main", "*", true},
		{"not selected", sel, "net/http.serve", "*", false},
	}
	for _, tc := range cases {
		if key, ok := tc.p.groupOf(tc.entry); key != tc.key || ok != tc.ok {
			t.Errorf("%s: groupOf(%q) = %q, %v; want %q, %v", tc.name, tc.entry, key, ok, tc.key, tc.ok)
		}
	}
}

// entries sets the entry function of each event of tr, in order.
func entries(tr *logrt.Trace, entry ...string) *logrt.Trace {
	for i := range tr.Events {
		tr.Events[i].Entry = entry[i]
	}
	return tr
}

func TestGroup(t *testing.T) {
	one := entries(synthetic("|a A@f B@g |b A@f", nil), "w", "main", "main")
	two := entries(synthetic("A@f |c B@g", nil), "main", "w")
	p, err := resolve([]*logrt.Trace{one, two}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := group([]*logrt.Trace{one, two}, p)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(gs.order, " "); got != "w main" {
		t.Errorf("groups in order %q, want w main", got)
	}
	var labels []string
	for _, l := range gs.labels {
		labels = append(labels, l.Label)
	}
	if got := strings.Join(labels, " "); got != "a b c" {
		t.Errorf("sub-traces %q, want a b c", got)
	}
	// The second trace's sub-traces are numbered after the first's; its
	// event before its first mark is in none.
	subs := func(key string) []int {
		var s []int
		for _, te := range gs.events[key] {
			s = append(s, te.sub)
		}
		return s
	}
	if got := subs("main"); !reflect.DeepEqual(got, []int{0, 1, -1}) {
		t.Errorf("main's events in sub-traces %v, want [0 1 -1]", got)
	}
	if got := subs("w"); !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("w's events in sub-traces %v, want [0 2]", got)
	}
	if te := gs.events["w"][1]; te.tr != two || te.e != &two.Events[1] {
		t.Errorf("w's second event is not the second trace's second event")
	}

	// Selected goroutines: one group "*"; marks are kept.
	p, _ = resolve([]*logrt.Trace{one}, Options{Goroutines: "^ma"})
	gs, err = group([]*logrt.Trace{one}, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs.order) != 1 || gs.order[0] != "*" || len(gs.events["*"]) != 2 || len(gs.labels) != 2 {
		t.Errorf("-goroutines ^ma: groups %q, %d events, %d sub-traces; want *, 2, 2", gs.order, len(gs.events["*"]), len(gs.labels))
	}
	p, _ = resolve([]*logrt.Trace{one}, Options{Goroutines: "^nothing"})
	if _, err := group([]*logrt.Trace{one}, p); err == nil || err.Error() != `-goroutines "^nothing" matches no goroutine` {
		t.Errorf("-goroutines ^nothing: error %v", err)
	}
}

func TestKeep(t *testing.T) {
	mk := func() *grouping {
		return &grouping{
			order:  []string{"x", "y"},
			events: map[string][]tagged{"x": {{sub: 0}, {sub: 1}, {sub: -1}}, "y": {{sub: 2}, {sub: 1}}},
			labels: []SubTrace{{Label: "TestA"}, {Label: "TestB"}, {Label: "TestA/sub"}},
		}
	}
	run, _ := compileRun("TestA")
	gs := mk()
	if err := gs.keep(run); err != nil {
		t.Fatal(err)
	}
	if len(gs.labels) != 2 || gs.labels[0].Label != "TestA" || gs.labels[1].Label != "TestA/sub" {
		t.Errorf("kept %+v, want TestA, TestA/sub", gs.labels)
	}
	sub := func(key string) []int {
		var s []int
		for _, te := range gs.events[key] {
			s = append(s, te.sub)
		}
		return s
	}
	if x, y := sub("x"), sub("y"); !reflect.DeepEqual(x, []int{0, -1, -1}) || !reflect.DeepEqual(y, []int{1, -1}) {
		t.Errorf("renumbered x %v y %v, want [0 -1 -1] [1 -1]", x, y)
	}

	gs = mk()
	if err := gs.keep(nil); err != nil || len(gs.labels) != 3 || sub("y")[0] != 2 {
		t.Errorf("no filter: %v, labels %d, y %v", err, len(gs.labels), sub("y"))
	}
	none, _ := compileRun("TestZ")
	if err := mk().keep(none); err == nil || !strings.HasPrefix(err.Error(), `-run "TestZ" matches no sub-trace; labels are: TestA, TestB`) {
		t.Errorf("TestZ: error %v", err)
	}
	// No event in any sub-trace: nothing was lost, no error.
	gs = &grouping{events: map[string][]tagged{"x": {{sub: -1}}}, labels: []SubTrace{{Label: "TestA"}}}
	if err := gs.keep(none); err != nil || len(gs.labels) != 0 {
		t.Errorf("TestZ, no event in a sub-trace: %v, %d labels", err, len(gs.labels))
	}
}

// tagAll tags the events of tr with the sub-traces subs.
func tagAll(tr *logrt.Trace, subs ...int) []tagged {
	var evs []tagged
	for i := range tr.Events {
		evs = append(evs, tagged{tr, &tr.Events[i], subs[i]})
	}
	return evs
}

func TestBuildGroup(t *testing.T) {
	tr := synthetic("A@f B@g A@f A@h A@f", nil) // times 1000, 2000, ...
	labels := []SubTrace{{Label: "one", Events: 99}, {Label: "two"}, {Label: "empty"}}
	g := buildGroup("main.main", tagAll(tr, -1, 0, 1, 0, 1), labels, 0)
	if g == nil {
		t.Fatal("no group")
	}
	if g.Goroutine != "main.main" || g.Events != 4 || g.Left != 1 {
		t.Errorf("group %s: %d events, %d left; want main.main, 4, 1", g.Goroutine, g.Events, g.Left)
	}
	want := []SubTrace{{"one", 2, 2000, 4000}, {"two", 2, 3000, 5000}, {"empty", 0, -1, 0}}
	if !reflect.DeepEqual(g.SubTraces, want) {
		t.Errorf("sub-traces %+v, want %+v", g.SubTraces, want)
	}
	// Terminals by stack, lettered in order of first event in a
	// sub-trace: B@g, A@f, A@h.
	var got []string
	for _, term := range g.Terminals {
		got = append(got, term.Letter+"="+term.Name+"@"+term.Frames[1].Func)
	}
	if s := strings.Join(got, " "); s != "a=(*T).B@main.g b=(*T).A@main.f c=(*T).A@main.h" {
		t.Errorf("terminals %s", s)
	}
	if a := g.Terminals[1]; a.Total != 2 || !reflect.DeepEqual(a.PerSub, []int{0, 2, 0}) || len(a.BySub) != 3 ||
		!reflect.DeepEqual(a.Values, []ValueCount{{"A-value", 2}}) {
		t.Errorf("A@f: total %d, per sub-trace %v, values %v", a.Total, a.PerSub, a.Values)
	}
	if gr := g.Grammar.String(); gr != "S -> A B\nA -> a c\nB -> b^2\n" {
		t.Errorf("grammar\n%s", gr)
	}
	if len(g.Patterns) == 0 {
		t.Errorf("no patterns")
	}
	// Frames cuts stacks: A@f and A@h become one terminal.
	if g := buildGroup("*", tagAll(tr, 0, 0, 0, 0, 0), labels[:1], 1); len(g.Terminals) != 2 || g.Terminals[0].Total != 4 {
		t.Errorf("-frames 1: %d terminals, want 2 (a: A, called 4 times)", len(g.Terminals))
	}
	if g := buildGroup("*", tagAll(tr, -1, -1, -1, -1, -1), labels, 0); g != nil {
		t.Errorf("no event in a sub-trace: group with %d events", g.Events)
	}
}

func TestGroupGrammar(t *testing.T) {
	terms := []*Terminal{{Letter: "a"}, {Letter: "b"}}
	// Sub-trace 1 is empty: the grammar sees two sub-traces, and its
	// observations name 0 and 2.
	gr := groupGrammar(terms, [][]int32{{0, 1, 1}, nil, {0, 1, 1, 1}})
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
