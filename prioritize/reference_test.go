package prioritize

// The reference implementation of Build: the plain, whole-trace version
// that held every event in memory (before Build streamed), kept to check
// the streaming Build against it (TestBuildMatchesReference, FuzzBuild).
// It differs from the original in one point, which Build shares: a
// terminal is a (stack, getter) pair, so that a damaged trace that uses
// one stack for two getters gets two terminals.

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

// refBuild is Build on whole traces.
func refBuild(traces []*tracefile.Trace, opt Options) (*Summary, error) {
	if len(traces) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	traces = append([]*tracefile.Trace(nil), traces...) // the caller's order stays
	sort.SliceStable(traces, func(i, j int) bool { return traces[i].Start.Before(traces[j].Start) })
	split, splitter, err := refSplitOf(traces, opt)
	if err != nil {
		return nil, err
	}
	mode, sel, err := refGoroutines(opt)
	if err != nil {
		return nil, err
	}
	run, err := compileRun(opt.Run)
	if err != nil {
		return nil, err
	}
	s := &Summary{Version: SchemaVersion, Split: split, Run: opt.Run}
	for _, tr := range traces {
		s.Traces = append(s.Traces, tr.Path)
	}
	ev := refTagEvents(traces, splitter, mode, sel)
	labels := ev.labels
	if split == "none" {
		// One sub-trace per trace file, labelled by what tells the
		// runs apart (runLabels).
		runs := make([]runOf, len(traces))
		for i, tr := range traces {
			runs[i] = runOf{tr.Path, tr.Args}
		}
		for i, l := range runLabels(runs) {
			labels[i].Label = l
		}
	}
	if sel != nil && len(ev.groups) == 0 {
		return nil, noGoroutineMatch(opt.Goroutines, ev.left)
	}
	if run != nil {
		if labels, err = refKeepRun(run, opt.Run, labels, ev.groups); err != nil {
			return nil, err
		}
	}
	for _, key := range ev.order {
		if g := refGroup(key, ev.groups[key], labels, opt); g != nil {
			s.Groups = append(s.Groups, g)
		}
	}
	sort.SliceStable(s.Groups, func(i, j int) bool { return s.Groups[i].Events > s.Groups[j].Events })
	// Findings are a function of the summary's groups (not of the
	// streaming), so the reference computes them the same way.
	if s.Findings, err = buildFindings(s, opt); err != nil {
		return nil, err
	}
	return s, nil
}

// refSplitOf returns the split of opt (by default "marks" when a trace
// has marks, else "none") and its splitter.
func refSplitOf(traces []*tracefile.Trace, opt Options) (string, refSplitter, error) {
	split := opt.Split
	if split == "" {
		split = "none"
		for _, tr := range traces {
			for _, m := range tr.Marks {
				if m.Kind == tracefile.KindMark {
					split = "marks"
				}
			}
		}
	}
	splitter, err := refNewSplitter(split)
	if err != nil {
		return "", nil, err
	}
	if err := checkAt(split, traces...); err != nil {
		return "", nil, err
	}
	return split, splitter, nil
}

// refGoroutines returns the grouping of opt.Goroutines: "each", "all",
// or the regexp that selects the groups summarized together.
func refGoroutines(opt Options) (string, *regexp.Regexp, error) {
	switch mode := opt.Goroutines; mode {
	case "", "each":
		return "each", nil, nil
	case "all":
		return mode, nil, nil
	default:
		sel, err := regexp.Compile(mode)
		if err != nil {
			return "", nil, fmt.Errorf("Goroutines %q: %v", opt.Goroutines, err)
		}
		return mode, sel, nil
	}
}

// A refTagged is an event of a group, with the sub-trace it belongs to
// (-1: none).
type refTagged struct {
	tr  *tracefile.Trace
	e   *tracefile.Event
	sub int
}

// refEvents are the events of all the traces, by group.
type refEvents struct {
	groups map[string][]refTagged
	order  []string        // the groups, in order of their first event
	labels []SubTrace      // the sub-traces of all the traces
	left   map[string]bool // entries -goroutines leaves out: the first few of each trace
}

// refTagEvents splits the traces into sub-traces and their events into
// groups.
func refTagEvents(traces []*tracefile.Trace, splitter refSplitter, mode string, sel *regexp.Regexp) *refEvents {
	ev := &refEvents{groups: map[string][]refTagged{}, left: map[string]bool{}}
	for _, tr := range traces {
		if sel != nil {
			for i, seen := 0, map[string]bool{}; i < len(tr.Events) && len(seen) <= maxLeftNames; i++ {
				if e := tr.Events[i].Entry; !sel.MatchString(e) && !seen[e] {
					seen[e], ev.left[e] = true, true
				}
			}
			// Split on the selected goroutines' events only, so that
			// background work does not fill the idle gaps between
			// repetitions.
			tr = refOnlyGoroutines(tr, sel)
		}
		subs := splitter.split(tr, len(ev.labels))
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
				key = sel.String() // selected groups are summarized together, named by the selection
			}
			if _, ok := ev.groups[key]; !ok {
				ev.order = append(ev.order, key)
			}
			ev.groups[key] = append(ev.groups[key], refTagged{tr, e, subs.of[i]})
		}
		ev.labels = append(ev.labels, subs.labels...)
	}
	return ev
}

// refKeepRun keeps the sub-traces that run matches, in order, numbered
// densely; the events of the others belong to no sub-trace.
func refKeepRun(run *runFilter, pattern string, labels []SubTrace, groups map[string][]refTagged) ([]SubTrace, error) {
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
		return nil, noRunMatch(pattern, labels)
	}
	return kept, nil
}

// refGroup summarizes the events of one group; nil if none is in a
// sub-trace.
func refGroup(key string, evs []refTagged, labels []SubTrace, opt Options) *Group {
	g := &Group{Goroutine: key, SubTraces: make([]SubTrace, len(labels))}
	for i := range labels {
		g.SubTraces[i] = SubTrace{Label: labels[i].Label, Start: -1}
	}
	subs := refTerminals(g, evs, len(labels), opt)
	if g.Events == 0 {
		return nil
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
	g.setPatterns(opt)
	refCut(g, opt)
	return g
}

// refCut cuts the group's grammar as Options.Items asks, plainly: every
// rule and item copied, the first k items and observations kept.
func refCut(g *Group, opt Options) {
	k := opt.Items
	if k == 0 {
		k = DefaultItems
	}
	if k < 0 {
		return
	}
	cut := func(body []grammar.RP) ([]grammar.RP, int) {
		var out []grammar.RP
		for i, rp := range body {
			if i == k {
				return out, len(body) - k
			}
			if len(rp.Obs) > k {
				rp.MoreObs = int32(len(rp.Obs) - k)
				rp.Obs = rp.Obs[:k]
			}
			out = append(out, rp)
		}
		return out, 0
	}
	c := *g.Grammar
	c.Start, c.StartMore = cut(c.Start)
	c.Rules = nil
	for _, r := range g.Grammar.Rules {
		body, more := cut(r.Body)
		c.Rules = append(c.Rules, grammar.Rule{Name: r.Name, Body: body, More: more})
	}
	g.whole, g.Grammar = g.Grammar, &c
}

// refTerminals counts the events of a group into its sub-traces and
// terminals, and returns each sub-trace's sequence of terminals.
func refTerminals(g *Group, evs []refTagged, nsubs int, opt Options) [][]int32 {
	byStack := map[string]*Terminal{}
	vindex := map[*Terminal]*refIndex{}
	ids := map[*Terminal]int32{}
	// The terminal of each stack id of each trace, found once.
	cache := map[*tracefile.Trace]map[[2]uint32]*Terminal{}
	subs := make([][]int32, nsubs)
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
			ts = map[[2]uint32]*Terminal{}
			cache[te.tr] = ts
		}
		t := ts[[2]uint32{te.e.Stack, te.e.Getter}]
		if t == nil {
			t = refTerminalOf(te.tr, te.e, opt.Frames, byStack, g)
			ts[[2]uint32{te.e.Stack, te.e.Getter}] = t
		}
		id, ok := ids[t]
		if !ok {
			id = int32(len(ids))
			ids[t] = id
			t.Letter = letter(int(id))
			vindex[t] = &refIndex{all: map[string]int{}, subs: make([]map[string]int, nsubs),
				per: make([]int, nsubs), by: make([][]ValueCount, nsubs)}
			g.Terminals = append(g.Terminals, t)
		}
		t.Total++
		vindex[t].per[te.sub]++
		refCount(t, te.sub, te.e.Value, vindex)
		subs[te.sub] = append(subs[te.sub], id)
	}
	for _, t := range g.Terminals {
		t.SetPerSub(vindex[t].per, vindex[t].by)
	}
	return subs
}

// refOnlyGoroutines returns a copy of tr with only the events of the goroutine
// groups re matches (marks are kept).
func refOnlyGoroutines(tr *tracefile.Trace, re *regexp.Regexp) *tracefile.Trace {
	c := *tr
	c.Events = nil
	for _, e := range tr.Events {
		if re.MatchString(e.Entry) {
			c.Events = append(c.Events, e)
		}
	}
	return &c
}

type refIndex struct {
	all  map[string]int
	subs []map[string]int
	per  []int          // calls in each sub-trace
	by   [][]ValueCount // values in each sub-trace
}

// refCount records one more return of v in sub-trace sub.
func refCount(t *Terminal, sub int, v string, index map[*Terminal]*refIndex) {
	x := index[t]
	if i, ok := x.all[v]; ok {
		t.Values[i].Count++
	} else {
		x.all[v] = len(t.Values)
		t.Values = append(t.Values, ValueCount{Value: v, Count: 1})
	}
	m := x.subs[sub]
	if m == nil {
		m = map[string]int{}
		x.subs[sub] = m
	}
	if i, ok := m[v]; ok {
		x.by[sub][i].Count++
	} else {
		m[v] = len(x.by[sub])
		x.by[sub] = append(x.by[sub], ValueCount{Value: v, Count: 1})
	}
}

// refTerminalOf returns the terminal of event e, by its (possibly cut) stack.
func refTerminalOf(tr *tracefile.Trace, e *tracefile.Event, frames int, byStack map[string]*Terminal, g *Group) *Terminal {
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

type refSplitter interface {
	// split assigns each event of tr to a sub-trace (numbered from first)
	// or to none (-1), and labels the sub-traces it starts.
	split(tr *tracefile.Trace, first int) refSplitResult
}

type refSplitResult struct {
	of     []int
	labels []SubTrace
}

func refNewSplitter(spec string) (refSplitter, error) {
	switch {
	case spec == "marks":
		return refMarkSplit{}, nil
	case spec == "none":
		return refNoSplit{}, nil
	case strings.HasPrefix(spec, "idle="):
		d, err := time.ParseDuration(strings.TrimPrefix(spec, "idle="))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("Split %s: %q is not a positive duration", spec, strings.TrimPrefix(spec, "idle="))
		}
		return refIdleSplit{d}, nil
	case strings.HasPrefix(spec, "at="):
		g := strings.TrimPrefix(spec, "at=")
		if g == "" {
			return nil, fmt.Errorf("Split at=: name a getter, e.g. at=Stop.Name")
		}
		return refAtSplit{g}, nil
	}
	return nil, fmt.Errorf("Split %q: want marks, idle=DURATION, at=GETTER or none", spec)
}

type refNoSplit struct{}

func (refNoSplit) split(tr *tracefile.Trace, first int) refSplitResult {
	of := make([]int, len(tr.Events))
	for i := range of {
		of[i] = first
	}
	return refSplitResult{of, []SubTrace{{Label: tr.Path}}} // relabelled by refBuild
}

type refMarkSplit struct{}

func (refMarkSplit) split(tr *tracefile.Trace, first int) refSplitResult {
	r := refSplitResult{of: make([]int, len(tr.Events))}
	cur, mi := -1, 0
	for i, e := range tr.Events {
		for ; mi < len(tr.Marks) && tr.Marks[mi].Seq < e.Seq; mi++ {
			if m := tr.Marks[mi]; m.Kind == tracefile.KindMark {
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

type refIdleSplit struct{ gap time.Duration }

func (s refIdleSplit) split(tr *tracefile.Trace, first int) refSplitResult {
	r := refSplitResult{of: make([]int, len(tr.Events))}
	for i, e := range tr.Events {
		if i == 0 || e.Time-tr.Events[i-1].Time > int64(s.gap) {
			r.labels = append(r.labels, SubTrace{Label: fmt.Sprintf("episode %d", len(r.labels)+1)})
		}
		r.of[i] = first + len(r.labels) - 1
	}
	return r
}

type refAtSplit struct{ getter string }

func (s refAtSplit) split(tr *tracefile.Trace, first int) refSplitResult {
	r := refSplitResult{of: make([]int, len(tr.Events))}
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
