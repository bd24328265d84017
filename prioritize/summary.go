package prioritize

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt"
)

// SchemaVersion is the version of the JSON form of a Summary.
const SchemaVersion = 1

// Options control how a trace becomes a summary.
type Options struct {
	Split      string // "marks", "idle=DURATION", "at=GETTER", "none"; "" chooses marks or none
	Frames     int    // keep the top N frames of each stack; 0 keeps all
	Goroutines string // "each" (default), "all", or a regexp over entry functions
	// Run keeps only the sub-traces whose label matches, by the rules of
	// go test -run (per-level regexps separated by '/'); "" keeps all.
	Run string
}

// A Summary is the Performance Summary of one or more traces.
type Summary struct {
	Version int      `json:"version"`
	Traces  []string `json:"traces"`
	Split   string   `json:"split"`
	Run     string   `json:"run,omitempty"` // Options.Run, when given
	Groups  []*Group `json:"groups"`
}

// A Group is the summary of the events of one goroutine group.
type Group struct {
	Goroutine string           `json:"goroutine"` // entry function; "*" for all
	Events    int              `json:"events"`    // in sub-traces
	Left      int              `json:"left"`      // events outside any sub-trace (before the first mark, ...)
	SubTraces []SubTrace       `json:"subTraces"`
	Terminals []*Terminal      `json:"terminals"`
	Grammar   *grammar.Grammar `json:"grammar"`
	Patterns  []Pattern        `json:"patterns"`
}

// A SubTrace is one repetition of the user's action.
type SubTrace struct {
	Label  string `json:"label"`
	Events int    `json:"events"`
	Start  int64  `json:"start"` // ns since the trace started
	End    int64  `json:"end"`
}

// A Terminal is an abstract event: one call stack of one getter.
type Terminal struct {
	Letter string         `json:"letter"`
	Name   string         `json:"name"` // the getter: "(*Stop).Name"
	Getter logrt.Getter   `json:"getter"`
	Frames []logrt.Frame  `json:"frames"` // Frames[0] is the getter
	Total  int            `json:"total"`
	PerSub []int          `json:"perSub"` // calls in each sub-trace
	Values []ValueCount   `json:"values"` // distinct values, first appearance order
	BySub  [][]ValueCount `json:"bySub"`  // distinct values in each sub-trace

	index    map[string]int   // value -> index in Values
	subIndex []map[string]int // value -> index in BySub[sub]
}

// A ValueCount is a string value and how often it was returned.
type ValueCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// Caller returns the frame that called the getter, if any.
func (t *Terminal) Caller() (logrt.Frame, bool) {
	if len(t.Frames) < 2 {
		return logrt.Frame{}, false
	}
	return t.Frames[1], true
}

// Build summarizes the traces, which are taken in order of start time.
// Its stages: resolve the options against the traces, put the events in
// goroutine groups and sub-traces, keep the sub-traces Options.Run
// selects, then summarize each group.
func Build(traces []*logrt.Trace, opt Options) (*Summary, error) {
	if len(traces) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	traces = append([]*logrt.Trace(nil), traces...) // the caller's order stays
	sort.SliceStable(traces, func(i, j int) bool { return traces[i].Start.Before(traces[j].Start) })
	p, err := resolve(traces, opt)
	if err != nil {
		return nil, err
	}
	gs, err := group(traces, p)
	if err != nil {
		return nil, err
	}
	if err := gs.keep(p.run); err != nil {
		return nil, err
	}
	s := &Summary{Version: SchemaVersion, Split: p.split, Run: opt.Run}
	for _, tr := range traces {
		s.Traces = append(s.Traces, tr.Path)
	}
	for _, key := range gs.order {
		if g := buildGroup(key, gs.events[key], gs.labels, opt.Frames); g != nil {
			s.Groups = append(s.Groups, g)
		}
	}
	sort.SliceStable(s.Groups, func(i, j int) bool { return s.Groups[i].Events > s.Groups[j].Events })
	return s, nil
}

// A plan is Options resolved against the traces.
type plan struct {
	split      string // the split specification, "" resolved
	splitter   splitter
	each       bool           // one group per entry function
	sel        *regexp.Regexp // else, when set: the goroutines kept, summarized as one group
	goroutines string         // Options.Goroutines, for messages
	run        *runFilter     // nil keeps every sub-trace
}

// resolve checks the options and compiles them for the traces.
func resolve(traces []*logrt.Trace, opt Options) (plan, error) {
	p := plan{split: chooseSplit(opt.Split, traces...), goroutines: opt.Goroutines}
	var err error
	if p.splitter, err = newSplitter(p.split); err != nil {
		return plan{}, err
	}
	if err := checkAt(p.split, traces...); err != nil {
		return plan{}, err
	}
	switch opt.Goroutines {
	case "", "each":
		p.each = true
	case "all":
	default:
		if p.sel, err = regexp.Compile(opt.Goroutines); err != nil {
			return plan{}, fmt.Errorf("-goroutines: %v", err)
		}
	}
	if p.run, err = compileRun(opt.Run); err != nil {
		return plan{}, err
	}
	return p, nil
}

// chooseSplit returns split, or for "" "marks" when a trace has a mark
// and "none" when none has.
func chooseSplit(split string, traces ...*logrt.Trace) string {
	if split != "" {
		return split
	}
	for _, tr := range traces {
		for _, m := range tr.Marks {
			if m.Kind == logrt.KindMark {
				return "marks"
			}
		}
	}
	return "none"
}

// groupOf returns the goroutine group of an event whose goroutine entered
// at entry, and false when the plan leaves the event out.
func (p plan) groupOf(entry string) (string, bool) {
	switch {
	case p.sel != nil:
		return "*", p.sel.MatchString(entry) // selected goroutines are summarized together
	case p.each:
		return entry, true
	}
	return "*", true
}

// A tagged event is an event of a trace with the sub-trace it belongs to
// (-1: none).
type tagged struct {
	tr  *logrt.Trace
	e   *logrt.Event
	sub int
}

// A grouping is the events of all traces by goroutine group, and the
// sub-traces they are numbered into.
type grouping struct {
	order  []string            // the groups, in order of first event
	events map[string][]tagged // the events of each group, in order
	labels []SubTrace          // the sub-traces of all traces, in order
}

// group splits each trace into sub-traces, numbered across the traces in
// order, and puts its events in goroutine groups.
func group(traces []*logrt.Trace, p plan) (*grouping, error) {
	gs := &grouping{events: map[string][]tagged{}}
	for _, tr := range traces {
		if p.sel != nil {
			// Split on the selected goroutines' events only, so that
			// background work does not fill the idle gaps between
			// repetitions.
			tr = onlyGoroutines(tr, p.sel)
		}
		subs := p.splitter.split(tr, len(gs.labels))
		for i := range tr.Events {
			e := &tr.Events[i]
			key, ok := p.groupOf(e.Entry)
			if !ok {
				continue
			}
			if _, ok := gs.events[key]; !ok {
				gs.order = append(gs.order, key)
			}
			gs.events[key] = append(gs.events[key], tagged{tr, e, subs.of[i]})
		}
		gs.labels = append(gs.labels, subs.labels...)
	}
	if p.sel != nil && len(gs.events) == 0 {
		return nil, fmt.Errorf("-goroutines %q matches no goroutine", p.goroutines)
	}
	return gs, nil
}

// keep keeps the sub-traces run matches, in order and numbered densely;
// the events of the others belong to no sub-trace. A run filter that
// keeps none of the sub-traces that have events is an error.
func (gs *grouping) keep(run *runFilter) error {
	if run == nil {
		return nil
	}
	renum := make([]int, len(gs.labels))
	var kept []SubTrace
	for i, l := range gs.labels {
		renum[i] = -1
		if run.match(l.Label) {
			renum[i] = len(kept)
			kept = append(kept, l)
		}
	}
	inSubs := 0 // events in any sub-trace before filtering
	for _, evs := range gs.events {
		for i := range evs {
			if evs[i].sub >= 0 {
				inSubs++
				evs[i].sub = renum[evs[i].sub]
			}
		}
	}
	if len(kept) == 0 && inSubs > 0 {
		return noRunMatch(run.pattern, gs.labels)
	}
	gs.labels = kept
	return nil
}

// buildGroup summarizes the events of one goroutine group over the
// sub-traces labels: its terminals, grammar and patterns. It returns nil
// when none of the events is in a sub-trace.
func buildGroup(key string, evs []tagged, labels []SubTrace, frames int) *Group {
	g := &Group{Goroutine: key, SubTraces: make([]SubTrace, len(labels))}
	for i := range labels {
		g.SubTraces[i] = SubTrace{Label: labels[i].Label, Start: -1}
	}
	ts := newTerminals(g, frames)
	subs := make([][]int32, len(labels)) // the terminal ids of each sub-trace
	for _, te := range evs {
		if te.sub < 0 {
			g.Left++
			continue
		}
		g.Events++
		g.SubTraces[te.sub].add(te.e.Time)
		id, t := ts.of(te.tr, te.e)
		t.Total++
		t.PerSub[te.sub]++
		t.count(te.sub, te.e.Value)
		subs[te.sub] = append(subs[te.sub], id)
	}
	if g.Events == 0 {
		return nil
	}
	g.Grammar = groupGrammar(g.Terminals, subs)
	g.Patterns = Patterns(g)
	return g
}

// add counts one more event of the sub-trace, at time t.
func (st *SubTrace) add(t int64) {
	st.Events++
	if st.Start < 0 || t < st.Start {
		st.Start = t
	}
	if t > st.End {
		st.End = t
	}
}

// terminals finds the terminal of each event of a group, and numbers and
// letters the terminals in order of first event.
type terminals struct {
	g       *Group
	frames  int
	byStack map[string]*Terminal
	ids     map[*Terminal]int32
	cache   map[*logrt.Trace][]*Terminal // the terminal of each stack id of each trace, found once
}

func newTerminals(g *Group, frames int) *terminals {
	return &terminals{
		g:       g,
		frames:  frames,
		byStack: map[string]*Terminal{},
		ids:     map[*Terminal]int32{},
		cache:   map[*logrt.Trace][]*Terminal{},
	}
}

// of returns the terminal of event e of tr and its id, adding it to the
// group's terminals the first time.
func (ts *terminals) of(tr *logrt.Trace, e *logrt.Event) (int32, *Terminal) {
	byID := ts.cache[tr]
	if byID == nil {
		byID = make([]*Terminal, len(tr.Stacks)+1)
		ts.cache[tr] = byID
	}
	t := byID[e.Stack]
	if t == nil {
		t = terminalOf(tr, e, ts.frames, ts.byStack, ts.g)
		byID[e.Stack] = t
	}
	id, ok := ts.ids[t]
	if !ok {
		id = int32(len(ts.ids))
		ts.ids[t] = id
		n := len(ts.g.SubTraces)
		t.Letter = letter(int(id))
		t.PerSub = make([]int, n)
		t.BySub = make([][]ValueCount, n)
		ts.g.Terminals = append(ts.g.Terminals, t)
	}
	return id, t
}

// groupGrammar builds the grammar of a group's sub-traces, each a list of
// terminal ids. The grammar drops empty sub-traces and numbers the rest;
// its observations are mapped back to the group's sub-trace numbers.
func groupGrammar(terms []*Terminal, subs [][]int32) *grammar.Grammar {
	names := make([]string, len(terms))
	for i, t := range terms {
		names[i] = t.Letter
	}
	var nonEmpty [][]int32
	var index []int32
	for i, sub := range subs {
		if len(sub) > 0 {
			nonEmpty = append(nonEmpty, sub)
			index = append(index, int32(i))
		}
	}
	gr := grammar.Build(&grammar.Trace{Names: names, Subs: nonEmpty}, grammar.Options{})
	renumber(gr, index)
	return gr
}

// onlyGoroutines returns a copy of tr with only the events of the goroutine
// groups re matches (marks are kept).
func onlyGoroutines(tr *logrt.Trace, re *regexp.Regexp) *logrt.Trace {
	c := *tr
	c.Events = nil
	for _, e := range tr.Events {
		if re.MatchString(e.Entry) {
			c.Events = append(c.Events, e)
		}
	}
	return &c
}

func renumber(gr *grammar.Grammar, index []int32) {
	fix := func(rps []grammar.RP) {
		for i := range rps {
			for k := range rps[i].Obs {
				if o := &rps[i].Obs[k]; o.Sub >= 0 && int(o.Sub) < len(index) {
					o.Sub = index[o.Sub]
				}
			}
		}
	}
	fix(gr.Start)
	for i := range gr.Rules {
		fix(gr.Rules[i].Body)
	}
}

// count records one more return of v in sub-trace sub.
func (t *Terminal) count(sub int, v string) {
	if t.index == nil {
		t.index = map[string]int{}
		t.subIndex = make([]map[string]int, len(t.BySub))
	}
	if i, ok := t.index[v]; ok {
		t.Values[i].Count++
	} else {
		t.index[v] = len(t.Values)
		t.Values = append(t.Values, ValueCount{Value: v, Count: 1})
	}
	m := t.subIndex[sub]
	if m == nil {
		m = map[string]int{}
		t.subIndex[sub] = m
	}
	if i, ok := m[v]; ok {
		t.BySub[sub][i].Count++
	} else {
		m[v] = len(t.BySub[sub])
		t.BySub[sub] = append(t.BySub[sub], ValueCount{Value: v, Count: 1})
	}
}

// terminalOf returns the terminal of event e, by its (possibly cut) stack.
func terminalOf(tr *logrt.Trace, e *logrt.Event, frames int, byStack map[string]*Terminal, g *Group) *Terminal {
	st := tr.StackOf(e.Stack)
	fs := st.Frames
	if frames > 0 && len(fs) > frames {
		fs = fs[:frames]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d\x00", e.Getter)
	for _, f := range fs {
		fmt.Fprintf(&b, "%s\x00%s\x00%d\x00", f.Func, f.File, f.Line)
	}
	key := b.String()
	if t, ok := byStack[key]; ok {
		return t
	}
	gt, _ := tr.GetterOf(e.Getter)
	name := gt.Name()
	if gt.ID == 0 {
		// Not in the getter table (a damaged or hand-made trace): name
		// it by its function, or by its id when the stack is empty too.
		name = fmt.Sprintf("getter %d", e.Getter)
		if len(fs) > 0 {
			name = shortFunc(fs[0].Func)
		}
	}
	t := &Terminal{Name: name, Getter: gt, Frames: fs}
	byStack[key] = t
	return t
}

func shortFunc(f string) string {
	if i := strings.LastIndex(f, "/"); i >= 0 {
		f = f[i+1:]
	}
	return f
}

// letter returns the i'th terminal name: a..z, aa, ab, ...
func letter(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('a' + i%26)}, b...)
		i = i/26 - 1
		if i < 0 {
			return string(b)
		}
	}
}

// splitting

type splitter interface {
	// split assigns each event of tr to a sub-trace (numbered from first)
	// or to none (-1), and labels the sub-traces it starts.
	split(tr *logrt.Trace, first int) splitResult
}

type splitResult struct {
	of     []int
	labels []SubTrace
}

func newSplitter(spec string) (splitter, error) {
	switch {
	case spec == "marks":
		return markSplit{}, nil
	case spec == "none":
		return noSplit{}, nil
	case strings.HasPrefix(spec, "idle="):
		d, err := time.ParseDuration(strings.TrimPrefix(spec, "idle="))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("-split %s: %q is not a positive duration", spec, strings.TrimPrefix(spec, "idle="))
		}
		return idleSplit{d}, nil
	case strings.HasPrefix(spec, "at="):
		g := strings.TrimPrefix(spec, "at=")
		if g == "" {
			return nil, fmt.Errorf("-split at=: name a getter, e.g. at=Stop.Name")
		}
		return atSplit{g}, nil
	}
	return nil, fmt.Errorf("-split %q: want marks, idle=DURATION, at=GETTER or none", spec)
}

type noSplit struct{}

func (noSplit) split(tr *logrt.Trace, first int) splitResult {
	of := make([]int, len(tr.Events))
	for i := range of {
		of[i] = first
	}
	return splitResult{of, []SubTrace{{Label: filepath.Base(tr.Path)}}}
}

type markSplit struct{}

func (markSplit) split(tr *logrt.Trace, first int) splitResult {
	r := splitResult{of: make([]int, len(tr.Events))}
	cur, mi := -1, 0
	for i, e := range tr.Events {
		for ; mi < len(tr.Marks) && tr.Marks[mi].Seq < e.Seq; mi++ {
			if m := tr.Marks[mi]; m.Kind == logrt.KindMark {
				label := m.Label
				if label == "" {
					label = "mark " + strconv.Itoa(len(r.labels)+1)
				}
				r.labels = append(r.labels, SubTrace{Label: label})
				cur = first + len(r.labels) - 1
			}
		}
		r.of[i] = cur
	}
	return r
}

type idleSplit struct{ gap time.Duration }

func (s idleSplit) split(tr *logrt.Trace, first int) splitResult {
	r := splitResult{of: make([]int, len(tr.Events))}
	for i, e := range tr.Events {
		if i == 0 || e.Time-tr.Events[i-1].Time > int64(s.gap) {
			r.labels = append(r.labels, SubTrace{Label: fmt.Sprintf("episode %d", len(r.labels)+1)})
		}
		r.of[i] = first + len(r.labels) - 1
	}
	return r
}

type atSplit struct{ getter string }

func (s atSplit) split(tr *logrt.Trace, first int) splitResult {
	r := splitResult{of: make([]int, len(tr.Events))}
	cur := -1
	for i, e := range tr.Events {
		if g, ok := tr.GetterOf(e.Getter); ok && MatchGetter(g, s.getter) {
			r.labels = append(r.labels, SubTrace{Label: fmt.Sprintf("%s #%d", s.getter, len(r.labels)+1)})
			cur = first + len(r.labels) - 1
		}
		r.of[i] = cur
	}
	return r
}

// checkAt reports an at=GETTER split whose getter is in none of the
// traces' getter tables (a typo would otherwise leave every event outside
// the sub-traces), naming the getters there are.
func checkAt(split string, traces ...*logrt.Trace) error {
	name, ok := strings.CutPrefix(split, "at=")
	if !ok {
		return nil
	}
	var have []string
	for _, tr := range traces {
		for _, g := range tr.Getters {
			if g.ID == 0 {
				continue
			}
			if MatchGetter(g, name) {
				return nil
			}
			if n := g.Name(); !contains(have, n) {
				have = append(have, n)
			}
		}
	}
	if len(have) == 0 {
		return nil // nothing recorded (an empty trace): no sub-traces, no error
	}
	more := ""
	if len(have) > 8 {
		more = fmt.Sprintf(", ... (%d in all)", len(have))
		have = have[:8]
	}
	return fmt.Errorf("-split %s: no getter is %s; the trace has %s%s", split, name, strings.Join(have, ", "), more)
}

// MatchGetter reports whether name designates g: "Stop.Name",
// "(*Stop).Name", "pkg.(*Stop).Name" or the full import path form.
func MatchGetter(g logrt.Getter, name string) bool {
	bare := strings.TrimPrefix(g.Receiver, "*")
	if i := strings.IndexByte(bare, '['); i >= 0 {
		bare = bare[:i]
	}
	forms := []string{g.Name(), g.Method}
	if bare != "" {
		forms = append(forms, bare+"."+g.Method)
	}
	pkg := g.Package[strings.LastIndex(g.Package, "/")+1:]
	for _, f := range forms[:] {
		forms = append(forms, pkg+"."+f, g.Package+"."+f)
	}
	for _, f := range forms {
		if f == name {
			return true
		}
	}
	return false
}

// SplitEvents assigns each event of tr to a sub-trace (-1: none) as Build
// does with the same split specification ("" chooses marks or none), and
// returns the sub-traces.
func SplitEvents(tr *logrt.Trace, split string) ([]int, []SubTrace, error) {
	split = chooseSplit(split, tr)
	sp, err := newSplitter(split)
	if err != nil {
		return nil, nil, err
	}
	if err := checkAt(split, tr); err != nil {
		return nil, nil, err
	}
	r := sp.split(tr, 0)
	return r.of, r.labels, nil
}
