package prioritize

import (
	"math"
	"regexp"
	"time"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// A Part is the summary of one trace in the making. It takes the trace's
// events and marks one at a time, in recording order, as
// tracefile.DecodeFunc hands them out (Add), and keeps only what a summary
// needs: for each call stack and segment of the trace the number of calls
// and the distinct values returned, and for each goroutine group the
// sequence of call stacks of each segment, which the grammar compresses
// (4 bytes an event; none with Options.NoGrammar, which keeps only the
// call stacks of each segment in order of first event). Finish compresses each of those sequences on its
// own (grammar.Compress), the costly half of the grammar, so that the
// parts of several traces are built independently, in parallel if the
// caller likes, and Merge, which makes the summary of them all, has only
// to rename and add up.
//
// A segment is the span between two sub-trace boundaries of the split:
// segment 0 precedes the first boundary (with marks, the start-up before
// the first mark), segment k follows the k'th. Which segments become
// sub-traces is decided by Merge, which sees every trace: without -split,
// a trace is split on marks if any trace has one.
type Part struct {
	opt     *compiled
	seg     segmenter
	trace   *tracefile.Trace // header, getters and stacks; set by Finish
	protos  []proto
	byStack []int32            // stack id -> index in protos + 1 of the last proto of that stack, chained by proto.next
	other   map[protoKey]int32 // the protos of stack ids too large for byStack
	groups  []*partGroup
	groupOf map[string]int32
	left    map[string]bool // entries -goroutines did not select (the first few)
	events  int             // events added, selected or not
	ended   int64           // the time of the trace's last end mark (main returned), 0: none
	segEnd  map[int32]int64 // by segment, the time of its last end mark (a test's span ended)

	// Set by Finish: the part's terminals, its protos by getter and
	// frames (cut to -frames), as Merge makes them terminals.
	termOf    []int32   // proto -> terminal
	termKeys  []hashKey // terminal -> terminalKey
	termProto []int32   // terminal -> its first proto
	// termStacks are each terminal's stack (its first proto's), until
	// Merge has made it a terminal of the summary: a reader may drop the
	// trace's stacks once the part is finished.
	termStacks []tracefile.Stack
}

// A proto is one (stack, getter, goroutine) of a trace: a terminal once
// Merge has looked up its frames. (In a decoded trace the stack decides
// the goroutine group; a trace built in memory may say otherwise.)
type proto struct {
	protoKey
	group int32  // index in Part.groups; -1: not a selected goroutine
	next  int32  // the index + 1 of the next proto of the same stack (byStack's chain); 0: none
	cells []cell // one per segment with calls, in segment order
}

type protoKey struct {
	stack, getter uint32
	entry         string
}

// A cell holds a proto's calls in one segment.
type cell struct {
	seg    int32
	calls  int
	index  map[string]int32 // value -> index in values, past cellScan values
	values []firstValue     // in order of first return, at most maxCellValues
	unkept int              // calls that returned a value past those kept
}

type firstValue struct {
	value string
	count int
	first int // the part's event number of its first return in the segment
}

// A partGroup is one goroutine group's events in a trace, by segment.
type partGroup struct {
	key  string
	segs []segData
}

type segData struct {
	span SubTrace // events, start and end (the label is Merge's)
	seq  []int32  // the protos of the events, in order (-k: k more of the one before, grammar.Compress), until Finish (none with NoGrammar)
	news []int32  // the protos of the events, in order of first event, until Finish
	// Set by Finish, for a segment that may be a kept sub-trace:
	done   bool           // Finish looked at it
	chunk  *grammar.Chunk // seq compressed, in the part's terminals (nil with NoGrammar)
	firsts []int32        // the terminals of the events, in order of first event
}

// compiled are checked Options.
type compiled struct {
	opt  Options
	sel  *regexp.Regexp // Goroutines as a regexp; nil for each and all
	each bool           // one group per entry function
	run  *runFilter
}

func compileOptions(opt Options) (*compiled, error) {
	c := &compiled{opt: opt}
	if _, err := newSegmenter(opt.Split, nil); err != nil {
		return nil, err
	}
	switch opt.Goroutines {
	case "", "each":
		c.each = true
	case "all":
	default:
		sel, err := regexp.Compile(opt.Goroutines)
		if err != nil {
			return nil, optionError("Goroutines", "%q: %w", opt.Goroutines, err)
		}
		c.sel = sel
	}
	run, err := compileRun(opt.Run)
	if err != nil {
		return nil, err
	}
	c.run = run
	return c, nil
}

// CheckOptions reports options that no trace allows (a -split, -goroutines
// or -run that does not parse), without a trace.
func CheckOptions(opt Options) error {
	_, err := compileOptions(opt)
	return err
}

// NewPart starts the part of one trace. getters is the trace's getter
// table, needed before the events only by -split at=GETTER (see
// NeedsGetters); nil will do otherwise.
func NewPart(opt Options, getters []tracefile.Getter) (*Part, error) {
	c, err := compileOptions(opt)
	if err != nil {
		return nil, err
	}
	seg, err := newSegmenter(opt.Split, getters)
	if err != nil {
		return nil, err
	}
	return &Part{opt: c, seg: *seg, groupOf: map[string]int32{}}, nil
}

// UseGetters gives the part the trace's getter table as decoded so far
// (tracefile.File.DecodeTraceFunc), for -split at=GETTER: it must hold
// the getter of every event added after it.
func (p *Part) UseGetters(getters []tracefile.Getter) { p.seg.getters = getters }

// NeedsGetters reports whether NewPart needs the trace's getter table
// before its events: for -split at=GETTER, whose boundaries are calls of
// a getter named in the table. A streaming reader gives the part the
// table as it is decoded instead (UseGetters).
func NeedsGetters(opt Options) bool { return splitKindOf(opt.Split) == splitAt }

// Events returns the number of events added so far.
func (p *Part) Events() int { return p.events }

// Add takes the trace's next event or mark (exactly one is not nil); its
// signature is tracefile.DecodeFunc's callback's. It keeps neither pointer.
func (p *Part) Add(ev *tracefile.Event, mk *tracefile.Marker) error {
	if mk != nil {
		switch {
		case mk.Kind != tracefile.KindEnd:
		case mk.Label != tracefmt.EndSpan: // main's (tracefmt.EndMain)
			p.ended = mk.Time
		case len(p.seg.pending) == 0: // a span's end: of the segment of the events before it
			if p.segEnd == nil {
				p.segEnd = map[int32]int64{}
			}
			p.segEnd[int32(len(p.seg.labels))] = mk.Time
		}
		p.seg.mark(mk)
		return nil
	}
	p.events++
	pi := p.protoOf(ev)
	pr := &p.protos[pi]
	if pr.group < 0 {
		return nil
	}
	seg := p.seg.event(ev)
	g := p.groups[pr.group]
	for int(seg) >= len(g.segs) {
		g.segs = append(g.segs, segData{span: SubTrace{Start: -1}})
	}
	sd := &g.segs[seg]
	sd.span.add(ev.Time)
	if !p.opt.opt.NoGrammar {
		sd.repeat(pi)
	}
	if pr.count(seg, ev.Value, p.events) {
		sd.news = append(sd.news, pi)
	}
	return nil
}

// repeat appends proto pi's event to the segment's sequence: a loop's
// turns, one event each, take two entries, pi and -k for k more of it
// (grammar.Compress reads them so), not one an event.
func (sd *segData) repeat(pi int32) {
	n := len(sd.seq)
	switch {
	case n >= 2 && sd.seq[n-1] < 0 && sd.seq[n-1] > math.MinInt32 && sd.seq[n-2] == pi:
		sd.seq[n-1]--
	case n >= 1 && sd.seq[n-1] == pi:
		sd.seq = append(sd.seq, -1)
	default:
		sd.seq = append(sd.seq, pi)
	}
}

// Finish records the decoded trace (its header, getters and stacks; its
// events, if it holds them, are not looked at) after its last Add, and
// compresses the part's sequences of stacks (see compress). The values'
// indexes are dropped: Merge needs only the values. The part keeps the
// frames of the stacks its terminals have until it is merged, and no
// stack of the trace after that: a reader may drop tr.Stacks once
// Finish returns.
func (p *Part) Finish(tr *tracefile.Trace) {
	p.trace = tr
	for i := range p.protos {
		for k := range p.protos[i].cells {
			p.protos[i].cells[k].index = nil
		}
	}
	p.numberTerminals()
	p.compress()
}

// numberTerminals makes the part's protos terminals: one per getter and
// (cut) stack as the terminal shows them (terminalKey), numbered in proto
// order.
func (p *Part) numberTerminals() {
	p.termOf = make([]int32, len(p.protos))
	index := map[hashKey]int32{}
	for pi := range p.protos {
		pr := &p.protos[pi]
		g, _ := p.trace.GetterOf(pr.getter)
		st := stackOf(p.trace, pr.stack)
		fs := cutTo(st.Frames, p.opt.opt.Frames)
		key := terminalKey(g, pr.getter, fs)
		t, ok := index[key]
		if !ok {
			t = int32(len(p.termKeys))
			index[key] = t
			p.termKeys = append(p.termKeys, key)
			p.termProto = append(p.termProto, int32(pi))
			p.termStacks = append(p.termStacks, st)
		}
		p.termOf[pi] = t
	}
}

// compress notes, for each segment that may be a kept sub-trace, which
// terminals it has in order of first event, and turns its sequence into
// a grammar chunk of the part's terminals (unless NoGrammar); it drops
// the sequences.
func (p *Part) compress() {
	stamp := make([]int32, len(p.termKeys)) // last segment (+1) a terminal was seen in
	n := int32(0)
	for _, g := range p.groups {
		for seg := range g.segs {
			sd := &g.segs[seg]
			if sd.span.Events > 0 && p.mayKeep(int32(seg)) {
				n++
				// A terminal's first event is its first proto's.
				for _, pi := range sd.news {
					if t := p.termOf[pi]; stamp[t] != n {
						stamp[t] = n
						sd.firsts = append(sd.firsts, t)
					}
				}
				for j, pi := range sd.seq {
					if pi >= 0 {
						sd.seq[j] = p.termOf[pi]
					}
				}
				if seq := sd.seq; !p.opt.opt.NoGrammar {
					sd.seq = nil // Compress lets go of it once it has its runs
					sd.chunk = grammar.Compress(seq, grammar.Options{})
				}
				sd.done = true
			}
			sd.seq, sd.news = nil, nil
		}
	}
}

// mayKeep reports whether segment seg may be a sub-trace Merge keeps,
// whatever the other traces hold (see segmenter.subTraces): with -split
// none the whole trace; by default the whole trace if it has no mark;
// else a segment after a boundary, when -run matches its label.
func (p *Part) mayKeep(seg int32) bool {
	switch {
	case p.seg.kind == splitNone:
		return true
	case seg == 0:
		return p.seg.kind == splitDefault && !p.seg.sawMark
	}
	return p.opt.run.match(p.seg.labels[seg-1])
}

// Start returns the start time of the finished trace.
func (p *Part) Start() time.Time { return p.trace.Start }

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

// protoOf returns the index of the event's (stack, getter) pair, adding
// it on its first event. The pairs of a stack id are chained from
// byStack: a -reads trace's stack is a line, and one line reads several
// fields (Hugo's per-byte loop: 38 M of 96 M events went to the map).
func (p *Part) protoOf(ev *tracefile.Event) int32 {
	if int(ev.Stack) < len(p.byStack) {
		for i := p.byStack[ev.Stack] - 1; i >= 0; i = p.protos[i].next - 1 {
			if p.protos[i].getter == ev.Getter && p.protos[i].entry == ev.Entry {
				return i
			}
		}
	}
	key := protoKey{ev.Stack, ev.Getter, ev.Entry}
	if ev.Stack >= 1<<24 { // a stack id of a decoded trace is at most its number of stacks
		if i, ok := p.other[key]; ok {
			return i
		}
	}
	i := int32(len(p.protos))
	p.protos = append(p.protos, proto{protoKey: key, group: p.groupIndex(ev.Entry)})
	if ev.Stack < 1<<24 {
		for int(ev.Stack) >= len(p.byStack) {
			p.byStack = append(p.byStack, 0)
		}
		p.protos[i].next = p.byStack[ev.Stack]
		p.byStack[ev.Stack] = i + 1
		return i
	}
	if p.other == nil {
		p.other = map[protoKey]int32{}
	}
	p.other[key] = i
	return i
}

// maxLeftNames bounds the entries a Part keeps of the goroutines that
// -goroutines left out, to name them when it selects none.
const maxLeftNames = 8

// groupIndex returns the group of a goroutine started in entry, adding
// it; -1 when -goroutines does not select it.
func (p *Part) groupIndex(entry string) int32 {
	key := "*"
	switch {
	case p.opt.sel != nil:
		if !p.opt.sel.MatchString(entry) {
			if p.left == nil {
				p.left = map[string]bool{}
			}
			if len(p.left) <= maxLeftNames { // one more, to know there are more
				p.left[entry] = true
			}
			return -1
		}
		// The groups selected are one, named by the selection
		// (-goroutines main.main reads "goroutine main.main").
		key = p.opt.sel.String()
	case p.opt.each:
		key = entry
	}
	if i, ok := p.groupOf[key]; ok {
		return i
	}
	i := int32(len(p.groups))
	p.groups = append(p.groups, &partGroup{key: key})
	p.groupOf[key] = i
	return i
}

// count records one more return of v in segment seg; n numbers the
// event within the part. It reports whether the event is the proto's
// first in the segment (segments come in order).
func (pr *proto) count(seg int32, v string, n int) (first bool) {
	if k := len(pr.cells); k == 0 || pr.cells[k-1].seg != seg {
		pr.cells = append(pr.cells, cell{seg: seg})
		first = true
	}
	c := &pr.cells[len(pr.cells)-1]
	c.calls++
	if i, ok := c.find(v); ok {
		c.values[i].count++
		return first
	}
	if len(c.values) == maxCellValues {
		c.unkept++
		return first
	}
	if c.index != nil {
		c.index[v] = int32(len(c.values))
	}
	c.values = append(c.values, firstValue{value: v, count: 1, first: n})
	if len(c.values) == cellScan+1 {
		c.index = make(map[string]int32, 2*cellScan)
		for i, fv := range c.values {
			c.index[fv.value] = int32(i)
		}
	}
	return first
}

// maxCellValues is the number of distinct values a cell keeps (a call
// site's in one segment of a trace): the calls after it has that many
// are counted, and their values are kept only if they are among those.
// Values are what is not bounded by the program's code: a -reads trace
// of a lexer returns a new position at nearly every read (tomlv, 129 M
// reads: 22 M distinct values, and 4.9 GB of memory to summarize).
const maxCellValues = 1024

// cellScan is the number of values a cell looks through before it
// indexes them: most of a -reads trace's cells (hundreds of thousands)
// hold one to a few values, for which a map took more memory than the
// rest of the cell. A comparator under sort.Stable's recursion has a
// stack per merge, each reading a dozen or two distinct keys: 32, not 8,
// took a summary of such a trace (160,000 items) from 1.20-1.38 GB to
// 1.04-1.07 GB, and Hugo's four-size session stayed as it was.
const cellScan = 32

// find returns the index of value v in the cell's values.
func (c *cell) find(v string) (int32, bool) {
	if c.index != nil {
		i, ok := c.index[v]
		return i, ok
	}
	for i := range c.values {
		if c.values[i].value == v {
			return int32(i), true
		}
	}
	return 0, false
}
