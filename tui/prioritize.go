package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/prioritize"
)

// FromPrioritize adapts a Performance Summary built by prioritize to the
// viewer. Groups are converted once, patterns on first use per sort key.
func FromPrioritize(s *prioritize.Summary) Summary {
	a := &prioSummary{s: s, patterns: map[patKey][]Pattern{}}
	for _, g := range s.Groups {
		a.groups = append(a.groups, convertGroup(g))
	}
	return a
}

type patKey struct {
	group int
	by    string
}

type prioSummary struct {
	s        *prioritize.Summary
	groups   []Group
	patterns map[patKey][]Pattern
}

func (a *prioSummary) Groups() []Group { return a.groups }

func (a *prioSummary) Patterns(g int, by string) []Pattern {
	k := patKey{g, by}
	if ps, ok := a.patterns[k]; ok {
		return ps
	}
	src := append([]prioritize.Pattern(nil), a.s.Groups[g].Patterns...)
	prioritize.SortPatterns(src, by)
	ps := make([]Pattern, len(src))
	for i, p := range src {
		ps[i] = Pattern{
			Symbol: p.Symbol, Terminal: p.Terminal, Rule: p.Rule, Position: p.Position,
			Counts: p.Counts, Notation: p.Notation(), Series: p.Series, Kind: p.Kind.String(), Max: p.Max, Trend: p.Trend,
			Terminals: p.Terminals,
		}
	}
	a.patterns[k] = ps
	return ps
}

// SortKeys are prioritize's sort keys.
func (a *prioSummary) SortKeys() []string { return prioritize.SortKeys }

func (a *prioSummary) Summarized(g int, min int, detail bool) []string {
	return prioritize.SummarizedGrammar(a.s.Groups[g].Grammar, prioritize.SummarizeOptions{Min: min, Detail: detail})
}

func (a *prioSummary) Values(g int, letters []string) [][]Value {
	vs := prioritize.PatternValues(a.s.Groups[g], prioritize.Pattern{Terminals: letters})
	out := make([][]Value, len(vs))
	for i := range vs {
		out[i] = values(vs[i])
	}
	return out
}

func convertGroup(g *prioritize.Group) Group {
	out := Group{Name: g.Goroutine, Header: prioritize.Header(g)}
	for _, st := range g.SubTraces {
		out.SubTraces = append(out.SubTraces, st.Label)
	}
	out.Terminals = make([]Terminal, len(g.Terminals))
	wheres := prioritize.Wheres(g.Terminals)
	for i, t := range g.Terminals {
		ct := Terminal{
			Letter: t.Letter, Name: t.Name, Field: t.Getter.Field, Where: wheres[i],
			Total: t.Total, PerSub: t.PerSub, Counts: prioritize.CountLine(t),
			Values: values(t.Values),
		}
		if t.Getter.ID != 0 {
			ct.Getter = t.Getter.Package + "." + t.Getter.Name()
		}
		ct.Frames = make([]Frame, len(t.Frames))
		for j, f := range t.Frames {
			ct.Frames[j] = Frame{Func: f.Func, File: f.File, Line: f.Line}
		}
		ct.BySub = make([][]Value, len(t.BySub))
		for j, vs := range t.BySub {
			ct.BySub[j] = values(vs)
		}
		out.Terminals[i] = ct
	}
	gr := g.Grammar
	rule := func(name string, body []grammar.RP) Rule {
		r := Rule{Name: name, Items: make([]Item, len(body))}
		for i, rp := range body {
			sym := gr.SymName(rp.Sym)
			r.Items[i] = Item{
				Sym: sym, Terminal: rp.Sym.IsTerminal(), Counts: rp.Counts,
				Notation: prioritize.Notation(sym, rp.Counts), Max: prioritize.SummarizedRP(sym, rp.Counts, false),
			}
		}
		return r
	}
	out.Rules = append(out.Rules, rule("S", gr.Start))
	for _, r := range gr.Rules {
		out.Rules = append(out.Rules, rule(r.Name, r.Body))
	}
	return out
}

func values(vs []prioritize.ValueCount) []Value {
	out := make([]Value, len(vs))
	for i, v := range vs {
		out[i] = Value{Value: v.Value, Count: v.Count}
	}
	return out
}

// Findings writes prioritize's findings for the viewer: the growing sites,
// each with the goroutine group that holds most of its calls.
func (a *prioSummary) Findings() Findings {
	f := a.s.Findings
	if f == nil {
		return Findings{None: "no findings"}
	}
	out := Findings{Sizes: sizesLine(f), Time: timeLine(f), Target: strconv.FormatFloat(f.Target, 'g', -1, 64)}
	for _, site := range f.Growing() {
		out.Sites = append(out.Sites, a.site(site, f))
	}
	switch {
	case f.Note != "":
		out.None = "no growth class: " + f.Note
	case len(out.Sites) == 0:
		out.None = fmt.Sprintf("no call site grows with the input (%d sites)", len(f.Sites))
		if note := f.FewEventsNote(); note != "" {
			out.None += "; " + note
		}
	}
	return out
}

func (a *prioSummary) site(s *prioritize.Site, f *prioritize.Findings) Site {
	out := Site{
		Class: s.Fit.Class.String(), Fit: fitLine(s.Fit, f.Used), Counts: s.Counts, Predicted: count(s.Predicted),
		Name: s.Name, Where: s.Where(), Value: Value{Value: s.Value.Value, Count: s.Value.Count},
	}
	if s.Getter.ID != 0 {
		out.Getter = s.Getter.Package + "." + s.Getter.Name()
	}
	for _, f := range s.Frames[:min(s.Distinct+1, len(s.Frames))] {
		out.Stack = append(out.Stack, Frame{Func: f.Func, File: f.File, Line: f.Line})
	}
	// The group that holds most of the site's calls.
	calls := map[int]int{}
	for _, t := range s.Terminals {
		for _, pt := range a.s.Groups[t.Group].Terminals {
			if pt.Letter == t.Letter {
				calls[t.Group] += pt.Total
			}
		}
	}
	out.Group = -1
	for _, t := range s.Terminals {
		if out.Group < 0 || calls[t.Group] > calls[out.Group] {
			out.Group = t.Group
		}
	}
	for _, t := range s.Terminals {
		if t.Group == out.Group {
			out.Letters = append(out.Letters, t.Letter)
		}
	}
	return out
}

// sizesLine says which sizes the fits use and where they come from.
func sizesLine(f *prioritize.Findings) string {
	var sizes []string
	for i, n := range f.Sizes {
		if i < len(f.Used) && f.Used[i] {
			sizes = append(sizes, strconv.FormatFloat(n, 'g', -1, 64))
		}
	}
	return fmt.Sprintf("sizes %s (%s), predicted at %s", strings.Join(sizes, " "), f.SizesFrom, strconv.FormatFloat(f.Target, 'g', -1, 64))
}

// timeLine says how the time per sub-trace grows.
func timeLine(f *prioritize.Findings) string {
	if len(f.TimeNs) == 0 || f.Time.Class == prioritize.ClassNone {
		return ""
	}
	line := fmt.Sprintf("time per sub-trace (first to last getter call): %s, %s at %g", f.Time.Class, time.Duration(f.TimePredictedNs).Round(time.Microsecond), f.Target)
	if f.LagSize > 0 {
		line += fmt.Sprintf("; passes %s at %.0f", time.Duration(prioritize.LagThreshold), math.Ceil(f.LagSize))
	}
	return line
}

// fitLine describes a fit: its exponent, its quality, the sub-trace set
// aside (Outlier counts the sub-traces used only).
func fitLine(f prioritize.Fit, used []bool) string {
	line := fmt.Sprintf("exponent %.2f, R² %.3f", f.Exponent, f.R2)
	k := 0
	for i, u := range used {
		if u && k == f.Outlier {
			line += fmt.Sprintf(", sub-trace %d set aside as an outlier", i+1)
		}
		if u {
			k++
		}
	}
	return line
}

// count writes a predicted count: 1,234; 3.2e+18 when huge.
func count(x float64) string {
	if x >= 1e15 {
		return strconv.FormatFloat(x, 'g', 2, 64)
	}
	return thousands(int(math.Round(x)))
}
