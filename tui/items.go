package tui

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/prioritize"
)

// rebuild recomputes the rows of the current view, keeping the cursor in
// range.
func (m *Model) rebuild() {
	g := m.groupOf()
	m.items = nil
	if g != nil {
		switch m.view {
		case patternsView:
			m.items = m.patternItems(g)
		case summarizedView, fullView:
			m.items = m.grammarItems(g)
		case countView, stringsView:
			m.items = m.terminalItems(g)
		}
	}
	if m.query != "" {
		q := strings.ToLower(m.query)
		var kept []item
		for _, it := range m.items {
			if strings.Contains(it.search, q) {
				kept = append(kept, it)
			}
		}
		m.items = kept
	}
	if m.cursor >= len(m.items) {
		m.cursor = len(m.items) - 1
	}
	if m.cursor < 0 {
		m.cursor = 0
	}
	m.layout()
}

// searchText gathers what / finds for the terminals letters: getter names,
// stack frames and string values.
func searchText(g *prioritize.Group, letters []string) string {
	var b strings.Builder
	for _, l := range letters {
		for _, t := range g.Terminals {
			if t.Letter != l {
				continue
			}
			b.WriteString(t.Name + "\n" + t.Getter.Package + "\n")
			for _, f := range t.Frames {
				fmt.Fprintf(&b, "%s %s:%d\n", f.Func, f.File, f.Line)
			}
			for i, v := range t.Values {
				if i == 200 {
					break
				}
				b.WriteString(v.Value + "\n")
			}
		}
	}
	return strings.ToLower(b.String())
}

func (m *Model) patternItems(g *prioritize.Group) []item {
	ps := append([]prioritize.Pattern(nil), g.Patterns...)
	prioritize.SortPatterns(ps, prioritize.SortKeys[m.sortBy])
	if m.kind >= 0 {
		ps = prioritize.Filter(ps, []prioritize.Kind{prioritize.Kind(m.kind)})
	}
	items := make([]item, len(ps))
	for i, p := range ps {
		items[i] = item{
			text:    fmt.Sprintf("%-10s %-14s max %-3d %s", p.Kind, p.Notation(), p.Max, strings.Join(p.Getters, ", ")),
			sym:     p.Symbol,
			rule:    p.Rule,
			pos:     p.Position,
			kind:    p.Kind,
			hasKind: true,
			terms:   p.Terminals,
		}
		items[i].search = strings.ToLower(items[i].text) + "\n" + searchText(g, p.Terminals)
	}
	return items
}

// grammarItems lists the rules (top level) or the items of the rule the
// user drilled into.
func (m *Model) grammarItems(g *prioritize.Group) []item {
	gr := g.Grammar
	sumOpt := prioritize.SummarizeOptions{Min: m.min, Detail: m.detail}
	body := func(name string) []grammar.RP {
		if name == "S" {
			return gr.Start
		}
		for _, r := range gr.Rules {
			if r.Name == name {
				return r.Body
			}
		}
		return nil
	}
	cover := m.coverage(g)
	if len(m.crumbs) == 0 {
		var lines []string
		if m.view == summarizedView {
			lines = prioritize.SummarizedGrammar(gr, sumOpt)
		} else {
			lines = strings.Split(strings.TrimRight(gr.String(), "\n"), "\n")
		}
		items := make([]item, len(lines))
		for i, l := range lines {
			name := strings.TrimSpace(l[:strings.Index(l, "->")])
			items[i] = item{text: l, rule: name, ruleLine: true, terms: cover[name]}
			items[i].search = strings.ToLower(l) + "\n" + searchText(g, cover[name])
		}
		return items
	}
	rule := m.crumbs[len(m.crumbs)-1]
	var items []item
	for i, rp := range body(rule) {
		sym := gr.SymName(rp.Sym)
		text := prioritize.Notation(sym, rp.Counts)
		if m.view == summarizedView {
			text = prioritize.SummarizedRP(sym, rp.Counts, m.detail)
		}
		terms := cover[sym]
		desc := ""
		if rp.Sym.IsTerminal() {
			desc = g.Terminals[rp.Sym.Terminal()].Name + "  " + prioritize.Where(g.Terminals[rp.Sym.Terminal()])
		} else {
			desc = fmt.Sprintf("rule, %d terminal(s)", len(terms))
		}
		it := item{text: fmt.Sprintf("%-16s %s", text, desc), sym: sym, rule: rule, pos: i, terms: terms}
		for _, p := range g.Patterns {
			if p.Rule == rule && p.Position == i {
				it.kind, it.hasKind = p.Kind, true
			}
		}
		it.search = strings.ToLower(it.text) + "\n" + searchText(g, terms)
		items = append(items, it)
	}
	return items
}

func (m *Model) terminalItems(g *prioritize.Group) []item {
	items := make([]item, len(g.Terminals))
	for i, t := range g.Terminals {
		var text string
		if m.view == countView {
			text = fmt.Sprintf("%-18s %-20s %s", prioritize.CountLine(t), t.Name, prioritize.Where(t))
		} else {
			var vs []string
			for k, v := range t.Values {
				if k == 3 {
					vs = append(vs, "...")
					break
				}
				vs = append(vs, strconv.Quote(v.Value)+"x"+strconv.Itoa(v.Count))
			}
			text = fmt.Sprintf("%s %-18s %s", t.Letter, t.Name, strings.Join(vs, " "))
		}
		items[i] = item{text: text, sym: t.Letter, terms: []string{t.Letter}}
		items[i].search = strings.ToLower(text) + "\n" + searchText(g, items[i].terms)
	}
	return items
}

// coverage maps every symbol (terminal letter or rule name) to the
// terminal letters it derives.
func (m *Model) coverage(g *prioritize.Group) map[string][]string {
	out := map[string][]string{}
	for _, t := range g.Terminals {
		out[t.Letter] = []string{t.Letter}
	}
	for _, p := range g.Patterns {
		if !p.Terminal {
			out[p.Symbol] = p.Terminals
		}
	}
	var all []string
	for _, t := range g.Terminals {
		all = append(all, t.Letter)
	}
	out["S"] = all
	return out
}

type delayDoneMsg struct{ err error }

// runDelay runs the delay command for the marked getters in the current
// directory, handing the terminal over to it.
func (m *Model) runDelay() tea.Cmd {
	gs := m.MarkedGetters()
	if len(gs) == 0 {
		return nil
	}
	args := []string{"delay"}
	for _, g := range gs {
		args = append(args, "--getter", g)
	}
	args = append(args, "-d", "2ms", "-run", ".")
	exe, err := os.Executable()
	if err != nil {
		exe = "suncat"
	}
	m.Ran = m.DelayCommand()
	return tea.ExecProcess(exec.Command(exe, args...), func(err error) tea.Msg { return delayDoneMsg{err} })
}
