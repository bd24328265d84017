package prioritize

import (
	"fmt"
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

// A Pattern is one repetition pattern of the grammar: an item of a rule.
type Pattern struct {
	Symbol    string        `json:"symbol"`   // "a", "C"
	Terminal  bool          `json:"terminal"` // a terminal or a nonterminal
	Rule      string        `json:"rule"`     // the rule it is an item of: "S", "A"
	Position  int           `json:"position"` // its index in that rule
	Counts    []int         `json:"counts"`   // distinct counts, first appearance order
	Obs       []grammar.Obs `json:"obs"`      // the observations behind them
	Series    []int         `json:"series"`   // what it is classified on
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

// Patterns lists every pattern of g's grammar, classified, in the default
// priority order.
func Patterns(g *Group) []Pattern {
	gr := g.Grammar
	names := symbolNames(g, coverage(gr))
	var ps []Pattern
	add := func(rule string, body []grammar.RP) {
		for i, rp := range body {
			p := Pattern{
				Symbol: gr.SymName(rp.Sym), Terminal: rp.Sym.IsTerminal(), Rule: rule, Position: i,
				Counts: rp.Counts, Obs: rp.Obs, order: len(ps),
			}
			p.Series = series(rp.Obs)
			p.Kind, p.Max, p.Trend = Classify(rp.Obs, p.Series)
			p.Terminals, p.Getters = names(rp.Sym)
			ps = append(ps, p)
		}
	}
	add("S", gr.Start)
	for _, r := range gr.Rules {
		add(r.Name, r.Body)
	}
	SortPatterns(ps, "kind")
	return ps
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
// patterns (a rule used at many places of a big grammar covers thousands
// of terminals): the slices are full, so appending to one copies it.
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
// order of first appearance.
func coverage(gr *grammar.Grammar) func(grammar.Sym) []int {
	memo := map[grammar.Sym][]int{}
	var walk func(s grammar.Sym) []int
	walk = func(s grammar.Sym) []int {
		if s.IsTerminal() {
			return []int{s.Terminal()}
		}
		if ts, ok := memo[s]; ok {
			return ts
		}
		memo[s] = nil // rules are acyclic; this only guards
		var ts []int
		seen := map[int]bool{}
		for _, rp := range gr.Rules[s.Rule()].Body {
			for _, t := range walk(rp.Sym) {
				if !seen[t] {
					seen[t] = true
					ts = append(ts, t)
				}
			}
		}
		memo[s] = ts
		return ts
	}
	return walk
}

// series is what a pattern is classified on: the largest count in each
// sub-trace, in sub-trace order, when the observations span several
// sub-traces; otherwise every observed count in order.
func series(obs []grammar.Obs) []int {
	bySub := map[int32]int{}
	var subs []int32
	for _, o := range obs {
		if o.Sub < 0 {
			continue
		}
		if _, ok := bySub[o.Sub]; !ok {
			subs = append(subs, o.Sub)
		}
		if int(o.Count) > bySub[o.Sub] {
			bySub[o.Sub] = int(o.Count)
		}
	}
	if len(subs) >= 2 {
		sort.Slice(subs, func(i, j int) bool { return subs[i] < subs[j] })
		out := make([]int, len(subs))
		for i, s := range subs {
			out[i] = bySub[s]
		}
		return out
	}
	var out []int
	for _, o := range obs {
		for k := int32(0); k < o.Times && len(out) < 1000; k++ {
			out = append(out, int(o.Count))
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

var kindRank = map[Kind]int{Increasing: 0, Varying: 1, Decreasing: 2, Constant: 3}

// SortPatterns orders ps by "kind" (the default priority), "max" or
// "trend"; ties fall back on the other keys and first appearance.
func SortPatterns(ps []Pattern, by string) {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		keys := []func() (bool, bool){
			func() (bool, bool) { return kindRank[a.Kind] < kindRank[b.Kind], kindRank[a.Kind] != kindRank[b.Kind] },
			func() (bool, bool) { return a.Max > b.Max, a.Max != b.Max },
			func() (bool, bool) { return a.Trend > b.Trend, a.Trend != b.Trend },
		}
		switch by {
		case "max":
			keys[0], keys[1] = keys[1], keys[0]
		case "trend":
			keys[0], keys[2] = keys[2], keys[0]
		}
		for _, k := range keys {
			if less, differ := k(); differ {
				return less
			}
		}
		if a.Terminal != b.Terminal {
			return a.Terminal
		}
		return a.order < b.order
	})
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
