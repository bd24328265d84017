package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// patternsModel is the Prioritized Patterns view: the patterns the summary
// kept of the group (its status line says when it kept only the first), in
// the order of a sort key, filtered by kind. It owns the sort (s)
// and the filter (f); the Strings view follows both.
type patternsModel struct {
	listModel
	sortKeys []string // the Summary's
	sortBy   int      // index in sortKeys
	kind     int      // -1: all kinds, else an index in Kinds
}

// sortKey is the order shown.
func (p *patternsModel) sortKey() string {
	if p.sortBy < len(p.sortKeys) {
		return p.sortKeys[p.sortBy]
	}
	return ""
}

func (p *patternsModel) kindName() string {
	if p.kind < 0 {
		return "all kinds"
	}
	return "only " + Kinds[p.kind]
}

func (p *patternsModel) update(msg tea.KeyMsg) (string, []viewID, bool) {
	stale := []viewID{patternsView, stringsView}
	switch {
	case key.Matches(msg, p.keys.Sort):
		if len(p.sortKeys) > 0 {
			p.sortBy = (p.sortBy + 1) % len(p.sortKeys)
		}
		return "patterns sorted by " + p.sortKey(), stale, true
	case key.Matches(msg, p.keys.Filter):
		p.kind++
		if p.kind >= len(Kinds) {
			p.kind = -1
		}
		return "patterns: " + p.kindName(), stale, true
	}
	return "", nil, false
}

func (p *patternsModel) settings() []string {
	out := []string{"sort " + p.sortKey(), p.kindName()}
	if d := p.data; d != nil && d.g.MorePatterns > 0 {
		kept := len(d.sum.Patterns(d.gi, p.sortKey()))
		out = append(out, fmt.Sprintf("first %d of %d patterns (-top)", kept, kept+d.g.MorePatterns))
	}
	return out
}

func (p *patternsModel) empty() string {
	if p.kind >= 0 {
		return fmt.Sprintf("(no %s pattern; f shows other kinds)", Kinds[p.kind])
	}
	return p.listModel.empty()
}

func (p *patternsModel) rowsOf() []row {
	d := p.data
	ps := d.sum.Patterns(d.gi, p.sortKey())
	rows := make([]row, 0, len(ps))
	for i := range ps {
		pat := &ps[i]
		if p.kind >= 0 && pat.Kind != Kinds[p.kind] {
			continue
		}
		rows = append(rows, row{kind: rowPattern, sym: pat.Symbol, rule: pat.Rule, pos: pat.Position, pat: pat, term: d.terminal(pat.Symbol), terms: pat.Terminals})
	}
	return rows
}

func (p *patternsModel) notation(r row) string { return r.pat.Notation }

// text is a pattern's kind, notation, largest count, trend (as the width
// allows) and the getters it covers.
func (p *patternsModel) text(r row, w int) string {
	n := padRight(p.notation(r), p.colW)
	pat := r.pat
	names := p.data.getterNames(r.terms)
	if w < 60 {
		return fmt.Sprintf("%-5s %s in %-2s %s", shortKind(pat.Kind), n, pat.Rule, names)
	}
	if w < 100 {
		return fmt.Sprintf("%-10s %s max %-3d in %-2s %s", pat.Kind, n, pat.Max, pat.Rule, names)
	}
	return fmt.Sprintf("%-10s %s max %-4d trend %+6.2f  in %-2s %s", pat.Kind, n, pat.Max, pat.Trend, pat.Rule, names)
}

func shortKind(k string) string {
	switch k {
	case "increasing":
		return "incr"
	case "decreasing":
		return "decr"
	case "varying":
		return "vary"
	}
	return "const"
}
