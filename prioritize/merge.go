package prioritize

import (
	"fmt"
	"sort"
	"strings"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// Build summarizes the traces, which are taken in order of start time.
// The traces are held in memory; a reader of big traces builds a Part of
// each while decoding it and merges them instead, with the same result.
func Build(traces []*tracefile.Trace, opt Options) (*Summary, error) {
	if len(traces) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	parts := make([]*Part, len(traces))
	for i, tr := range traces {
		p, err := NewPart(opt, tr.Getters)
		if err != nil {
			return nil, err
		}
		eachRecord(tr, func(_ int, ev *tracefile.Event, mk *tracefile.Marker) { p.Add(ev, mk) })
		p.Finish(tr)
		parts[i] = p
	}
	return Merge(parts, opt)
}

// Merge summarizes finished parts (see Part), taken in order of their
// traces' start times; opt must be the options the parts were made with.
func Merge(parts []*Part, opt Options) (*Summary, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	parts = append([]*Part(nil), parts...) // the caller's order stays
	sort.SliceStable(parts, func(i, j int) bool { return parts[i].trace.Start.Before(parts[j].trace.Start) })
	headers := make([]*tracefile.Trace, len(parts))
	for i, p := range parts {
		headers[i] = p.trace
	}
	m, err := NewMergerOf(opt, headers)
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		m.Add(p)
	}
	return m.Summary()
}

// A Merger makes the summary of finished parts handed to it one at a
// time, in order of their traces' start times, so that a reader can merge
// each trace as soon as it is decoded while it decodes the next: a part's
// sub-traces go into its groups' grammars at once (grammar.Builder), and
// its sequences of stacks are dropped. Until the default split is known
// (marks as soon as a trace has a mark; none when no trace had one), the
// parts wait.
type Merger struct {
	c       *compiled
	split   string
	kind    splitKind
	decided bool
	pending []*Part
	traces  []*tracefile.Trace
	runs    []string // the label of each trace's sub-trace with -split none
	added   int      // parts merged (not waiting)
	labels  []string // of the kept sub-traces
	all     []SubTrace
	inSubs  int // events in any sub-trace before -run
	groups  []*mergedGroup
	byKey   map[string]*mergedGroup
	left    map[string]bool // goroutine entries -goroutines left out (some)
	ends    []int64         // of each kept sub-trace, its end mark's time (main returned, a span ended; 0: none)
}

// NewMerger starts a summary with the options the parts are made with;
// paths are the traces' files, in the order the parts will come (they
// label the sub-traces of -split none, see runLabels).
func NewMerger(opt Options, paths []string) (*Merger, error) {
	headers := make([]*tracefile.Trace, len(paths))
	for i, p := range paths {
		headers[i] = &tracefile.Trace{Path: p}
	}
	return NewMergerOf(opt, headers)
}

// NewMergerOf is NewMerger given the traces' headers (tracefile's File.Header),
// whose recorded arguments also label the runs.
func NewMergerOf(opt Options, headers []*tracefile.Trace) (*Merger, error) {
	c, err := compileOptions(opt)
	if err != nil {
		return nil, err
	}
	runs := make([]runOf, len(headers))
	for i, h := range headers {
		runs[i] = runOf{h.Path, h.Args}
	}
	m := &Merger{c: c, byKey: map[string]*mergedGroup{}, runs: runLabels(runs)}
	if opt.Split != "" {
		m.split, m.kind = chooseSplit(opt.Split, false)
		m.decided = true
	}
	return m, nil
}

// Add merges the next part. Its trace must not start before the
// previous part's.
func (m *Merger) Add(p *Part) {
	m.traces = append(m.traces, p.trace)
	if !m.decided {
		if !p.seg.sawMark {
			m.pending = append(m.pending, p)
			return
		}
		m.decide(true)
	}
	m.add(p)
}

// decide settles the default split and merges the parts that waited.
func (m *Merger) decide(sawMark bool) {
	m.split, m.kind = chooseSplit("", sawMark)
	m.decided = true
	for i, p := range m.pending {
		m.add(p)
		m.pending[i] = nil // its stacks and counts go once merged
	}
	m.pending = nil
}

func (m *Merger) add(p *Part) {
	for e := range p.left {
		if m.left == nil {
			m.left = map[string]bool{}
		}
		m.left[e] = true
	}
	run := p.trace.Path // a part beyond the paths given
	if m.added < len(m.runs) {
		run = m.runs[m.added]
	}
	m.added++
	segs, labels := p.seg.subTraces(m.kind, run)
	kept := map[int32]int{} // segment -> number of the kept sub-trace
	var order []int32       // the kept segments, in order
	for i, seg := range segs {
		m.all = append(m.all, SubTrace{Label: labels[i]})
		for _, g := range p.groups {
			if int(seg) < len(g.segs) {
				m.inSubs += g.segs[seg].span.Events
			}
		}
		if m.c.run == nil || m.c.run.match(labels[i]) {
			kept[seg] = len(m.labels)
			order = append(order, seg)
			m.labels = append(m.labels, labels[i])
			end := int64(0)
			switch m.kind {
			case splitNone:
				end = p.ended // the whole run is the sub-trace: it ends with main
			case splitMarks:
				end = p.segEnd[seg] // a test's or benchmark run's span
			}
			m.ends = append(m.ends, end)
		}
	}
	for gi, pg := range p.groups {
		mg := m.byKey[pg.key]
		if mg == nil {
			mg = &mergedGroup{g: &Group{Goroutine: pg.key}, byKey: map[hashKey]*Terminal{},
				ids: map[*Terminal]int32{}}
			if !m.c.opt.NoGrammar {
				mg.gram = grammar.NewBuilder(grammar.Options{})
			}
			m.byKey[pg.key] = mg
			m.groups = append(m.groups, mg)
		}
		mg.add(p, int32(gi), pg, kept, order)
	}
	// The summary's terminals have what they show: the part's hold on
	// its trace's stacks ends here.
	p.termStacks = nil
}

// Summary finishes the merge.
func (m *Merger) Summary() (*Summary, error) {
	if !m.decided {
		m.decide(false)
	}
	if len(m.traces) == 0 {
		return nil, fmt.Errorf("no trace")
	}
	if err := checkAt(m.split, m.traces...); err != nil {
		return nil, err
	}
	if m.c.sel != nil && len(m.groups) == 0 {
		return nil, noGoroutineMatch(m.c.opt.Goroutines, m.left)
	}
	if m.c.run != nil && len(m.labels) == 0 && m.inSubs > 0 {
		return nil, noRunMatch(m.c.opt.Run, m.all)
	}
	s := &Summary{Version: SchemaVersion, Split: m.split, Run: m.c.opt.Run, ends: m.ends}
	for _, tr := range m.traces {
		s.Traces = append(s.Traces, tr.Path)
	}
	for _, mg := range m.groups {
		if mg.g.Events > 0 {
			s.Groups = append(s.Groups, mg.finish(m.labels, m.c.opt))
		}
	}
	sort.SliceStable(s.Groups, func(i, j int) bool { return s.Groups[i].Events > s.Groups[j].Events })
	var err error
	if s.Findings, err = buildFindings(s, m.c.opt); err != nil {
		return nil, err
	}
	return s, nil
}

// A mergedGroup is one goroutine group of the summary in the making.
type mergedGroup struct {
	g     *Group
	byKey map[hashKey]*Terminal // by terminalKey
	ids   map[*Terminal]int32   // index in g.Terminals
	spans map[int]SubTrace      // the group's events in each kept sub-trace
	gram  *grammar.Builder      // nil with NoGrammar
	index []int32               // the kept sub-trace of each sub-trace the grammar has
	// cells holds each terminal's counts in the sub-traces it occurs in,
	// by terminal id, until finish spreads them over all the sub-traces
	// once (growing PerSub and BySub cell by cell cost gigabytes with
	// tens of thousands of sub-traces).
	cells [][]SubCount
}

// add merges the group's events of part p (pg, the part's group gi):
// the part's terminals in the kept segments are numbered in the group in
// order of first event, and their chunks go to the grammar renamed; the
// others count as left.
func (mg *mergedGroup) add(p *Part, gi int32, pg *partGroup, kept map[int32]int, order []int32) {
	if mg.spans == nil {
		mg.spans = map[int]SubTrace{}
	}
	for seg := range pg.segs {
		if _, ok := kept[int32(seg)]; !ok {
			mg.g.Left += pg.segs[seg].span.Events
		}
	}
	terms := make([]*Terminal, len(p.termKeys)) // the part's terminal -> the group's
	ids := make([]int32, len(p.termKeys))       // ... and its number
	for _, seg := range order {
		if int(seg) >= len(pg.segs) || pg.segs[seg].span.Events == 0 {
			continue
		}
		sd := &pg.segs[seg]
		if !sd.done {
			panic(fmt.Sprintf("prioritize: segment %d of %s kept but not compressed (Part.mayKeep)", seg, p.trace.Path))
		}
		i := kept[seg]
		mg.g.Events += sd.span.Events
		mg.spans[i] = sd.span
		for _, t := range sd.firsts {
			if terms[t] == nil {
				terms[t] = mg.terminal(p, t)
			}
			ids[t] = mg.id(terms[t])
		}
		if mg.gram != nil {
			mg.gram.AddChunk(sd.chunk, ids)
			mg.index = append(mg.index, int32(i))
		}
		sd.chunk = nil // the grammar has it
	}
	mg.counts(p, gi, terms, kept)
}

// id returns the terminal's number, numbering it on its first event.
func (mg *mergedGroup) id(t *Terminal) int32 {
	id, ok := mg.ids[t]
	if !ok {
		id = int32(len(mg.g.Terminals))
		mg.ids[t] = id
		t.Letter = letter(int(id))
		mg.g.Terminals = append(mg.g.Terminals, t)
	}
	return id
}

// terminal returns the group's terminal of part p's terminal pt.
func (mg *mergedGroup) terminal(p *Part, pt int32) *Terminal {
	key := p.termKeys[pt]
	if t, ok := mg.byKey[key]; ok {
		return t
	}
	pr := &p.protos[p.termProto[pt]]
	st := &p.termStacks[pt]
	fs := cutTo(st.Frames, p.opt.opt.Frames)
	gt, _ := p.trace.GetterOf(pr.getter)
	name := gt.Name()
	if gt.ID == 0 {
		// Not in the getter table (a damaged or hand-made trace): name
		// it by its function, or by its id when the stack is empty too.
		name = fmt.Sprintf("getter %d", pr.getter)
		if len(fs) > 0 {
			name = shortFunc(fs[0].Func)
		}
	}
	t := &Terminal{Name: name, Getter: gt, Frames: stackFrames(gt, st, fs), Cut: st.Truncated && len(fs) == len(st.Frames)}
	mg.byKey[key] = t
	return t
}

// recorderFrame names the first frame of a field read or a chosen call
// after the event, not after suncat's runtime function that recorded it
// (suncatrt.ReadSlice[...], in a file of the overlay that the user's tree
// does not hold): the field or function's name, at the line of the read
// or call (the next frame's, or for a read of a trace of version 6 or later, which
// has no recorder's frame, the first's). A call hooked in the standard library starts
// at the hooked method (suncat's hook, the frame above it, is left out);
// getters keep their frames.
func recorderFrame(g tracefile.Getter, fs []tracefile.Frame) []tracefile.Frame {
	return stackFrames(g, nil, fs)
}

// stackFrames is recorderFrame of fs, the first frames of stack st (nil:
// not known), whose room before its frames it takes for the read's frame
// where it can (Stack.WithFirst) rather than copy them.
func stackFrames(g tracefile.Getter, st *tracefile.Stack, fs []tracefile.Frame) []tracefile.Frame {
	first, renamed, rest := shownFrames(g, fs)
	if !renamed {
		return rest
	}
	if st != nil && len(rest) > 0 && len(st.Frames) > 0 && &rest[0] == &st.Frames[0] {
		return st.WithFirst(first, len(rest))
	}
	return append(append(make([]tracefile.Frame, 0, 1+len(rest)), first), rest...)
}

// shownFrames returns the frames recorderFrame makes of fs without
// copying them: first when renamed (the read's or call's own frame),
// then rest (a part of fs).
func shownFrames(g tracefile.Getter, fs []tracefile.Frame) (first tracefile.Frame, renamed bool, rest []tracefile.Frame) {
	if hookedCall(g) && len(fs) >= 2 && isHookFrame(fs[0]) {
		// suncatCall, in the file suncat adds to database/sql or net/http:
		// the hooked method itself, the next frame, is the call's.
		return first, false, fs[1:]
	}
	switch {
	case g.EventKind() == tracefmt.KindGetter || len(fs) == 0:
		return first, false, fs
	case isRuntimeFrame(fs[0]):
		if len(fs) < 2 {
			return first, false, fs
		}
		fs = fs[1:]
	case g.EventKind() != tracefmt.KindRead:
		return first, false, fs
	}
	// A read's stack starts at the reading function (the recorder's frame
	// is not recorded since trace format 6); a call's, and a read's in
	// older traces, at the recorder's, left out here.
	return tracefile.Frame{Func: g.Package + "." + g.Name(), File: fs[0].File, Line: fs[0].Line}, true, fs
}

// isHookFrame reports whether f is suncat's hook in a package of the
// standard library (suncatCall, see instrument/stdhook.go), which the
// program does not have.
func isHookFrame(f tracefile.Frame) bool {
	return f.Func == "database/sql.suncatCall" || f.Func == "net/http.suncatCall"
}

// isRuntimeFrame reports whether f is in suncat's runtime, compiled into
// the program as the package suncatrt of its module (tracefmt.RuntimeDir).
func isRuntimeFrame(f tracefile.Frame) bool {
	fn := f.Func
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		fn = fn[i+1:]
	}
	return strings.HasPrefix(fn, tracefmt.RuntimeDir+".")
}

// stackOf returns a trace's stack, or an empty one if it has none of
// that id.
func stackOf(tr *tracefile.Trace, stack uint32) tracefile.Stack {
	if st := tr.StackOf(stack); st != nil {
		return *st
	}
	return tracefile.Stack{}
}

// cutTo returns the first frames of fs, all of them if frames <= 0.
func cutTo(fs []tracefile.Frame, frames int) []tracefile.Frame {
	if frames > 0 && len(fs) > frames {
		fs = fs[:frames]
	}
	return fs
}

// counts gives the terminals of part p's group gi their calls and values
// in each kept sub-trace of the part; terms are the group's terminals of
// the part's terminals (nil: not in a kept sub-trace).
func (mg *mergedGroup) counts(p *Part, gi int32, terms []*Terminal, kept map[int32]int) {
	type contrib struct {
		t   *Terminal
		sub int
		c   *cell
	}
	var cs []contrib
	for pi := range p.protos {
		pr := &p.protos[pi]
		t := terms[p.termOf[pi]]
		if pr.group != gi || t == nil {
			continue
		}
		for k := range pr.cells {
			if i, ok := kept[pr.cells[k].seg]; ok {
				cs = append(cs, contrib{t, i, &pr.cells[k]})
			}
		}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].t != cs[b].t {
			return mg.ids[cs[a].t] < mg.ids[cs[b].t]
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
		id := mg.ids[cs[a].t]
		for len(mg.cells) <= int(id) {
			mg.cells = append(mg.cells, nil)
		}
		calls, vals, unkept := mergeCells(cells)
		mg.cells[id] = append(mg.cells[id], SubCount{Sub: cs[a].sub, Calls: calls, Values: vals, Unkept: unkept})
		a = b
	}
}

// finish completes the group over all the kept sub-traces: their spans,
// every terminal's counts in each and in all, the grammar and the
// patterns (as opt asks: none with NoGrammar).
func (mg *mergedGroup) finish(labels []string, opt Options) *Group {
	g := mg.g
	g.SubTraces = make([]SubTrace, len(labels))
	for i, l := range labels {
		g.SubTraces[i] = SubTrace{Label: l, Start: -1}
		if sp, ok := mg.spans[i]; ok {
			g.SubTraces[i].Events, g.SubTraces[i].Start, g.SubTraces[i].End = sp.Events, sp.Start, sp.End
		}
	}
	names := make([]string, len(g.Terminals))
	for i, t := range g.Terminals {
		names[i] = t.Letter
		mg.spread(t, i, len(labels))
		t.Values, t.Total, t.Unkept = allValues(t.subs)
	}
	if mg.gram == nil {
		return g
	}
	g.Grammar = mg.gram.Grammar(names)
	// The grammar numbers only the sub-traces it was given; map its
	// observations back to the group's sub-trace numbers.
	renumber(g.Grammar, mg.index)
	g.setPatterns(opt)
	g.cutGrammar(opt)
	return g
}

// spread gives terminal t (id i) its calls and values in the sub-traces
// it occurs in, of n, from the cells merged (by sub-trace; of two cells
// of one sub-trace, the later).
func (mg *mergedGroup) spread(t *Terminal, i, n int) {
	if i >= len(mg.cells) {
		t.SetSubs(n, nil)
		return
	}
	cs := mg.cells[i]
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].Sub < cs[b].Sub })
	k := 0
	for j := range cs {
		if k > 0 && cs[k-1].Sub == cs[j].Sub {
			k--
		}
		cs[k] = cs[j]
		k++
	}
	t.SetSubs(n, cs[:k:k])
	mg.cells[i] = nil
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

// mergeCells adds up the cells of one terminal in one sub-trace (several
// stacks may make one terminal): its calls and distinct values, in order
// of first return, and the calls whose values were not kept.
func mergeCells(cells []*cell) (int, []ValueCount, int) {
	calls, unkept := 0, 0
	var vals []firstValue
	index := map[string]int{}
	for _, c := range cells {
		calls += c.calls
		unkept += c.unkept
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
	return calls, out, unkept
}

// allValues merges a terminal's values over its sub-traces, in order of
// first return, and counts its calls and those whose values were not
// kept.
func allValues(subs []SubCount) (all []ValueCount, total, unkept int) {
	index := map[string]int{}
	for _, c := range subs {
		total += c.Calls
		unkept += c.Unkept
		for _, v := range c.Values {
			if i, ok := index[v.Value]; ok {
				all[i].Count += v.Count
				continue
			}
			index[v.Value] = len(all)
			all = append(all, v)
		}
	}
	return all, total, unkept
}

// group returns the part's events of the goroutine group key (nil: none).
func (p *Part) group(key string) *partGroup {
	if i, ok := p.groupOf[key]; ok {
		return p.groups[i]
	}
	return nil
}

// noGoroutineMatch is the error for a -goroutines regexp that selects no
// goroutine: it names the entry functions of the goroutines there are
// (some of them, sorted).
func noGoroutineMatch(pattern string, left map[string]bool) error {
	names := make([]string, 0, len(left))
	for e := range left {
		names = append(names, e)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return optionError("Goroutines", "%q matches no goroutine (the traces have no event)", pattern)
	}
	more := ""
	if len(names) > maxLeftNames {
		names, more = names[:maxLeftNames], ", ..."
	}
	return optionError("Goroutines", "%q matches no goroutine; goroutines start in: %s%s", pattern, strings.Join(names, ", "), more)
}
