package grammar

import (
	"bufio"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A Trace is the input of the compression: terminal names and sub-traces
// of terminal ids (indexes into Names).
type Trace struct {
	Names []string
	Subs  [][]int32
}

// Options select the engine and the variant of the compression.
type Options struct {
	// Lossless makes repetition counts part of equality, as in the
	// lossless algorithm the paper compares against: a^3 b a^4 b does not
	// merge.
	Lossless bool
	// Reference uses the line-by-line transcription of the specification
	// instead of the fast engine. Same result, much slower.
	Reference bool
}

// A Sym is a grammar symbol: a terminal id (>= 0) or a nonterminal,
// encoded as -(index into Grammar.Rules)-1.
type Sym int32

// IsTerminal reports whether s is a terminal.
func (s Sym) IsTerminal() bool { return s >= 0 }

// Terminal returns the terminal id of s; s must be a terminal.
func (s Sym) Terminal() int { return int(s) }

// Rule returns the index in Grammar.Rules of nonterminal s.
func (s Sym) Rule() int { return int(-s) - 1 }

func ruleSym(i int) Sym { return Sym(-i - 1) }

// An Obs is one observation behind a repetition count: in sub-trace Sub
// (-1 for counts formed across sub-traces) the symbol repeated Count times
// in a row, and this was seen Times times in succession.
type Obs struct {
	Sub   int32
	Count int32
	Times int32
}

// An RP is a repetition pattern: a symbol with its distinct counts, in
// order of first appearance, and the observations behind them.
type RP struct {
	Sym Sym
	// MoreObs is how many observations Cut left out after Obs.
	MoreObs int32
	Counts  []int
	Obs     []Obs
}

// A Rule is a nonterminal with its right-hand side.
type Rule struct {
	Name string
	Body []RP
	More int // how many items Cut left out after Body
}

// A Grammar is the result of the compression. Rules are in canonical
// order: breadth-first by first reference from S.
type Grammar struct {
	Terminals  []string
	SubTraces  int  // number of non-empty sub-traces
	Comparison bool // Comparison Mode: one nonterminal per sub-trace
	Lossless   bool
	Start      []RP
	StartMore  int // how many items of S Cut left out after Start
	Rules      []Rule
}

// Build compresses t.
func Build(t *Trace, opt Options) *Grammar {
	b := NewBuilder(opt)
	for _, s := range t.Subs {
		b.Add(s)
	}
	return b.Grammar(t.Names)
}

// A Builder compresses a trace one sub-trace at a time, as Build does
// with the whole trace, so that a reader can hand each sub-trace over as
// soon as it has it and need not keep it: the Builder keeps the rules and
// the compressed lists.
//
// The compression of a sub-trace depends on the sub-traces before it only
// through the names of the rules they made: which windows merge, and so
// which rules the sub-trace makes and what they observe, depends on its
// own symbols alone. So a sub-trace can be compressed on its own, on any
// goroutine (Compress), and the Builder then only renames the rules of
// the Chunk into its own and appends their observations (AddChunk), in
// the order of the sub-traces. Add does both.
type Builder struct {
	opt        Options
	rs         *ruleSet
	first      *Chunk  // the first non-empty sub-trace, until a second comes
	firstTerms []int32 // its terminals' renaming
	items      []elem  // one per non-empty sub-trace once there are two
}

// NewBuilder returns a Builder with the engine and variant of opt.
func NewBuilder(opt Options) *Builder {
	return &Builder{opt: opt, rs: newRuleSet(opt.Lossless)}
}

// Add compresses the next sub-trace (an empty one is skipped, as Build
// skips it). The Builder does not keep s.
func (b *Builder) Add(s []int32) {
	b.AddChunk(Compress(s, b.opt), nil)
}

// AddChunk adds the next sub-trace, compressed by Compress with the
// Builder's options. terms renames the chunk's terminals: terminal t of
// the chunk is terms[t] in the Builder's trace (nil: the same). Two
// terminals of the chunk must not get the same name.
func (b *Builder) AddChunk(c *Chunk, terms []int32) {
	if c.events == 0 {
		return
	}
	if b.items == nil && b.first == nil {
		// A trace of one sub-trace is compressed differently (no
		// Comparison Mode): wait for a second one.
		b.first, b.firstTerms = c, terms
		return
	}
	if b.first != nil {
		b.sub(b.first, b.firstTerms)
		b.first, b.firstTerms = nil, nil
	}
	b.sub(c, terms)
}

// sub absorbs the next non-empty sub-trace into its nonterminal.
func (b *Builder) sub(c *Chunk, terms []int32) {
	i := len(b.items)
	l := b.rs.replay(c, terms, i)
	r := b.rs.absorb(l, i)
	b.items = append(b.items, elem{sym: r, cnt: 1})
}

// Grammar finishes the compression; names are the terminals' names. The
// Builder must not be used after.
func (b *Builder) Grammar(names []string) *Grammar {
	if b.items == nil {
		var start []elem
		subs := 0
		if b.first != nil {
			start, subs = b.rs.replay(b.first, b.firstTerms, 0), 1
		}
		return b.rs.grammar(names, start, subs, false)
	}
	start := b.rs.compute(-1, b.items, b.opt)
	return b.rs.grammar(names, start, len(b.items), true)
}

// A Chunk is one sub-trace compressed on its own: the rules it made, in
// the order it made them, with the observations of its windows (tagged
// sub-trace 0), and its compressed list.
type Chunk struct {
	events int // the sub-trace's length
	rules  []irule
	list   []elem
}

// Compress compresses one sub-trace of terminal ids on its own, for
// Builder.AddChunk. It shares nothing, so several sub-traces can be
// compressed at once. It does not keep s, and holds it only until it has
// its runs (freshInto): a caller that keeps no reference of its own lets
// the collector free it while the engine runs. A negative entry -k of s
// stands for k more of the terminal before it: a caller may keep a run
// of one terminal (a loop's turns) in two entries, not one an event.
func Compress(s []int32, opt Options) *Chunk {
	rs := newRuleSet(opt.Lossless)
	if opt.Reference {
		l := fresh(s)
		return &Chunk{events: elemEvents(l), rules: rs.rules, list: computeReference(rs, 0, l)}
	}
	c := &Chunk{events: seqEvents(s)}
	rs.withFast(func(l *fastList) {
		l.fresh = freshInto(l.fresh, s)
		s = nil // the engine works on the runs: the events may go, if the caller let them go too
		c.list = slices.Clone(computeFast(rs, 0, l.fresh))
	})
	c.rules = rs.rules
	return c
}

// compute runs the engine of opt on the list x of sub-trace sub.
func (rs *ruleSet) compute(sub int, x []elem, opt Options) []elem {
	if opt.Reference {
		return computeReference(rs, sub, x)
	}
	rs.withFast(func(*fastList) { x = computeFast(rs, sub, x) })
	return x
}

// withFast calls f with the fast engine's arrays of a previous
// compression, if any are left, set up for rs.
func (rs *ruleSet) withFast(f func(*fastList)) {
	l := fastLists.Get().(*fastList)
	l.rs, rs.fast = rs, l
	f(l)
	l.rs, l.e, rs.fast = nil, nil, nil
	if cap(l.prev) <= poolMax {
		fastLists.Put(l)
	}
}

// fastLists keeps the fast engine's arrays for the next compression.
var fastLists = sync.Pool{New: func() any { return new(fastList) }}

// poolMax is the most elements of the arrays fastLists keeps. A pool
// keeps what it holds for two collections, and a heap of gigabytes is
// collected seldom: the arrays of a sub-trace of 100 M events (about 18
// bytes an element) stayed live through the summary's merge that way.
const poolMax = 1 << 20

// replay makes the rules of chunk c, the i'th non-empty sub-trace, rules
// of rs, its terminals renamed by terms (nil: the same), as if rs had
// compressed the sub-trace itself, and returns the chunk's list in the
// symbols of rs. A rule rs already has (the same underlying sequence)
// takes the observations; the others are made in the chunk's order.
func (rs *ruleSet) replay(c *Chunk, terms []int32, i int) []elem {
	ids := make([]int32, len(c.rules)) // the chunk's rule -> symbol in rs
	rename := func(sym int32) int32 {
		switch {
		case sym >= ruleBase:
			return ids[sym-ruleBase]
		case terms != nil:
			return terms[sym]
		}
		return sym
	}
	var w []elem
	for r := range c.rules {
		cr := &c.rules[r]
		w = w[:0]
		for p, sym := range cr.syms {
			e := elem{sym: rename(sym), cnt: 1}
			if rs.lossless {
				e.cnt = int32(uint32(cr.keys[p])) // the key's low half
			}
			w = append(w, e)
		}
		ids[r] = rs.lookup(w)
		for p, obs := range cr.obs {
			for _, o := range obs {
				rs.observeTimes(ids[r], p, i, o.Count, o.Times)
			}
		}
	}
	l := make([]elem, len(c.list))
	for k, e := range c.list {
		l[k] = elem{sym: rename(e.sym), cnt: e.cnt}
	}
	return l
}

// freshInto returns the list of fresh RPs of s, in buf if it is large
// enough, with each run of one terminal already merged into one RP (a
// loop's read of one site, k times over, is one element, not k). The
// specification's first merges are exactly these: chains of period 1 of
// fresh RPs (every RC [1]) come first, are disjoint, make no rule and no
// observation, and leave no chain of period 1 behind; the list they
// leave is the one returned, so the engine goes on from where the
// specification would be after them. (The reference engine still takes
// the events one by one, and the tests compare the two.)
func freshInto(buf []elem, s []int32) []elem {
	n := 0 // the runs, at most: a list of hundreds of millions is not grown by doubling
	for _, x := range s {
		if x >= 0 {
			n++
		}
	}
	if cap(buf) < n {
		buf = make([]elem, 0, n)
	}
	buf = buf[:0]
	for _, x := range s {
		n := len(buf)
		switch {
		case x < 0 && n > 0 && int64(buf[n-1].cnt)-int64(x) <= math.MaxInt32:
			buf[n-1].cnt -= x // -x more of the terminal before
		case x < 0 && n > 0:
			buf = append(buf, elem{sym: buf[n-1].sym, cnt: -x})
		case x < 0:
			// a repeat with no terminal before it: nothing to repeat
		case n > 0 && buf[n-1].sym == x && buf[n-1].cnt < math.MaxInt32:
			buf[n-1].cnt++
		default:
			buf = append(buf, elem{sym: x, cnt: 1})
		}
	}
	return buf
}

// seqEvents counts the events of a sequence for Compress (a negative
// entry -k is k events).
func seqEvents(s []int32) int {
	n := 0
	for _, x := range s {
		if x < 0 {
			n -= int(x)
		} else {
			n++
		}
	}
	return n
}

// elemEvents counts the events of a list of runs.
func elemEvents(l []elem) int {
	n := 0
	for _, e := range l {
		n += int(e.cnt)
	}
	return n
}

func fresh(s []int32) []elem {
	l := make([]elem, 0, len(s))
	for _, x := range s {
		switch {
		case x >= 0:
			l = append(l, elem{sym: x, cnt: 1})
		case len(l) > 0:
			for sym := l[len(l)-1].sym; x < 0; x++ { // -x more of the terminal before
				l = append(l, elem{sym: sym, cnt: 1})
			}
		}
	}
	return l
}

// elem is an RP of a list being compressed: a symbol (terminal id, or
// ruleBase+rule index for nonterminals) and its single count. Every RP in
// a list under compression has exactly one count: a fresh terminal has 1,
// and a merge produces one count k.
type elem struct {
	sym int32
	cnt int32
}

const ruleBase = 1 << 30 // internal symbols >= ruleBase are nonterminals

// ruleSet holds the rules shared by the whole trace, keyed by their
// underlying symbol list.
type ruleSet struct {
	lossless bool
	byKey    map[uint64][]int32 // hash of und -> rule indexes
	rules    []irule
	scratch  []uint64
	fast     *fastList // the fast engine's arrays, reused across sub-traces
}

type irule struct {
	keys []uint64 // und: symbols (lossy) or symbol+count pairs (lossless)
	syms []int32
	obs  [][]Obs // per position, run-length encoded
}

func newRuleSet(lossless bool) *ruleSet {
	return &ruleSet{lossless: lossless, byKey: make(map[uint64][]int32)}
}

// key is what equality of RPs compares: the symbol alone in the lossy
// compression, the symbol and its count in the lossless one.
func (rs *ruleSet) key(e elem) uint64 {
	if rs.lossless {
		return uint64(uint32(e.sym))<<32 | uint64(uint32(e.cnt))
	}
	return uint64(uint32(e.sym))
}

func hashKeys(keys []uint64) uint64 {
	h := uint64(14695981039346656037)
	for _, k := range keys {
		h ^= k
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// lookup returns the nonterminal symbol for the underlying sequence of
// window (creating the rule if it is new).
func (rs *ruleSet) lookup(window []elem) int32 {
	keys := rs.scratch[:0]
	for _, e := range window {
		keys = append(keys, rs.key(e))
	}
	rs.scratch = keys
	h := hashKeys(keys)
	for _, r := range rs.byKey[h] {
		if slices.Equal(rs.rules[r].keys, keys) {
			return ruleBase + r
		}
	}
	keys = append([]uint64(nil), keys...)
	r := int32(len(rs.rules))
	syms := make([]int32, len(window))
	for i, e := range window {
		syms[i] = e.sym
	}
	// Most positions are observed once or a few times with the same
	// count: give each a one-element slot in one block, so the first
	// observation does not allocate.
	obs := make([][]Obs, len(window))
	block := make([]Obs, len(window))
	for i := range obs {
		obs[i] = block[i : i : i+1]
	}
	rs.rules = append(rs.rules, irule{keys: keys, syms: syms, obs: obs})
	rs.byKey[h] = append(rs.byKey[h], r)
	return ruleBase + r
}

// observe appends the observation (sub, count) to position p of rule r.
func (rs *ruleSet) observe(r int32, p int, sub int, count int32) {
	rs.observeTimes(r, p, sub, count, 1)
}

// observeTimes appends the observation (sub, count) times times.
func (rs *ruleSet) observeTimes(r int32, p int, sub int, count, times int32) {
	o := rs.rules[r-ruleBase].obs[p]
	if n := len(o); n > 0 && o[n-1].Sub == int32(sub) && o[n-1].Count == count {
		o[n-1].Times += times
		return
	}
	rs.rules[r-ruleBase].obs[p] = append(o, Obs{Sub: int32(sub), Count: count, Times: times})
}

// absorb makes the whole list l one nonterminal (Comparison Mode) and
// returns its symbol.
func (rs *ruleSet) absorb(l []elem, sub int) int32 {
	r := rs.lookup(l)
	for p, e := range l {
		rs.observe(r, p, sub, e.cnt)
	}
	return r
}

// mergeWindows replaces k adjacent windows of length n (laid out in w) by
// one RP, absorbing counts into the rule for their underlying sequence.
func (rs *ruleSet) mergeWindows(w []elem, n, k int, sub int) elem {
	if n == 1 {
		all1 := true
		for _, e := range w {
			if e.cnt != 1 {
				all1 = false
				break
			}
		}
		if all1 {
			return elem{sym: w[0].sym, cnt: int32(k)}
		}
	}
	r := rs.lookup(w[:n])
	for j := 0; j < k; j++ {
		for p := 0; p < n; p++ {
			rs.observe(r, p, sub, w[j*n+p].cnt)
		}
	}
	return elem{sym: r, cnt: int32(k)}
}

// grammar converts the internal rules into a Grammar with canonical names.
func (rs *ruleSet) grammar(names []string, start []elem, subs int, comparison bool) *Grammar {
	g := &Grammar{Terminals: names, SubTraces: subs, Comparison: comparison, Lossless: rs.lossless}
	taken := make(map[string]bool, len(names)+1)
	for _, n := range names {
		taken[n] = true
	}
	taken["S"] = true
	index := make([]int32, len(rs.rules)) // internal rule -> 1 + index in g.Rules
	var queue []int32
	nameGen := 0
	ref := func(sym int32) Sym {
		if sym < ruleBase {
			return Sym(sym)
		}
		if i := index[sym-ruleBase]; i > 0 {
			return ruleSym(int(i) - 1)
		}
		var name string
		for {
			name = ntName(nameGen)
			nameGen++
			if !taken[name] {
				break
			}
		}
		i := len(g.Rules)
		index[sym-ruleBase] = int32(i) + 1
		g.Rules = append(g.Rules, Rule{Name: name})
		queue = append(queue, sym)
		return ruleSym(i)
	}
	sub0 := 0
	if comparison {
		sub0 = -1
	}
	// One block each for the items, counts and observations of S: S can
	// have millions of items when the trace does not compress.
	if len(start) > 0 {
		g.Start = make([]RP, len(start))
		counts := make([]int, len(start))
		obs := make([]Obs, len(start))
		for i, e := range start {
			counts[i] = int(e.cnt)
			obs[i] = Obs{Sub: int32(sub0), Count: e.cnt, Times: 1}
			g.Start[i] = RP{Sym: ref(e.sym), Counts: counts[i : i+1 : i+1], Obs: obs[i : i+1 : i+1]}
		}
	}
	for qi := 0; qi < len(queue); qi++ {
		ir := &rs.rules[queue[qi]-ruleBase]
		body := make([]RP, len(ir.syms))
		block := make([]int, len(ir.syms))
		for p, s := range ir.syms {
			counts := block[p : p : p+1]
			body[p] = RP{Sym: ref(s), Counts: distinct(counts, ir.obs[p]), Obs: ir.obs[p]}
		}
		g.Rules[qi].Body = body
	}
	return g
}

// distinct appends to out the distinct counts of obs in order of first
// appearance.
func distinct(out []int, obs []Obs) []int {
	for _, o := range obs {
		seen := false
		for _, c := range out {
			if c == int(o.Count) {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, int(o.Count))
		}
	}
	return out
}

// ntName returns the i'th nonterminal name: A..Z, AA, AB, ..., AZ, BA, ...
func ntName(i int) string {
	var b []byte
	for {
		b = append(b, byte('A'+i%26))
		i = i/26 - 1
		if i < 0 {
			break
		}
	}
	for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
		b[l], b[r] = b[r], b[l]
	}
	return string(b)
}

// SymName returns the printed name of s.
func (g *Grammar) SymName(s Sym) string {
	if s.IsTerminal() {
		if s.Terminal() < len(g.Terminals) {
			return g.Terminals[s.Terminal()]
		}
		return "t" + strconv.Itoa(s.Terminal())
	}
	return g.Rules[s.Rule()].Name
}

// FormatRP prints rp in the paper's notation: the symbol alone when its
// counts are [1], else symbol^c1|c2|...
func (g *Grammar) FormatRP(rp RP) string {
	if len(rp.Counts) == 1 && rp.Counts[0] == 1 {
		return g.SymName(rp.Sym)
	}
	return string(g.appendRP(nil, rp))
}

// appendRP appends rp as FormatRP prints it to b.
func (g *Grammar) appendRP(b []byte, rp RP) []byte {
	b = append(b, g.SymName(rp.Sym)...)
	if len(rp.Counts) == 1 && rp.Counts[0] == 1 {
		return b
	}
	b = append(b, '^')
	for i, c := range rp.Counts {
		if i > 0 {
			b = append(b, '|')
		}
		b = strconv.AppendInt(b, int64(c), 10)
	}
	return b
}

// String returns the Full Grammar: "S -> ..." then one line per rule, each
// line ending in a newline. A rule that Cut cut ends in " ...".
func (g *Grammar) String() string {
	var b strings.Builder
	g.WriteTo(&b)
	return b.String()
}

// WriteTo writes the Full Grammar, as String returns it, to w, a rule at
// a time: a grammar of hundreds of megabytes of text is never held as
// one string.
func (g *Grammar) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var n int64
	var line []byte // reused from rule to rule
	writeRule := func(name string, body []RP, more int) error {
		b := append(line[:0], name...)
		b = append(b, " ->"...)
		for _, rp := range body {
			b = append(b, ' ')
			b = g.appendRP(b, rp)
		}
		if more > 0 {
			b = append(b, " ..."...)
		}
		line = append(b, '\n')
		m, err := bw.Write(line)
		n += int64(m)
		return err
	}
	if err := writeRule("S", g.Start, g.StartMore); err != nil {
		return n, err
	}
	for _, r := range g.Rules {
		if err := writeRule(r.Name, r.Body, r.More); err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}
