package prioritize

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/suncat-go/suncat/grammar"
)

// A Kind classifies how a pattern's counts change across repetitions.
type Kind int

const (
	Constant Kind = iota
	Increasing
	Decreasing
	Varying
)

var kindNames = [...]string{"constant", "increasing", "decreasing", "varying"}

func (k Kind) String() string { return kindNames[k] }

// MarshalText writes the kind's name (JSON).
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	x, err := ParseKind(string(b))
	*k = x
	return err
}

// ParseKind parses "constant", "increasing", "decreasing" or "varying"
// (or a unique prefix of one).
func ParseKind(s string) (Kind, error) {
	var found []Kind
	for i, n := range kindNames {
		if n == s {
			return Kind(i), nil
		}
		if s != "" && strings.HasPrefix(n, s) {
			found = append(found, Kind(i))
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return 0, fmt.Errorf("%q is not a kind (constant, increasing, decreasing, varying)", s)
}

// A Pattern is one repetition pattern of the grammar: an item of a rule,
// or the places of one rule where the same symbol repeats with the same
// counts and classification (a start rule of millions of places holds the
// same a^2 at thousands of them): one pattern, Places many.
type Pattern struct {
	Symbol    string        `json:"symbol"`           // "a", "C"
	Terminal  bool          `json:"terminal"`         // a terminal or a nonterminal
	Rule      string        `json:"rule"`             // the rule it is an item of: "S", "A"
	Position  int           `json:"position"`         // its index in that rule (its first place)
	Places    int           `json:"places,omitempty"` // the places it stands for, when more than one
	Counts    []int         `json:"counts"`           // distinct counts, first appearance order
	Obs       []grammar.Obs `json:"obs"`              // the observations behind them (over its places)
	Series    []int         `json:"series"`           // what it is classified on (at its first place)
	Kind      Kind          `json:"kind"`
	Max       int           `json:"max"`
	Trend     float64       `json:"trend"`     // least-squares slope per repetition
	Terminals []string      `json:"terminals"` // letters of the terminals it covers
	Getters   []string      `json:"getters"`   // their getter names, distinct
	order     int
}

// Notation prints the pattern in the paper's notation: a^1|2|3|4.
func (p Pattern) Notation() string { return Notation(p.Symbol, p.Counts) }

// Notation prints a symbol with its counts in the paper's notation: the
// symbol alone when it repeats once, else sym^c1|c2|...
func Notation(sym string, counts []int) string {
	if len(counts) == 1 && counts[0] == 1 {
		return sym
	}
	var b strings.Builder
	b.WriteString(sym)
	b.WriteByte('^')
	for i, c := range counts {
		if i > 0 {
			b.WriteByte('|')
		}
		fmt.Fprint(&b, c)
	}
	return b.String()
}

// DefaultPatterns is how many patterns of each group a summary keeps
// when Options.Patterns does not say.
const DefaultPatterns = 100

// DefaultItems is how many items of each rule of a group's grammar a
// summary keeps, and observations of each item, when Options.Items does
// not say.
const DefaultItems = 100

// cutGrammar cuts g's grammar as opt asks (Options.Items), keeping the
// whole one for Covers when something is left out.
func (g *Group) cutGrammar(opt Options) {
	k := opt.Items
	if k == 0 {
		k = DefaultItems
	}
	if c := g.Grammar.Cut(k); c != g.Grammar {
		g.whole, g.Grammar = g.Grammar, c
	}
}

// wholeGrammar is g's grammar before it was cut.
func (g *Group) wholeGrammar() *grammar.Grammar {
	if g.whole != nil {
		return g.whole
	}
	return g.Grammar
}

// Patterns lists every pattern of g's grammar, classified, in the default
// priority order.
func Patterns(g *Group) []Pattern {
	ps, _ := TopPatterns(g, 0)
	return ps
}

// TopPatterns lists the first k patterns of g's grammar (k <= 0: all) in
// the default priority order, and how many more of each kind there are.
// Its time is linear in the grammar's places and its memory in the
// distinct patterns; only the k kept get their terminals and getters.
func TopPatterns(g *Group, k int) ([]Pattern, [4]int) {
	gr := g.wholeGrammar()
	cs := collectPatterns(gr)
	sort.Slice(cs, func(i, j int) bool { return cs[i].prio.less(cs[j].prio, "kind") })
	var more [4]int
	if k > 0 && len(cs) > k {
		for _, c := range cs[k:] {
			more[c.prio.kind]++
		}
		cs = cs[:k]
	}
	names := symbolNames(g, coverage(gr))
	ps := make([]Pattern, len(cs))
	for i, c := range cs {
		ps[i] = c.pattern(gr)
		ps[i].Terminals, ps[i].Getters = names(c.sym)
	}
	return ps, more
}

// setPatterns gives g its patterns as opt asks (Options.Patterns,
// NoPatterns).
func (g *Group) setPatterns(opt Options) {
	if opt.NoPatterns {
		return
	}
	k := opt.Patterns
	if k == 0 {
		k = DefaultPatterns
	}
	var more [4]int
	g.Patterns, more = TopPatterns(g, k)
	g.morePatterns = more
	g.MorePatterns = more[0] + more[1] + more[2] + more[3]
}

// PatternsLeft returns how many patterns of the given kinds (all when
// kinds is empty) g did not keep.
func (g *Group) PatternsLeft(kinds []Kind) int {
	if len(kinds) == 0 {
		return g.MorePatterns
	}
	n := 0
	for _, k := range kinds {
		if k >= 0 && int(k) < len(g.morePatterns) {
			n += g.morePatterns[k]
		}
	}
	return n
}

// Covers returns the letters of the terminals that the symbol named sym
// (a terminal's letter or a rule's name) derives in g's grammar, in
// order of first appearance; nil when g has no such symbol.
func (g *Group) Covers(sym string) []string {
	for i, t := range g.Terminals {
		if t.Letter == sym {
			return []string{g.Terminals[i].Letter}
		}
	}
	gr := g.wholeGrammar()
	if gr == nil {
		return nil
	}
	for i, r := range gr.Rules {
		if r.Name == sym {
			letters, _ := symbolNames(g, coverage(gr))(grammar.Sym(-i - 1))
			return letters
		}
	}
	return nil
}

// A patCand is a pattern before its names: the places of one rule with
// one symbol, counts and classification.
type patCand struct {
	prio   prio
	rule   int32 // -1: the start rule
	pos    int
	sym    grammar.Sym
	counts []int
	first  []grammar.Obs // the first place's observations (its series)
	obs    []grammar.Obs // over all its places
	own    bool          // obs is a copy that may grow
	places int
}

// collectPatterns makes one patCand for each distinct (rule, symbol,
// counts, kind, trend) of gr, in order of first place.
func collectPatterns(gr *grammar.Grammar) []patCand {
	var cs []patCand
	index := map[string]int{}
	var key []byte
	var buf []int
	add := func(rule int32, body []grammar.RP) {
		for i, rp := range body {
			buf = seriesInto(buf[:0], rp.Obs)
			kind, max, trend := Classify(rp.Obs, buf)
			key = patternKey(key[:0], rule, rp.Sym, rp.Counts, kind, trend)
			if j, ok := index[string(key)]; ok {
				cs[j].merge(rp.Obs)
				continue
			}
			index[string(key)] = len(cs)
			cs = append(cs, patCand{
				prio: prio{kind: kind, max: max, trend: trend, terminal: rp.Sym.IsTerminal(), order: len(cs)},
				rule: rule, pos: i, sym: rp.Sym, counts: rp.Counts, first: rp.Obs, obs: rp.Obs, places: 1,
			})
		}
	}
	add(-1, gr.Start)
	for ri, r := range gr.Rules {
		add(int32(ri), r.Body)
	}
	return cs
}

func patternKey(b []byte, rule int32, sym grammar.Sym, counts []int, kind Kind, trend float64) []byte {
	b = binary.AppendVarint(b, int64(rule))
	b = binary.AppendVarint(b, int64(sym))
	b = append(b, byte(kind))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(trend))
	for _, c := range counts {
		b = binary.AppendVarint(b, int64(c))
	}
	return b
}

// merge adds the observations of one more place: an observation of the
// same sub-trace and count adds its times to the one kept.
func (c *patCand) merge(obs []grammar.Obs) {
	c.places++
	if !c.own {
		c.obs, c.own = append([]grammar.Obs(nil), c.obs...), true
	}
next:
	for _, o := range obs {
		for i := range c.obs {
			if k := &c.obs[i]; k.Sub == o.Sub && k.Count == o.Count {
				k.Times = addTimes(k.Times, o.Times)
				continue next
			}
		}
		c.obs = append(c.obs, o)
	}
}

func addTimes(a, b int32) int32 {
	if s := int64(a) + int64(b); s <= math.MaxInt32 {
		return int32(s)
	}
	return math.MaxInt32
}

// pattern returns the patCand as a Pattern, without its names.
func (c *patCand) pattern(gr *grammar.Grammar) Pattern {
	rule := "S"
	if c.rule >= 0 {
		rule = gr.Rules[c.rule].Name
	}
	p := Pattern{
		Symbol: gr.SymName(c.sym), Terminal: c.sym.IsTerminal(), Rule: rule, Position: c.pos,
		Counts: c.counts, Obs: c.obs, Series: series(c.first),
		Kind: c.prio.kind, Max: c.prio.max, Trend: c.prio.trend, order: c.prio.order,
	}
	if c.places > 1 {
		p.Places = c.places
	}
	return p
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// symbolNames returns the letters and the getters' names of the
// terminals a symbol covers, made once per symbol and shared by its
// patterns: the slices are full, so appending to one copies it.
func symbolNames(g *Group, covers func(grammar.Sym) []int) func(grammar.Sym) ([]string, []string) {
	type names struct{ letters, getters []string }
	memo := map[grammar.Sym]names{}
	return func(sym grammar.Sym) ([]string, []string) {
		if n, ok := memo[sym]; ok {
			return n.letters, n.getters
		}
		var n names
		seen := map[string]bool{}
		for _, t := range covers(sym) {
			n.letters = append(n.letters, g.Terminals[t].Letter)
			if name := g.Terminals[t].Name; !seen[name] {
				seen[name] = true
				n.getters = append(n.getters, name)
			}
		}
		n.letters, n.getters = n.letters[:len(n.letters):len(n.letters)], n.getters[:len(n.getters):len(n.getters)]
		memo[sym] = n
		return n.letters, n.getters
	}
}

// coverage returns a function giving the terminals a symbol derives, in
// order of first appearance. Each call walks the rules under the symbol
// once and keeps nothing of them: a summary asks it for the symbols of
// the patterns it keeps, not for every rule of a big grammar.
func coverage(gr *grammar.Grammar) func(grammar.Sym) []int {
	return func(s grammar.Sym) []int { return derives(gr, []grammar.RP{{Sym: s}}) }
}

// derives returns the terminals that items derive, in order of first
// appearance, walking each rule under them once.
func derives(gr *grammar.Grammar, items []grammar.RP) []int {
	var ts []int
	seen := map[int]bool{}
	visited := map[int]bool{}
	var walk func(s grammar.Sym)
	walk = func(s grammar.Sym) {
		if s.IsTerminal() {
			if t := s.Terminal(); !seen[t] {
				seen[t] = true
				ts = append(ts, t)
			}
			return
		}
		// A rule seen before added all its terminals then (and
		// rules are acyclic; this also guards).
		if r := s.Rule(); r < len(gr.Rules) && !visited[r] {
			visited[r] = true
			for _, rp := range gr.Rules[r].Body {
				walk(rp.Sym)
			}
		}
	}
	for _, rp := range items {
		walk(rp.Sym)
	}
	return ts
}

// CoversStart returns the letters of the terminals that the start rule
// of g's whole grammar derives, in order of first appearance; nil when
// g has no grammar.
func (g *Group) CoversStart() []string {
	gr := g.wholeGrammar()
	if gr == nil {
		return nil
	}
	var out []string
	for _, t := range derives(gr, gr.Start) {
		out = append(out, g.Terminals[t].Letter)
	}
	return out
}

// series is what a pattern is classified on: the largest count in each
// sub-trace, in sub-trace order, when the observations span several
// sub-traces; otherwise every observed count in order (at most 1000).
func series(obs []grammar.Obs) []int { return seriesInto(nil, obs) }

// seriesInto appends the series of obs to out.
func seriesInto(out []int, obs []grammar.Obs) []int {
	type subMax struct {
		sub int32
		max int
	}
	var subs []subMax
	var bySub map[int32]int // index in subs, once there are many
	for _, o := range obs {
		if o.Sub < 0 {
			continue
		}
		i := -1
		if bySub != nil {
			if j, ok := bySub[o.Sub]; ok {
				i = j
			}
		} else {
			for j := range subs {
				if subs[j].sub == o.Sub {
					i = j
					break
				}
			}
		}
		if i < 0 {
			i = len(subs)
			subs = append(subs, subMax{o.Sub, 0})
			if bySub != nil {
				bySub[o.Sub] = i
			} else if len(subs) > 16 {
				bySub = map[int32]int{}
				for j, s := range subs {
					bySub[s.sub] = j
				}
			}
		}
		if int(o.Count) > subs[i].max {
			subs[i].max = int(o.Count)
		}
	}
	if len(subs) >= 2 {
		sort.Slice(subs, func(i, j int) bool { return subs[i].sub < subs[j].sub })
		for _, s := range subs {
			out = append(out, s.max)
		}
		return out
	}
	n := 0
	for _, o := range obs {
		for k := int32(0); k < o.Times && n < 1000; k++ {
			out = append(out, int(o.Count))
			n++
		}
	}
	return out
}

// Classify returns the kind, maximum and trend of a pattern from its
// observations and series.
func Classify(obs []grammar.Obs, series []int) (Kind, int, float64) {
	max, min := 0, -1
	for _, o := range obs {
		if int(o.Count) > max {
			max = int(o.Count)
		}
		if min < 0 || int(o.Count) < min {
			min = int(o.Count)
		}
	}
	if min == max {
		return Constant, max, 0
	}
	up, down := true, true
	for i := 1; i < len(series); i++ {
		if series[i] < series[i-1] {
			up = false
		}
		if series[i] > series[i-1] {
			down = false
		}
	}
	trend := slope(series)
	switch {
	case up && !down:
		return Increasing, max, trend
	case down && !up:
		return Decreasing, max, trend
	}
	return Varying, max, trend
}

// slope is the least-squares slope of ys against 0, 1, 2, ...
func slope(ys []int) float64 {
	n := float64(len(ys))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i, y := range ys {
		x := float64(i)
		sx += x
		sy += float64(y)
		sxx += x * x
		sxy += x * float64(y)
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

var kindRank = [...]int{Increasing: 0, Varying: 1, Decreasing: 2, Constant: 3}

// prio is what patterns are ordered on.
type prio struct {
	kind     Kind
	max      int
	trend    float64
	terminal bool
	order    int // first appearance
}

// less orders by "kind" (the default priority), "max" or "trend"; ties
// fall back on the other keys, terminals first, and first appearance.
func (a prio) less(b prio, by string) bool {
	keys := [3]int{0, 1, 2}
	switch by {
	case "max":
		keys[0], keys[1] = keys[1], keys[0]
	case "trend":
		keys[0], keys[2] = keys[2], keys[0]
	}
	for _, k := range keys {
		switch {
		case k == 0 && kindRank[a.kind] != kindRank[b.kind]:
			return kindRank[a.kind] < kindRank[b.kind]
		case k == 1 && a.max != b.max:
			return a.max > b.max
		case k == 2 && a.trend != b.trend:
			return a.trend > b.trend
		}
	}
	if a.terminal != b.terminal {
		return a.terminal
	}
	return a.order < b.order
}

func (p *Pattern) prio() prio {
	return prio{kind: p.Kind, max: p.Max, trend: p.Trend, terminal: p.Terminal, order: p.order}
}

// SortPatterns orders ps by "kind" (the default priority), "max" or
// "trend"; ties fall back on the other keys and first appearance.
func SortPatterns(ps []Pattern, by string) {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].prio().less(ps[j].prio(), by) })
}

// SortKeys are the values SortPatterns accepts.
var SortKeys = []string{"kind", "max", "trend"}

// Filter keeps the patterns of the given kinds (all when kinds is empty).
func Filter(ps []Pattern, kinds []Kind) []Pattern {
	if len(kinds) == 0 {
		return ps
	}
	var out []Pattern
	for _, p := range ps {
		for _, k := range kinds {
			if p.Kind == k {
				out = append(out, p)
				break
			}
		}
	}
	return out
}
