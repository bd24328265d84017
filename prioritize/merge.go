package prioritize

import (
	"fmt"
	"sort"
	"strings"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt"
)

// Build summarizes the traces, which are taken in order of start time.
// The traces are held in memory; a reader of big traces builds a Part of
// each while decoding it and calls Merge instead, with the same result.
func Build(traces []*logrt.Trace, opt Options) (*Summary, error) {
	if len(traces) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	parts := make([]*Part, len(traces))
	for i, tr := range traces {
		p, err := NewPart(opt, tr.Getters)
		if err != nil {
			return nil, err
		}
		eachRecord(tr, func(_ int, ev *logrt.Event, mk *logrt.Marker) { p.Add(ev, mk) })
		p.Finish(tr)
		parts[i] = p
	}
	return Merge(parts, opt)
}

// A subRef is a segment of a part that is a sub-trace of the summary.
type subRef struct {
	part  *Part
	seg   int32
	label string
}

// Merge summarizes finished parts (see Part), taken in order of their
// traces' start times; opt must be the options the parts were made with.
func Merge(parts []*Part, opt Options) (*Summary, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	c, err := compileOptions(opt)
	if err != nil {
		return nil, err
	}
	parts = append([]*Part(nil), parts...) // the caller's order stays
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].trace.Start.Before(parts[j].trace.Start) })
	sawMark := false
	for _, p := range parts {
		sawMark = sawMark || p.seg.sawMark
	}
	split, kind := chooseSplit(opt.Split, sawMark)
	traces := make([]*logrt.Trace, len(parts))
	for i, p := range parts {
		traces[i] = p.trace
	}
	if err := checkAt(split, traces...); err != nil {
		return nil, err
	}
	s := &Summary{Version: SchemaVersion, Split: split, Run: opt.Run}
	var all []subRef
	var order []string // group keys in order of first appearance
	seen := map[string]bool{}
	for _, p := range parts {
		s.Traces = append(s.Traces, p.trace.Path)
	}
	runs := runLabels(s.Traces)
	for i, p := range parts {
		segs, labels := p.seg.subTraces(kind, runs[i])
		for i := range segs {
			all = append(all, subRef{p, segs[i], labels[i]})
		}
		for _, g := range p.groups {
			if !seen[g.key] {
				seen[g.key] = true
				order = append(order, g.key)
			}
		}
	}
	if c.sel != nil && len(order) == 0 {
		return nil, optionError("Goroutines", "%q matches no goroutine", opt.Goroutines)
	}
	kept, err := keepRun(c.run, opt.Run, all)
	if err != nil {
		return nil, err
	}
	for _, key := range order {
		if g := mergeGroup(key, parts, kept, opt.Frames); g != nil {
			s.Groups = append(s.Groups, g)
		}
	}
	sort.SliceStable(s.Groups, func(i, j int) bool { return s.Groups[i].Events > s.Groups[j].Events })
	if s.Findings, err = buildFindings(s, opt); err != nil {
		return nil, err
	}
	return s, nil
}

// chooseSplit returns the split given, or for "" "marks" when a trace
// has a mark and "none" when none has.
func chooseSplit(spec string, sawMark bool) (string, splitKind) {
	switch {
	case spec != "":
		return spec, splitKindOf(spec)
	case sawMark:
		return "marks", splitMarks
	}
	return "none", splitNone
}

// keepRun keeps the sub-traces whose labels -run selects; a pattern that
// keeps none of the sub-traces that have events is an error listing the
// labels.
func keepRun(run *runFilter, pattern string, all []subRef) ([]subRef, error) {
	if run == nil {
		return all, nil
	}
	var kept []subRef
	inSubs := 0 // events in any sub-trace before filtering
	labels := make([]SubTrace, len(all))
	for i, r := range all {
		labels[i] = SubTrace{Label: r.label}
		for _, g := range r.part.groups {
			if int(r.seg) < len(g.segs) {
				inSubs += g.segs[r.seg].span.Events
			}
		}
		if run.match(r.label) {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 && inSubs > 0 {
		return nil, noRunMatch(pattern, labels)
	}
	return kept, nil
}

// mergeGroup summarizes one goroutine group over the kept sub-traces;
// nil when none of its events is in them.
func mergeGroup(key string, parts []*Part, kept []subRef, frames int) *Group {
	g := &Group{Goroutine: key, SubTraces: make([]SubTrace, len(kept))}
	for i := range kept {
		g.SubTraces[i] = SubTrace{Label: kept[i].label, Start: -1}
	}
	m := &groupMerge{g: g, frames: frames, byKey: map[string]*Terminal{}, terms: map[*Part][]*Terminal{}}
	subs := make([][]int32, len(kept))
	for i, r := range kept {
		subs[i] = m.sub(i, r)
	}
	g.Left = m.left(key, parts, kept)
	if g.Events == 0 {
		return nil
	}
	m.counts(key, kept)
	g.Grammar = groupGrammar(g.Terminals, subs)
	g.Patterns = Patterns(g)
	return g
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

// A groupMerge builds one group's terminals from the parts' protos.
type groupMerge struct {
	g      *Group
	frames int
	byKey  map[string]*Terminal      // by terminalKey
	terms  map[*Part][]*Terminal     // by proto index, once looked up
	ids    map[*Terminal]int32       // index in g.Terminals
	subsOf map[*Part]map[int32]int32 // segment -> kept sub-trace number
}

// sub turns the group's events in kept sub-trace i into terminal numbers
// (in place: the part's sequence becomes the grammar's input), giving
// terminals their letters in order of first appearance.
func (m *groupMerge) sub(i int, r subRef) []int32 {
	pg := r.part.group(m.g.Goroutine)
	if pg == nil || int(r.seg) >= len(pg.segs) {
		return nil
	}
	sd := &pg.segs[r.seg]
	if sd.span.Events == 0 {
		return nil
	}
	m.g.Events += sd.span.Events
	st := &m.g.SubTraces[i]
	st.Events, st.Start, st.End = sd.span.Events, sd.span.Start, sd.span.End
	ts := m.terms[r.part]
	if ts == nil {
		ts = make([]*Terminal, len(r.part.protos))
		m.terms[r.part] = ts
	}
	if m.ids == nil {
		m.ids = map[*Terminal]int32{}
	}
	for j, pi := range sd.seq {
		t := ts[pi]
		if t == nil {
			t = m.terminal(r.part, &r.part.protos[pi])
			ts[pi] = t
		}
		id, ok := m.ids[t]
		if !ok {
			id = int32(len(m.g.Terminals))
			m.ids[t] = id
			t.Letter = letter(int(id))
			t.PerSub = make([]int, len(m.g.SubTraces))
			t.BySub = make([][]ValueCount, len(m.g.SubTraces))
			m.g.Terminals = append(m.g.Terminals, t)
		}
		sd.seq[j] = id
	}
	return sd.seq
}

// terminal returns the terminal of a proto, by its (possibly cut) stack.
func (m *groupMerge) terminal(p *Part, pr *proto) *Terminal {
	tr := p.trace
	var fs []logrt.Frame
	if st := tr.StackOf(pr.stack); st != nil {
		fs = st.Frames
	}
	if m.frames > 0 && len(fs) > m.frames {
		fs = fs[:m.frames]
	}
	key := terminalKey(pr.getter, fs)
	if t, ok := m.byKey[key]; ok {
		return t
	}
	gt, _ := tr.GetterOf(pr.getter)
	name := gt.Name()
	if gt.ID == 0 {
		// Not in the getter table (a damaged or hand-made trace): name
		// it by its function, or by its id when the stack is empty too.
		name = fmt.Sprintf("getter %d", pr.getter)
		if len(fs) > 0 {
			name = shortFunc(fs[0].Func)
		}
	}
	t := &Terminal{Name: name, Getter: gt, Frames: fs}
	m.byKey[key] = t
	return t
}

// left counts the group's events outside the kept sub-traces, and notes
// which segment of each part is which kept sub-trace.
func (m *groupMerge) left(key string, parts []*Part, kept []subRef) int {
	m.subsOf = map[*Part]map[int32]int32{}
	for i, r := range kept {
		if m.subsOf[r.part] == nil {
			m.subsOf[r.part] = map[int32]int32{}
		}
		m.subsOf[r.part][r.seg] = int32(i)
	}
	n := 0
	for _, p := range parts {
		pg := p.group(key)
		if pg == nil {
			continue
		}
		for seg := range pg.segs {
			if _, ok := m.subsOf[p][int32(seg)]; !ok {
				n += pg.segs[seg].span.Events
			}
		}
	}
	return n
}

// counts gives the group's terminals their calls and values in each kept
// sub-trace, and in all of them.
func (m *groupMerge) counts(key string, kept []subRef) {
	type contrib struct {
		t   *Terminal
		sub int32
		c   *cell
	}
	var cs []contrib
	done := map[*Part]bool{}
	for _, r := range kept {
		if done[r.part] {
			continue
		}
		done[r.part] = true
		ts, subs := m.terms[r.part], m.subsOf[r.part]
		for pi := range r.part.protos {
			pr := &r.part.protos[pi]
			if ts == nil || ts[pi] == nil || r.part.groups[pr.group].key != key {
				continue
			}
			for k := range pr.cells {
				if i, ok := subs[pr.cells[k].seg]; ok {
					cs = append(cs, contrib{ts[pi], i, &pr.cells[k]})
				}
			}
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].t != cs[b].t {
			return m.ids[cs[a].t] < m.ids[cs[b].t]
		}
		return cs[a].sub < cs[b].sub
	})
	for a := 0; a < len(cs); {
		b := a + 1
		for b < len(cs) && cs[b].t == cs[a].t && cs[b].sub == cs[a].sub {
			b++
		}
		cells := make([]*cell, 0, b-a)
		for _, x := range cs[a:b] {
			cells = append(cells, x.c)
		}
		t := cs[a].t
		t.PerSub[cs[a].sub], t.BySub[cs[a].sub] = mergeCells(cells)
		a = b
	}
	for _, t := range m.g.Terminals {
		t.Values, t.Total = allValues(t.BySub)
	}
}

// mergeCells adds up the cells of one terminal in one sub-trace (several
// stacks may make one terminal): its calls and distinct values, in order
// of first return.
func mergeCells(cells []*cell) (int, []ValueCount) {
	calls := 0
	var vals []firstValue
	index := map[string]int{}
	for _, c := range cells {
		calls += c.calls
		if len(cells) == 1 {
			vals = c.values
			break
		}
		for _, v := range c.values {
			if i, ok := index[v.value]; ok {
				vals[i].count += v.count
				vals[i].first = min(vals[i].first, v.first)
				continue
			}
			index[v.value] = len(vals)
			vals = append(vals, v)
		}
	}
	if len(cells) > 1 {
		sort.SliceStable(vals, func(i, j int) bool { return vals[i].first < vals[j].first })
	}
	out := make([]ValueCount, len(vals))
	for i, v := range vals {
		out[i] = ValueCount{Value: v.value, Count: v.count}
	}
	return calls, out
}

// allValues merges a terminal's values over its sub-traces, in order of
// first return, and counts its calls.
func allValues(bySub [][]ValueCount) ([]ValueCount, int) {
	var all []ValueCount
	index := map[string]int{}
	total := 0
	for _, vs := range bySub {
		for _, v := range vs {
			total += v.Count
			if i, ok := index[v.Value]; ok {
				all[i].Count += v.Count
				continue
			}
			index[v.Value] = len(all)
			all = append(all, v)
		}
	}
	return all, total
}

// group returns the part's events of the goroutine group key (nil: none).
func (p *Part) group(key string) *partGroup {
	if i, ok := p.groupOf[key]; ok {
		return p.groups[i]
	}
	return nil
}

// terminalKey identifies a terminal: its getter and its frames.
func terminalKey(getter uint32, fs []logrt.Frame) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\x00", getter)
	for _, f := range fs {
		fmt.Fprintf(&b, "%s\x00%s\x00%d\x00", f.Func, f.File, f.Line)
	}
	return b.String()
}
