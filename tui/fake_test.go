package tui

import (
	"sort"

	"github.com/suncat-go/suncat/prioritize"
	"strconv"
	"strings"
)

// fakeSummary is an in-memory Summary for the tests: the paper's running
// example (Figure 5: four OneStop screens of OneBusAway), with getters and
// stacks as a Go port of it would record them, plus a small second
// goroutine group.
type fakeSummary struct {
	groups   []Group
	patterns [][]Pattern // default order
	findings Findings
}

const obaDir = "/src/oba"

func stack(getter, caller string, line int) []Frame {
	return []Frame{
		{Func: "example.com/oba/model." + getter, File: obaDir + "/model/model.go", Line: 10 + line},
		{Func: "main.(*app)." + caller, File: obaDir + "/main.go", Line: 40 + line},
		{Func: "main.main", File: obaDir + "/main.go", Line: 12},
	}
}

func term(letter, recv, method, field, caller string, line int, bySub ...[]Value) Terminal {
	t := Terminal{
		Letter: letter, Name: "(*" + recv + ")." + method,
		Getter: "example.com/oba/model.(*" + recv + ")." + method, Field: field,
		Frames: stack("(*"+recv+")."+method, caller, line),
		NSub:   len(bySub),
	}
	index := map[string]int{}
	for sub, vs := range bySub {
		n := 0
		for _, v := range vs {
			n += v.Count
			if i, ok := index[v.Value]; ok {
				t.Values[i].Count += v.Count
			} else {
				index[v.Value] = len(t.Values)
				t.Values = append(t.Values, v)
			}
		}
		if n > 0 || vs != nil {
			t.Subs = append(t.Subs, SubValues{Sub: sub, Calls: n, Values: vs})
		}
		t.Total += n
	}
	return t
}

func item(sym string, terminal bool, counts ...int) Item {
	return Item{Sym: sym, Terminal: terminal, Counts: counts}
}

func vals(kv ...interface{}) []Value {
	var out []Value
	for i := 0; i < len(kv); i += 2 {
		out = append(out, Value{kv[i].(string), kv[i+1].(int)})
	}
	return out
}

func newFake() *fakeSummary {
	stops := []string{"NE 65TH ST & OSWEGO", "NE 65TH ST & NE RAVE", "NE RAVENNA BLVD & I", "NE 65TH ST & ROOSEVE"}
	per := func(counts []int, v func(sub int) string) [][]Value {
		out := make([][]Value, len(counts))
		for i, c := range counts {
			out[i] = vals(v(i), c)
		}
		return out
	}
	stop := func(i int) string { return stops[i] }
	const4 := func(n int) []int { return []int{n, n, n, n} }
	g := Group{
		Name:      "main.main",
		Header:    "goroutine main.main: 228 events in 4 sub-traces",
		SubTraces: []string{"stop 1", "stop 2", "stop 3", "stop 4"},
		Terminals: []Terminal{
			term("a", "Stop", "Name", "name", "bindStop", 0, per([]int{4, 5, 6, 7}, stop)...),
			term("b", "Stop", "Direction", "direction", "showStop", 1, per(const4(2), func(int) string { return "N" })...),
			term("c", "Stop", "ID", "id", "showStop", 2, per(const4(2), func(i int) string { return "1_" + strconv.Itoa(100+i) })...),
			term("d", "Route", "ShortName", "shortName", "showRoutes", 3, per(const4(2), func(int) string { return "48" })...),
			term("e", "Arrival", "Headsign", "headsign", "showArrivals", 4, per([]int{3, 3, 4, 4}, func(int) string { return "Loyal Heights" })...),
			term("f", "Arrival", "Time", "time", "showArrivals", 5, per([]int{3, 3, 4, 4}, func(int) string { return "5 min" })...),
			term("g", "Stop", "Code", "code", "prefetch", 6, per(const4(4), func(int) string { return "75403" })...),
			term("h", "Stop", "Lat", "lat", "prefetch", 7, per(const4(4), func(int) string { return "47.67" })...),
			term("i", "Route", "LongName", "longName", "saveFavorites", 8, per([]int{6, 3, 5, 4}, func(int) string { return "5TH AVE NE" })...),
			term("j", "Route", "Agency", "agency", "saveFavorites", 9, per([]int{6, 3, 5, 4}, func(int) string { return "KCM" })...),
		},
		Rules: []Rule{
			{Name: "S", Items: []Item{item("A", false, 4)}},
			{Name: "A", Items: []Item{
				item("a", true, 4, 5, 6, 7), item("b", true, 2), item("c", true, 2), item("d", true, 2),
				item("e", true, 3, 4), item("f", true, 3, 4), item("B", false, 4), item("C", false, 6, 3, 5, 4),
			}},
			{Name: "B", Items: []Item{item("g", true, 1), item("h", true, 1)}},
			{Name: "C", Items: []Item{item("i", true, 1), item("j", true, 1)}},
		},
	}
	p := func(sym string, terminal bool, rule string, pos int, counts, series []int, kind string, trend float64, terms ...string) Pattern {
		return Pattern{Symbol: sym, Terminal: terminal, Rule: rule, Position: pos, Counts: counts, Series: series,
			Kind: kind, Max: maxInt(series), Trend: trend, Terminals: terms}
	}
	all := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	ps := []Pattern{
		p("A", false, "S", 0, []int{4}, []int{4}, "constant", 0, all...),
		p("a", true, "A", 0, []int{4, 5, 6, 7}, []int{4, 5, 6, 7}, "increasing", 1, "a"),
		p("b", true, "A", 1, []int{2}, const4(2), "constant", 0, "b"),
		p("c", true, "A", 2, []int{2}, const4(2), "constant", 0, "c"),
		p("d", true, "A", 3, []int{2}, const4(2), "constant", 0, "d"),
		p("e", true, "A", 4, []int{3, 4}, []int{3, 3, 4, 4}, "increasing", 0.4, "e"),
		p("f", true, "A", 5, []int{3, 4}, []int{3, 3, 4, 4}, "increasing", 0.4, "f"),
		p("B", false, "A", 6, []int{4}, const4(4), "constant", 0, "g", "h"),
		p("C", false, "A", 7, []int{6, 3, 5, 4}, []int{6, 3, 5, 4}, "varying", -0.4, "i", "j"),
		p("g", true, "B", 0, []int{1}, const4(1), "constant", 0, "g"),
		p("h", true, "B", 1, []int{1}, const4(1), "constant", 0, "h"),
		p("i", true, "C", 0, []int{1}, const4(1), "constant", 0, "i"),
		p("j", true, "C", 1, []int{1}, const4(1), "constant", 0, "j"),
	}
	bg := Group{
		Name:      "main.(*app).refresh",
		Header:    "goroutine main.(*app).refresh: 8 events in 4 sub-traces",
		SubTraces: g.SubTraces,
		Terminals: []Terminal{term("a", "Route", "ShortName", "shortName", "refresh", 20, per(const4(2), func(int) string { return "48" })...)},
		Rules:     []Rule{{Name: "S", Items: []Item{item("A", false, 4)}}, {Name: "A", Items: []Item{item("a", true, 2)}}},
	}
	bps := []Pattern{
		p("A", false, "S", 0, []int{4}, []int{4}, "constant", 0, "a"),
		p("a", true, "A", 0, []int{2}, const4(2), "constant", 0, "a"),
	}
	f := &fakeSummary{groups: []Group{g, bg}, patterns: [][]Pattern{ps, bps}}
	f.findings = fakeFindings(g, bg)
	return notate(f)
}

// fakeFindings: the stop name grows, as does a getter of the second
// group, and the headsigns (a little).
func fakeFindings(g, bg Group) Findings {
	f := Findings{
		Sizes:  "sizes 1 2 3 4 (from the labels); predicted at 40",
		Target: "40",
		Time:   "time per sub-trace: constant, 3ms",
		Sites: []Site{
			fakeSite(g, "a", "linear", "43", "exponent 1.00, R^2 1.000", 0),
			fakeSite(bg, "a", "linear", "22", "exponent 1.00, R^2 0.950", 1),
			fakeSite(g, "e", "linear", "14", "exponent 1.10, R^2 0.800", 0),
		},
	}
	f.Sites[1].Counts = []int{1, 2, 3, 2}
	return f
}

// fakeSite is the site of terminal letter of group g (index gi).
func fakeSite(g Group, letter, class, predicted, fit string, gi int) Site {
	for _, t := range g.Terminals {
		if t.Letter == letter {
			return Site{Class: class, Fit: fit, Counts: t.PerSub(), Predicted: predicted, Prediction: predicted + " at 40", Name: t.Name, Getter: t.Getter,
				Where: where(&t), Stack: t.Frames[:2], Value: t.Values[0], Group: gi, Letters: []string{letter}}
		}
	}
	panic("no terminal " + letter)
}

func (f *fakeSummary) Findings() Findings { return f.findings }

// notate writes the notations a summary prepares for the viewer, as
// prioritize writes them.
func notate(f *fakeSummary) *fakeSummary {
	for gi := range f.groups {
		g := &f.groups[gi]
		for i := range g.Terminals {
			t := &g.Terminals[i]
			pt := &prioritize.Terminal{Letter: t.Letter, Total: t.Total}
			pt.SetPerSub(t.PerSub(), nil)
			t.Counts = prioritize.CountLine(pt)
		}
		for _, r := range g.Rules {
			for i := range r.Items {
				it := &r.Items[i]
				it.Notation = prioritize.Notation(it.Sym, it.Counts)
				it.Max = prioritize.SummarizedRP(it.Sym, it.Counts, false)
			}
		}
		for i := range f.patterns[gi] {
			p := &f.patterns[gi][i]
			p.Notation = prioritize.Notation(p.Symbol, p.Counts)
		}
	}
	return f
}

func (f *fakeSummary) Groups() []Group { return f.groups }

func (f *fakeSummary) SortKeys() []string { return prioritize.SortKeys }

var kindRank = map[string]int{"increasing": 0, "varying": 1, "decreasing": 2, "constant": 3}

// Patterns sorts as the documented priority says: by kind (then maximum,
// then trend), by maximum, or by trend; ties keep rule order.
func (f *fakeSummary) Patterns(g int, by string) []Pattern {
	ps := append([]Pattern(nil), f.patterns[g]...)
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		switch by {
		case "max":
			return a.Max > b.Max
		case "trend":
			return a.Trend > b.Trend
		}
		if kindRank[a.Kind] != kindRank[b.Kind] {
			return kindRank[a.Kind] < kindRank[b.Kind]
		}
		return a.Max > b.Max
	})
	return ps
}

func (f *fakeSummary) Summarized(g int, min int, detail bool) []string {
	var lines []string
	for _, r := range f.groups[g].Rules {
		var items []string
		shown := false
		for _, it := range r.Items {
			if maxInt(it.Counts) < min {
				if len(items) == 0 || items[len(items)-1] != "..." {
					items = append(items, "...")
				}
				continue
			}
			shown = true
			items = append(items, prioritize.SummarizedRP(it.Sym, it.Counts, detail))
		}
		if shown || r.Name == "S" {
			lines = append(lines, r.Name+" -> "+strings.Join(items, " "))
		}
	}
	return lines
}

func (f *fakeSummary) Values(g int, letters []string) [][]Value {
	out := make([][]Value, len(f.groups[g].SubTraces))
	for _, l := range letters {
		for _, t := range f.groups[g].Terminals {
			if t.Letter != l {
				continue
			}
			for i, vs := range t.BySub() {
			next:
				for _, v := range vs {
					for j := range out[i] {
						if out[i][j].Value == v.Value {
							out[i][j].Count += v.Count
							continue next
						}
					}
					out[i] = append(out[i], v)
				}
			}
		}
	}
	return out
}
