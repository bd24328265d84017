package prioritize

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/grammar"
)

// Levels are the levels of detail of the Performance Summary, in the order
// the text form prints them.
var Levels = []string{"count", "full", "summarized", "patterns", "strings"}

// SummarizeOptions control the Summarized Grammar.
type SummarizeOptions struct {
	Min    int  // items whose largest count is below Min become "..."
	Detail bool // print every count (a^4|5|6|7) instead of the maximum (a^<=7)
}

// SummarizedGrammar returns the Summarized Grammar of gr, one rule per
// line: counts replaced by their maximum, items below the threshold
// elided to "...", and rules left with only "..." omitted. A rule that
// grammar.Cut cut ends in "..." and is never omitted.
func SummarizedGrammar(gr *grammar.Grammar, opt SummarizeOptions) []string {
	var lines []string
	rule := func(name string, body []grammar.RP, more int) {
		var items []string
		shown := false
		for _, rp := range body {
			if maxOf(rp.Counts) < opt.Min {
				if len(items) == 0 || items[len(items)-1] != "..." {
					items = append(items, "...")
				}
				continue
			}
			shown = true
			items = append(items, SummarizedRP(gr.SymName(rp.Sym), rp.Counts, opt.Detail))
		}
		if more > 0 && (len(items) == 0 || items[len(items)-1] != "...") {
			items = append(items, "...")
		}
		if shown || name == "S" || more > 0 {
			lines = append(lines, strings.TrimSpace(name+" -> "+strings.Join(items, " ")))
		}
	}
	rule("S", gr.Start, gr.StartMore)
	for _, r := range gr.Rules {
		rule(r.Name, r.Body, r.More)
	}
	return lines
}

// GrammarLeft is the line that says how many items of g's rules the
// grammars leave out (Options.Items) and how to see them: "... 1635072
// more items in 150 rules (-top 983816 shows them)"; "" when none.
func GrammarLeft(g *Group) string {
	if g.Grammar == nil {
		return ""
	}
	l := g.Grammar.Left()
	if l.Items == 0 {
		return ""
	}
	s := "s"
	if l.Items == 1 {
		s = ""
	}
	return fmt.Sprintf("... %d more item%s in %s (-top %d shows them)\n", l.Items, s, plural(l.Rules, "rule"), l.Longest)
}

// SummarizedRP prints a repetition pattern as the Summarized Grammar does:
// with its largest count (C^<=6) unless detail asks for all of them.
func SummarizedRP(sym string, counts []int, detail bool) string {
	if detail || len(counts) == 1 {
		return Notation(sym, counts)
	}
	return sym + "^<=" + strconv.Itoa(maxOf(counts))
}

func maxOf(xs []int) int {
	m := 0
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}

// CountLine prints a terminal's Count Summary entry: its total and, with
// several sub-traces, its count in each (a^54|73|155|221). In a long row
// (more than 16 sub-traces, as one per test gives), a run of three or more
// zeros is written once with its length: a^1|0(x91).
func CountLine(t *Terminal) string {
	n := t.NumSubs()
	if n <= 1 {
		return fmt.Sprintf("%s^%d", t.Letter, t.Total)
	}
	var b strings.Builder
	b.WriteString(t.Letter)
	b.WriteByte('^')
	subs := t.Subs()
	next := 0 // the first of subs at or after i
	for i := 0; i < n; i++ {
		for next < len(subs) && subs[next].Sub < i {
			next++
		}
		if i > 0 {
			b.WriteByte('|')
		}
		// The zeros from i on: up to the next sub-trace with calls.
		j := i
		for k := next; j < n; j++ {
			for k < len(subs) && subs[k].Sub < j {
				k++
			}
			if k < len(subs) && subs[k].Sub == j && subs[k].Calls != 0 {
				break
			}
		}
		if n > 16 && j-i >= 3 {
			fmt.Fprintf(&b, "0(x%d)", j-i)
			i = j - 1
			continue
		}
		c := 0
		if next < len(subs) && subs[next].Sub == i {
			c = subs[next].Calls
		}
		b.WriteString(strconv.Itoa(c))
	}
	return b.String()
}

// Where describes a terminal's call site: the caller of the getter.
func Where(t *Terminal) string {
	if f, ok := t.Caller(); ok {
		return fmt.Sprintf("%s (%s:%d)", shortFunc(f.Func), filepath.Base(f.File), f.Line)
	}
	if len(t.Frames) > 0 {
		f := t.Frames[0]
		return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
	}
	return ""
}

// Wheres describes the call site of each terminal of a group as Where
// does, but where two terminals would read the same (one getter called
// from one line, reached by two paths), each gets the frame further out
// where its stack parts from the others': "f (a.go:3) from main.main
// (main.go:456)".
func Wheres(ts []*Terminal) []string {
	out := make([]string, len(ts))
	same := map[string][]int{}
	for i, t := range ts {
		out[i] = Where(t)
		same[out[i]+"\x00"+t.Name] = append(same[out[i]+"\x00"+t.Name], i)
	}
	for _, idx := range same {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			if k := partingFrame(ts, idx, i); k > 0 {
				f := ts[i].Frames[k]
				out[i] += fmt.Sprintf(" from %s (%s:%d)", shortFunc(f.Func), filepath.Base(f.File), f.Line)
			}
		}
	}
	return out
}

// partingFrame returns the first frame of terminal i, from the caller's
// caller outward, that differs from the same frame of another of the
// terminals idx, or 0 if none does.
func partingFrame(ts []*Terminal, idx []int, i int) int {
	fs := ts[i].Frames
	for k := 2; k < len(fs); k++ {
		for _, j := range idx {
			if o := ts[j].Frames; j != i && (k >= len(o) || o[k] != fs[k]) {
				return k
			}
		}
	}
	return 0
}

// PatternLine prints a pattern for the Prioritized Patterns level.
func PatternLine(p Pattern) string {
	return fmt.Sprintf("%-10s %-24s max %-4d trend %+6.2f  in %-3s %s",
		p.Kind, p.Notation(), p.Max, p.Trend, p.Rule, strings.Join(p.Getters, ", "))
}

// Text renders the chosen levels of a group as text with headings.
func Text(g *Group, levels []string, sum SummarizeOptions, sortBy string, kinds []Kind) string {
	var b strings.Builder
	WriteText(&b, g, levels, sum, sortBy, kinds)
	return b.String()
}

// WriteText writes the chosen levels of a group to w as Text renders
// them, a line at a time: the Full Grammar and the Strings of a big
// session are hundreds of megabytes of text, never held as one string.
func WriteText(w io.Writer, g *Group, levels []string, sum SummarizeOptions, sortBy string, kinds []Kind) error {
	b := bufio.NewWriterSize(w, 64<<10)
	for _, level := range levels {
		switch level {
		case "count":
			heading(b, "Count Summary")
			wheres := Wheres(g.Terminals)
			for i, t := range g.Terminals {
				fmt.Fprintf(b, "%-28s %-22s %s\n", CountLine(t), t.Name, wheres[i])
			}
		case "full":
			heading(b, "Full Grammar")
			if _, err := g.Grammar.WriteTo(b); err != nil {
				return err
			}
			b.WriteString(GrammarLeft(g))
		case "summarized":
			heading(b, fmt.Sprintf("Summarized Grammar (items below %d elided)", sum.Min))
			for _, l := range SummarizedGrammar(g.Grammar, sum) {
				b.WriteString(l + "\n")
			}
			b.WriteString(GrammarLeft(g))
		case "patterns":
			heading(b, "Prioritized Patterns")
			writePatterns(b, g, sortBy, kinds)
		case "strings":
			heading(b, "Strings")
			writeStrings(b, g)
		}
	}
	return b.Flush()
}

func heading(b *bufio.Writer, h string) { fmt.Fprintf(b, "\n== %s\n", h) }

// writePatterns writes the Prioritized Patterns level.
func writePatterns(b *bufio.Writer, g *Group, sortBy string, kinds []Kind) {
	ps := append([]Pattern(nil), g.Patterns...)
	SortPatterns(ps, sortBy)
	shown := Filter(ps, kinds)
	for _, p := range shown {
		b.WriteString(PatternLine(p) + "\n")
	}
	left := g.PatternsLeft(kinds)
	if len(shown) == 0 && left == 0 {
		var names []string
		for _, k := range kinds {
			names = append(names, k.String())
		}
		fmt.Fprintf(b, "(no %s patterns)\n", strings.Join(names, " or "))
	}
	b.WriteString(morePatterns(g, left))
}

// writeStrings writes the Strings level: the values of the patterns that
// are not constant, then of each terminal.
func writeStrings(b *bufio.Writer, g *Group) {
	for _, p := range g.Patterns {
		if p.Kind == Constant {
			continue
		}
		fmt.Fprintf(b, "%s in %s (%s) %s\n", p.Notation(), p.Rule, p.Kind, strings.Join(p.Getters, ", "))
		for i, vs := range PatternValues(g, p) {
			if len(vs) > 0 {
				fmt.Fprintf(b, "    %s: %s\n", g.SubTraces[i].Label, values(vs, 4))
			}
		}
	}
	b.WriteString(morePatterns(g, g.PatternsLeft([]Kind{Increasing, Varying, Decreasing})))
	wheres := Wheres(g.Terminals)
	for ti, t := range g.Terminals {
		fmt.Fprintf(b, "%s %s %s\n", t.Letter, t.Name, wheres[ti])
		fmt.Fprintf(b, "    all: %s%s\n", values(t.Values, 8), unkept(t.Unkept))
		if t.NumSubs() > 1 {
			for _, c := range t.Subs() {
				if len(c.Values) > 0 {
					fmt.Fprintf(b, "    %s: %s%s\n", g.SubTraces[c.Sub].Label, values(c.Values, 4), unkept(c.Unkept))
				}
			}
		}
	}
}

// morePatterns is the line that says how many patterns (left) a group
// did not keep, and how to see them; "" when none.
func morePatterns(g *Group, left int) string {
	if left == 0 {
		return ""
	}
	s := "s"
	if left == 1 {
		s = ""
	}
	return fmt.Sprintf("... %d more pattern%s (-top %d shows them)\n", left, s, len(g.Patterns)+g.MorePatterns)
}

// PatternValues returns, for each sub-trace, the values returned by the
// terminals a pattern covers (distinct, with counts, in order of first
// appearance): what repeated in each repetition. Its time is linear in
// the values of those terminals.
func PatternValues(g *Group, p Pattern) [][]ValueCount {
	out := make([][]ValueCount, len(g.SubTraces))
	byLetter := make(map[string][]*Terminal, len(g.Terminals))
	for _, t := range g.Terminals {
		byLetter[t.Letter] = append(byLetter[t.Letter], t)
	}
	at := make([]map[string]int, len(g.SubTraces)) // value -> index in out[i]
	for _, l := range p.Terminals {
		for _, t := range byLetter[l] {
			for _, c := range t.Subs() {
				if c.Sub >= len(out) {
					break
				}
				for _, v := range c.Values {
					out[c.Sub] = addCount(out[c.Sub], &at[c.Sub], v)
				}
			}
		}
	}
	return out
}

// addCount adds v to vs, through index (value -> index in vs, made
// when vs grows past a few values).
func addCount(vs []ValueCount, index *map[string]int, v ValueCount) []ValueCount {
	if *index == nil && len(vs) >= 8 {
		*index = make(map[string]int, 2*len(vs))
		for i, x := range vs {
			(*index)[x.Value] = i
		}
	}
	if *index != nil {
		if i, ok := (*index)[v.Value]; ok {
			vs[i].Count += v.Count
			return vs
		}
		(*index)[v.Value] = len(vs)
		return append(vs, v)
	}
	for i := range vs {
		if vs[i].Value == v.Value {
			vs[i].Count += v.Count
			return vs
		}
	}
	return append(vs, v)
}

// unkept says how many calls returned values that were not kept (a call
// site keeps its first 1,024 distinct values in each trace part), or
// nothing.
func unkept(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d more calls returned values not kept", n)
}

// values prints up to max distinct values with their counts.
func values(vs []ValueCount, max int) string {
	var parts []string
	for i, v := range vs {
		if i == max {
			parts = append(parts, fmt.Sprintf("... %d more", len(vs)-max))
			break
		}
		q := strconv.Quote(OneLine(v.Value))
		if v.Count > 1 {
			q += fmt.Sprintf(" x%d", v.Count)
		}
		parts = append(parts, q)
	}
	return strings.Join(parts, ", ")
}

// Header describes a group in one line.
func Header(g *Group) string {
	subs := 0
	for _, s := range g.SubTraces {
		if s.Events > 0 {
			subs++
		}
	}
	left := ""
	if g.Left > 0 {
		left = fmt.Sprintf(", %d outside sub-traces left out", g.Left)
	}
	return fmt.Sprintf("goroutine %s: %d events in %s%s", g.Goroutine, g.Events, plural(subs, "sub-trace"), left)
}
