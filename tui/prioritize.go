package tui

import (
	"strings"

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
	// A test suite's findings come per family (suite).
	suite   bool
	fams    []*prioritize.Family
	unsized []prioritize.Unsized
}

// FromSuite is FromPrioritize for the traces of a test suite: the
// Findings view lists the findings of each test family (fams, ranked,
// as prioritize.Families gives them), each row named by its family.
func FromSuite(s *prioritize.Summary, fams []*prioritize.Family, unsized []prioritize.Unsized) Summary {
	a := FromPrioritize(s).(*prioSummary)
	a.suite, a.fams, a.unsized = true, fams, unsized
	return a
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
	out := Group{Name: g.Goroutine, Header: prioritize.Header(g), MorePatterns: g.MorePatterns}
	for _, st := range g.SubTraces {
		out.SubTraces = append(out.SubTraces, st.Label)
	}
	out.Terminals = make([]Terminal, len(g.Terminals))
	wheres := prioritize.Wheres(g.Terminals)
	for i, t := range g.Terminals {
		ct := Terminal{
			Letter: t.Letter, Name: t.Name, Field: t.Getter.Field, Hooked: t.Getter.HookedCall(), Where: wheres[i],
			Total: t.Total, NSub: t.NumSubs(), Counts: prioritize.CountLine(t),
			Values: values(t.Values),
		}
		if t.Getter.ID != 0 {
			ct.Getter = t.Getter.Package + "." + t.Getter.Name()
		}
		ct.Frames = make([]Frame, len(t.Frames))
		for j, f := range t.Frames {
			ct.Frames[j] = Frame{Func: f.Func, File: f.File, Line: f.Line}
		}
		ct.Subs = make([]SubValues, len(t.Subs()))
		for j, c := range t.Subs() {
			ct.Subs[j] = SubValues{Sub: c.Sub, Calls: c.Calls, Values: values(c.Values)}
		}
		out.Terminals[i] = ct
	}
	out.Rules = rules(g)
	return out
}

// rules converts the grammar of g (as cut: its rules' first items) to
// the viewer's rules, S first; a cut rule gets the terminals the whole
// rule covers.
func rules(g *prioritize.Group) []Rule {
	gr := g.Grammar
	rule := func(name string, body []grammar.RP, more int) Rule {
		r := Rule{Name: name, Items: make([]Item, len(body)), More: more}
		switch {
		case more > 0 && name == "S":
			r.Covers = g.CoversStart()
		case more > 0:
			r.Covers = g.Covers(name)
		}
		for i, rp := range body {
			sym := gr.SymName(rp.Sym)
			r.Items[i] = Item{
				Sym: sym, Terminal: rp.Sym.IsTerminal(), Counts: rp.Counts,
				Notation: prioritize.Notation(sym, rp.Counts), Max: prioritize.SummarizedRP(sym, rp.Counts, false),
			}
		}
		return r
	}
	out := []Rule{rule("S", gr.Start, gr.StartMore)}
	for _, r := range gr.Rules {
		out = append(out, rule(r.Name, r.Body, r.More))
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
	if a.suite {
		return a.familyFindings()
	}
	f := a.s.Findings
	if f == nil {
		return Findings{None: "no findings"}
	}
	out := Findings{Sizes: prioritize.SizesLine(f), Target: prioritize.Number(f.Target), Mixed: prioritize.MixedText(f), Apart: prioritize.ApartText(f)}
	if len(f.TimeNs) > 0 && f.Time.Class != prioritize.ClassNone {
		out.Time = prioritize.TimeText(f)
		out.Unseen = prioritize.UnseenText(f)
	}
	for _, d := range f.Findings {
		out.Sites = append(out.Sites, a.finding(d, f))
	}
	out.None = prioritize.NoneText(f)
	if note := f.FewEventsNote(); out.None != "" && f.Note == "" && note != "" {
		out.None += "; " + note
	}
	out.Jump, out.Uneven = prioritize.JumpText(f), prioritize.UnevenText(f)
	for _, more := range []string{out.Mixed, out.Apart, out.Unseen, out.Jump, out.Uneven} {
		if out.None != "" && more != "" {
			out.None += "; " + more
		}
	}
	return out
}

// familyFindings are the findings of a suite, family by family in the
// families' order, each site named by its family.
func (a *prioSummary) familyFindings() Findings {
	if len(a.fams) == 0 {
		return Findings{None: prioritize.NoSizesHeading(a.s, a.unsized)}
	}
	out := Findings{Sizes: prioritize.FamiliesHeading(a.fams, a.unsized)}
	var none []string
	for _, fam := range a.fams {
		f := fam.Findings
		name := prioritize.FamilyName(fam)
		if len(f.Findings) == 0 {
			none = append(none, name+": "+prioritize.NoneText(f))
			continue
		}
		t := ""
		if len(f.TimeNs) > 0 && f.Time.Class != prioritize.ClassNone {
			t = prioritize.FamilyTimeText(fam)
			if unseen := prioritize.UnseenText(f); unseen != "" {
				t += "; " + unseen
			}
		}
		for _, d := range f.Findings {
			s := a.finding(d, f)
			s.Family, s.FamilySizes, s.FamilyTime = name, prioritize.GrowText(f), t
			out.Sites = append(out.Sites, s)
		}
	}
	if len(out.Sites) == 0 {
		out.None = "no test family grows: " + strings.Join(none, "; ")
	}
	return out
}

// finding is a finding as a row of the Findings view: its top site, with
// the finding's class, counts and prediction, every getter it covers,
// and the terminals of all its sites in the group of the top one.
func (a *prioSummary) finding(d *prioritize.Finding, f *prioritize.Findings) Site {
	out := a.site(d.Sites[0], f)
	p := prioritize.FindingParts(f, d)
	out.Class = p.Class
	out.Fit = prioritize.FitText(d.Fit, f.Used)
	out.Counts = d.Counts
	out.Predicted = prioritize.Count(d.Predicted)
	out.Prediction = p.Prediction
	out.Name = p.More
	out.Covers = p.CoversLine()
	out.Clock = p.Clock
	for _, s := range d.Sites[1:] {
		for _, t := range s.Terminals {
			if t.Group == out.Group {
				out.Letters = append(out.Letters, t.Letter)
			}
		}
	}
	return out
}

func (a *prioSummary) site(s *prioritize.Site, f *prioritize.Findings) Site {
	out := Site{
		Class: prioritize.ClassText(s.Fit.Class), Fit: prioritize.FitText(s.Fit, f.Used), Counts: s.Counts, Predicted: prioritize.Count(s.Predicted),
		Name: s.Name, Where: prioritize.WhereText(s), Value: Value{Value: s.Value.Value, Count: s.Value.Count},
	}
	if s.Getter.ID != 0 {
		out.Getter = s.Getter.Package + "." + s.Getter.Name()
	}
	for _, f := range s.Frames[:min(max(s.Responsible, s.Distinct)+1, len(s.Frames))] {
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
