package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

// refreshDetails fills the details pane for the selected row.
func (m *Model) refreshDetails() {
	g := m.groupOf()
	if g == nil || m.cursor >= len(m.items) {
		m.details.SetContent("")
		return
	}
	it := m.items[m.cursor]
	var b strings.Builder
	w := m.details.Width
	if t := terminal(g, it); t != nil {
		m.terminalDetails(&b, g, t, w)
	} else {
		m.patternDetails(&b, g, it, w)
	}
	m.details.SetContent(b.String())
	m.details.GotoTop()
}

// terminal returns the terminal a row stands for, if it is one.
func terminal(g *prioritize.Group, it item) *prioritize.Terminal {
	if it.ruleLine || len(it.terms) != 1 || it.sym != it.terms[0] {
		return nil
	}
	for _, t := range g.Terminals {
		if t.Letter == it.sym {
			return t
		}
	}
	return nil
}

func (m *Model) terminalDetails(b *strings.Builder, g *prioritize.Group, t *prioritize.Terminal, w int) {
	st := m.styles
	fmt.Fprintf(b, "%s %s\n", st.paneTitle.Render("terminal "+t.Letter), t.Name)
	if t.Getter.ID != 0 {
		fmt.Fprintf(b, "%s\n", wrap(t.Getter.Package+"."+t.Getter.Name()+" returns "+t.Getter.Field, w))
	}
	fmt.Fprintf(b, "\n%s %s\n", st.paneTitle.Render("per sub-trace"), sparkline(t.PerSub))
	fmt.Fprintf(b, "%s\n", prioritize.CountLine(t))
	fmt.Fprintf(b, "\n%s\n", st.paneTitle.Render("values"))
	for i, v := range t.Values {
		if i == 12 {
			fmt.Fprintf(b, "... %d more\n", len(t.Values)-12)
			break
		}
		fmt.Fprintf(b, "%s x%d\n", wrap(strconv.Quote(v.Value), w-6), v.Count)
	}
	fmt.Fprintf(b, "\n%s\n", st.paneTitle.Render("call stack"))
	for _, f := range t.Frames {
		fmt.Fprintf(b, "%s\n  %s\n", wrap(f.Func, w), st.dim.Render(wrap(fmt.Sprintf("%s:%d", f.File, f.Line), w-2)))
	}
}

func (m *Model) patternDetails(b *strings.Builder, g *prioritize.Group, it item, w int) {
	st := m.styles
	sym := it.sym
	if it.ruleLine {
		sym = it.rule
	}
	// The rule of a nonterminal.
	for _, l := range strings.Split(strings.TrimRight(g.Grammar.String(), "\n"), "\n") {
		if strings.HasPrefix(l, sym+" ->") {
			fmt.Fprintf(b, "%s\n%s\n", st.paneTitle.Render("rule"), wrap(l, w))
		}
	}
	// Where it appears, and how it varies there.
	first := true
	for _, p := range g.Patterns {
		if p.Symbol != sym {
			continue
		}
		if first {
			fmt.Fprintf(b, "\n%s\n", st.paneTitle.Render("appears in"))
			first = false
		}
		fmt.Fprintf(b, "%s in %s: %s\n", p.Notation(), p.Rule, m.kindStyle(p.Kind).Render(p.Kind.String()))
		fmt.Fprintf(b, "  max %d, trend %+.2f per repetition\n", p.Max, p.Trend)
		fmt.Fprintf(b, "  %s %v\n", sparkline(p.Series), p.Series)
	}
	if len(it.terms) > 0 {
		fmt.Fprintf(b, "\n%s\n", st.paneTitle.Render("terminals"))
		for _, l := range it.terms {
			for _, t := range g.Terminals {
				if t.Letter == l {
					fmt.Fprintf(b, "%s %s\n  %s\n", l, t.Name, st.dim.Render(wrap(prioritize.Where(t), w-2)))
				}
			}
		}
	}
}

// sparkline draws counts as bars.
func sparkline(xs []int) string {
	bars := []rune("▁▂▃▄▅▆▇█")
	max := 0
	for _, x := range xs {
		if x > max {
			max = x
		}
	}
	var b strings.Builder
	for _, x := range xs {
		if max == 0 {
			b.WriteRune(bars[0])
			continue
		}
		b.WriteRune(bars[x*(len(bars)-1)/max])
	}
	return b.String()
}

// wrap cuts s into lines of at most w runes.
func wrap(s string, w int) string {
	if w < 8 {
		w = 8
	}
	r := []rune(s)
	var lines []string
	for len(r) > w {
		lines = append(lines, string(r[:w]))
		r = r[w:]
	}
	lines = append(lines, string(r))
	return strings.Join(lines, "\n")
}
