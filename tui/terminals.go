package tui

import (
	"fmt"
	"strings"
)

// terminalRows lists the group's terminals.
func terminalRows(d *groupData, rows []row) []row {
	for i := range d.g.Terminals {
		t := &d.g.Terminals[i]
		rows = append(rows, row{kind: rowTerminal, sym: t.Letter, term: t, terms: []string{t.Letter}})
	}
	return rows
}

// countModel is the Count Summary: each terminal's calls per sub-trace,
// with its getter and call site.
type countModel struct{ listModel }

func (c *countModel) rowsOf() []row {
	return terminalRows(c.data, make([]row, 0, len(c.data.g.Terminals)))
}

func (c *countModel) notation(r row) string { return r.term.Counts }

func (c *countModel) text(r row, w int) string {
	return fmt.Sprintf("%s  %s  %s", padRight(c.notation(r), c.colW), padRight(r.term.Name, c.nameW), where(r.term))
}

// stringsModel is the Strings view: what varies first (the patterns that
// are not constant, in the Patterns view's order and filter, with the
// values of the last sub-trace), then every terminal with its values.
type stringsModel struct {
	listModel
	patterns *patternsModel
}

func (s *stringsModel) rowsOf() []row {
	d := s.data
	rows := make([]row, 0, len(d.g.Terminals))
	if len(d.g.SubTraces) > 1 {
		// What varies first, as in the text summary's Strings level.
		for _, r := range s.patterns.rowsOf() {
			if r.pat.Kind != "constant" {
				rows = append(rows, r)
			}
		}
	}
	return terminalRows(d, rows)
}

func (s *stringsModel) notation(r row) string {
	if r.kind == rowPattern {
		return r.pat.Notation
	}
	return r.sym
}

func (s *stringsModel) text(r row, w int) string {
	n := padRight(s.notation(r), s.colW)
	if r.kind == rowPattern {
		// The values of the last sub-trace: usually the largest.
		subs := s.data.values(r.terms)
		last := ""
		if k := len(subs) - 1; k >= 0 {
			last = s.data.g.SubTraces[k] + ": " + valueList(subs[k], 3)
		}
		return fmt.Sprintf("%s in %-2s %s", n, r.pat.Rule, last)
	}
	t := r.term
	var vs []string
	for i, val := range t.Values {
		if i == 4 {
			vs = append(vs, fmt.Sprintf("+%d", len(t.Values)-4))
			break
		}
		vs = append(vs, fmt.Sprintf("%s×%d", quoteValue(val.Value), val.Count))
	}
	return fmt.Sprintf("%-3s %s  %s", t.Letter, padRight(t.Name, s.nameW), strings.Join(vs, " "))
}
