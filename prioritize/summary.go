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
func Build(traces []*logrt.Trace, opt Options) (*Summary, error) {
	if len(traces) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	traces = append([]*logrt.Trace(nil), traces...) // the caller's order stays
	sort.SliceStable(traces, func(i, j int) bool { return traces[i].Start.Before(traces[j].Start) })
	split := opt.Split
	if split == "" {
		split = "none"
		for _, tr := range traces {
			for _, m := range tr.Marks {
				if m.Kind == logrt.KindMark {
					split = "marks"
				}
			}
		}
	}
	splitter, err := newSplitter(split)
	if err != nil {
		return nil, err
	}
	if err := checkAt(split, traces...); err != nil {
		return nil, err
	}
	var sel *regexp.Regexp
	mode := opt.Goroutines
	switch mode {
	case "", "each":
		mode = "each"
	case "all":
	default:
		if sel, err = regexp.Compile(mode); err != nil {
			return nil, fmt.Errorf("-goroutines: %v", err)
		}
	}
	run, err := compileRun(opt.Run)
	if err != nil {
		return nil, err
	}
	s := &Summary{Version: SchemaVersion, Split: split, Run: opt.Run}
	// Events of each group, with the sub-trace they belong to (-1: none).
	type tagged struct {
		tr  *logrt.Trace
		e   *logrt.Event
		sub int
	}
	groups := map[string][]tagged{}
	var order []string
	var labels []SubTrace
	for _, tr := range traces {
		s.Traces = append(s.Traces, tr.Path)
		if sel != nil {
			// Split on the selected goroutines' events only, so that
			// background work does not fill the idle gaps between
			// repetitions.
			tr = onlyGoroutines(tr, sel)
		}
		subs := splitter.split(tr, len(labels))
		for i := range tr.Events {
			e := &tr.Events[i]
			key := "*"
			if mode == "each" || sel != nil {
				key = e.Entry
			}
			if sel != nil && !sel.MatchString(key) {
				continue
			}
			if sel != nil {
				key = "*" // selected groups are summarized together
			}
			if _, ok := groups[key]; !ok {
				order = append(order, key)
			}
			groups[key] = append(groups[key], tagged{tr, e, subs.of[i]})
		}
		labels = append(labels, subs.labels...)
	}
	if sel != nil && len(groups) == 0 {
		return nil, fmt.Errorf("-goroutines %q matches no goroutine", opt.Goroutines)
	}
	if run != nil {
		// Keep the matching sub-traces, in order, numbered densely; the
		// events of the others belong to no sub-trace.
		renum := make([]int, len(labels))
		var kept []SubTrace
		for i, l := range labels {
			renum[i] = -1
			if run.match(l.Label) {
				renum[i] = len(kept)
				kept = append(kept, l)
			}
		}
		inSubs := 0 // events in any sub-trace before filtering
		for _, evs := range groups {
			for i := range evs {
				if evs[i].sub >= 0 {
					inSubs++
					evs[i].sub = renum[evs[i].sub]
				}
			}
		}
		if len(kept) == 0 && inSubs > 0 {
			return nil, noRunMatch(opt.Run, labels)
		}
		labels = kept
	}
	for _, key := range order {
		evs := groups[key]
		g := &Group{Goroutine: key, SubTraces: make([]SubTrace, len(labels))}
		for i := range labels {
			g.SubTraces[i] = SubTrace{Label: labels[i].Label, Start: -1}
		}
		byStack := map[string]*Terminal{}
		ids := map[*Terminal]int32{}
		// The terminal of each stack id of each trace, found once.
		cache := map[*logrt.Trace][]*Terminal{}
		subs := make([][]int32, len(labels))
		for _, te := range evs {
			if te.sub < 0 {
				g.Left++
				continue
			}
			g.Events++
			st := &g.SubTraces[te.sub]
			st.Events++
			if st.Start < 0 || te.e.Time < st.Start {
				st.Start = te.e.Time
			}
			if te.e.Time > st.End {
				st.End = te.e.Time
			}
			ts := cache[te.tr]
			if ts == nil {
				ts = make([]*Terminal, len(te.tr.Stacks)+1)
				cache[te.tr] = ts
			}
			t := ts[te.e.Stack]
			if t == nil {
				t = terminalOf(te.tr, te.e, opt.Frames, byStack, g)
				ts[te.e.Stack] = t
			}
			id, ok := ids[t]
			if !ok {
				id = int32(len(ids))
				ids[t] = id
				t.Letter = letter(int(id))
				t.PerSub = make([]int, len(labels))
				t.BySub = make([][]ValueCount, len(labels))
				g.Terminals = append(g.Terminals, t)
			}
			t.Total++
			t.PerSub[te.sub]++
			t.count(te.sub, te.e.Value)
			subs[te.sub] = append(subs[te.sub], id)
		}
		if g.Events == 0 {
			continue
		}
		names := make([]string, len(g.Terminals))
		for i, t := range g.Terminals {
			names[i] = t.Letter
		}
		// The grammar drops empty sub-traces and numbers the rest; map
		// its observations back to this group's sub-trace numbers.
		var nonEmpty [][]int32
		var index []int32
		for i, sub := range subs {
			if len(sub) > 0 {
				nonEmpty = append(nonEmpty, sub)
				index = append(index, int32(i))
			}
		}
		g.Grammar = grammar.Build(&grammar.Trace{Names: names, Subs: nonEmpty}, grammar.Options{})
		renumber(g.Grammar, index)
		g.Patterns = Patterns(g)
		s.Groups = append(s.Groups, g)
	}
	sort.SliceStable(s.Groups, func(i, j int) bool { return s.Groups[i].Events > s.Groups[j].Events })
	return s, nil
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
	if split == "" {
		split = "none"
		for _, m := range tr.Marks {
			if m.Kind == logrt.KindMark {
				split = "marks"
			}
		}
	}
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
