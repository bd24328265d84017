package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// grammarModel is the Summarized or the Full Grammar: the rules, or the
// items of the rule drilled into (the last of crumbs). The Summarized
// Grammar owns its threshold (+, -) and its counts mode (m).
type grammarModel struct {
	listModel
	crumbs     []string // "S", "A", "C": the rule shown is the last
	summarized bool
	min        int  // Summarized Grammar: items below are elided
	detail     bool // Summarized Grammar: every count, not the largest
}

func (g *grammarModel) reset() {
	g.listModel.reset()
	g.crumbs = nil
}

// enter shows the rule at the end of crumbs.
func (g *grammarModel) enter(crumbs []string, f filter) {
	g.crumbs = crumbs
	g.stale = true
	rebuild(g, f)
}

func (g *grammarModel) update(msg tea.KeyMsg) (string, []viewID, bool) {
	if !g.summarized {
		return "", nil, false
	}
	k := g.keys
	switch {
	case key.Matches(msg, k.More):
		g.min++
	case key.Matches(msg, k.Less):
		if g.min > 1 {
			g.min--
		}
	case key.Matches(msg, k.MaxDetail):
		g.detail = !g.detail
		if g.detail {
			return "Summarized Grammar: every count (C^6|3|5|4)", []viewID{summarizedView}, true
		}
		return "Summarized Grammar: maximum counts (C^<=6)", []viewID{summarizedView}, true
	default:
		return "", nil, false
	}
	return fmt.Sprintf("Summarized Grammar: items below %d elided", g.min), []viewID{summarizedView}, true
}

func (g *grammarModel) settings() []string {
	var out []string
	if g.summarized {
		mode := "max"
		if g.detail {
			mode = "detailed"
		}
		out = []string{fmt.Sprintf("min %d", g.min), mode}
	}
	if cut := g.cut(); cut != "" {
		out = append(out, cut)
	}
	return out
}

// cut says what the summary left out of the rules shown, as the status
// line shows it: "first 100 of 983816 items (-top)" in a rule cut,
// "986444 more items in 26 rules (-top)" over the rules; "" when nothing.
func (g *grammarModel) cut() string {
	d := g.data
	if d == nil {
		return ""
	}
	if len(g.crumbs) > 0 {
		if r := d.rule(g.crumbs[len(g.crumbs)-1]); r != nil && r.More > 0 {
			return fmt.Sprintf("first %d of %d items (-top)", len(r.Items), len(r.Items)+r.More)
		}
		return ""
	}
	items, rules := 0, 0
	for _, r := range d.g.Rules {
		if r.More > 0 {
			items, rules = items+r.More, rules+1
		}
	}
	if rules == 0 {
		return ""
	}
	return fmt.Sprintf("%d more %s in %d %s (-top)", items, plural(items, "item"), rules, plural(rules, "rule"))
}

// rowsOf lists the rules (top level) or the items of the rule drilled
// into.
func (g *grammarModel) rowsOf() []row {
	d := g.data
	if len(g.crumbs) == 0 {
		var lines []string
		if g.summarized {
			lines = d.sum.Summarized(d.gi, g.min, g.detail)
		} else {
			for _, r := range d.g.Rules {
				lines = append(lines, formatRule(r))
			}
		}
		rows := make([]row, 0, len(lines))
		for _, l := range lines {
			name := l
			if i := strings.Index(l, "->"); i >= 0 {
				name = strings.TrimSpace(l[:i])
			}
			rows = append(rows, row{kind: rowRule, sym: name, line: l, terms: d.cover(name)})
		}
		return rows
	}
	name := g.crumbs[len(g.crumbs)-1]
	r := d.rule(name)
	if r == nil {
		return nil
	}
	rows := make([]row, len(r.Items))
	for i, it := range r.Items {
		rows[i] = row{kind: rowItem, sym: it.Sym, rule: name, pos: i, item: it, pat: d.pattern(name, i), term: d.terminal(it.Sym), terms: d.cover(it.Sym)}
	}
	return rows
}

func (g *grammarModel) notation(r row) string {
	switch {
	case r.kind != rowItem:
		return ""
	case g.summarized && !g.detail:
		return r.item.Max
	}
	return r.item.Notation
}

// text is a rule's line, or an item with its getter and call site (a
// terminal) or its rule (a nonterminal).
func (g *grammarModel) text(r row, w int) string {
	if r.kind == rowRule {
		return r.line
	}
	n := padRight(g.notation(r), g.colW)
	if r.item.Terminal && r.term != nil {
		return n + "  " + padRight(r.term.Name, g.nameW) + "  " + where(r.term)
	}
	if rr := g.data.rule(r.sym); rr != nil {
		return n + "  " + formatRule(*rr)
	}
	return n
}

// plural returns word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
