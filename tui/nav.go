package tui

import (
	"fmt"
	"strings"
)

// Navigation as the paper's authors did it (section 4.3): from a pattern
// into the rule it stands for, back out, and to the places a symbol
// appears in.

// drill enters the rule of the selected nonterminal (or rule line). From
// the Patterns, Count and Strings views it opens the Full Grammar.
func (m *Model) drill() {
	v := m.cur()
	r, ok := v.selected()
	if !ok {
		return
	}
	d := m.data
	target := r.sym
	if d.rule(target) == nil {
		m.status = fmt.Sprintf("%s is a terminal: it has no rule (c: where it appears)", r.sym)
		return
	}
	m.push()
	var crumbs []string
	switch {
	case r.kind == rowItem && (v.id == fullView || v.id == summarizedView):
		crumbs = append(append([]string(nil), v.crumbs...), target)
	default:
		crumbs = d.path(target)
	}
	if v.id != fullView && v.id != summarizedView {
		m.view = fullView
		v = m.cur()
	}
	m.enter(v, crumbs)
	v.cursor, v.offset = 0, 0
	m.status = "rule " + target + " (⌫ returns)"
	m.refresh()
}

// enter shows the rule at the end of crumbs in a grammar view.
func (m *Model) enter(v *listView, crumbs []string) {
	v.crumbs = crumbs
	v.stale = true
	m.rebuild(v)
}

// A place is where the user was before drilling in or jumping, so that
// backspace can return there, across views.
type place struct {
	view   viewID
	crumbs []string
	key    string // the selected row
}

func (m *Model) push() {
	v := m.cur()
	p := place{view: m.view, crumbs: append([]string(nil), v.crumbs...)}
	if r, ok := v.selected(); ok {
		p.key = rowKey(r)
	}
	m.history = append(m.history, p)
}

// back returns to where the user was before the last drill-in or jump,
// with the same row selected; without history it leaves the rule shown;
// at the top it clears a search.
func (m *Model) back() {
	v := m.cur()
	var p place
	switch {
	case len(m.history) > 0:
		p = m.history[len(m.history)-1]
		m.history = m.history[:len(m.history)-1]
	case len(v.crumbs) > 0:
		left := v.crumbs[len(v.crumbs)-1]
		p = place{view: m.view, crumbs: v.crumbs[:len(v.crumbs)-1]}
		if len(p.crumbs) == 0 {
			p.key = rowKey(row{kind: rowRule, sym: left})
		} else {
			p.key = rowKey(row{kind: rowItem, sym: left, rule: p.crumbs[len(p.crumbs)-1], pos: m.data.position(p.crumbs[len(p.crumbs)-1], left)})
		}
	default:
		if m.query != "" {
			m.setQuery("")
		}
		return
	}
	m.view = p.view
	v = m.cur()
	if strings.Join(v.crumbs, ">") != strings.Join(p.crumbs, ">") || v.rows == nil || v.stale {
		m.enter(v, p.crumbs)
	}
	v.selectWhere(func(r row) bool { return rowKey(r) == p.key })
	v.clamp()
	v.scroll()
	m.refresh()
}

// context jumps to where the selected symbol appears: the item in its
// parent rule, in the Full Grammar. Pressed again on that item, it goes to
// the next place the symbol appears.
func (m *Model) context() {
	v := m.cur()
	r, ok := v.selected()
	if !ok {
		return
	}
	d := m.data
	sym := r.sym
	occ := d.occurrences(sym)
	if len(occ) == 0 {
		if sym == "S" {
			m.status = "S is the start symbol: it appears nowhere else"
		} else {
			m.status = sym + " appears in no rule"
		}
		return
	}
	next := 0
	switch r.kind {
	case rowItem, rowPattern:
		// Start after the current place when the row is an occurrence.
		for i, o := range occ {
			if o.rule == r.rule && o.pos == r.pos {
				next = i
				if r.kind == rowItem && v.id == fullView {
					next = (i + 1) % len(occ)
				}
			}
		}
	}
	o := occ[next]
	m.push()
	m.view = fullView
	fv := m.cur()
	m.enter(fv, d.path(o.rule))
	fv.selectWhere(func(x row) bool { return x.rule == o.rule && x.pos == o.pos })
	fv.clamp()
	fv.scroll()
	where := make([]string, len(occ))
	for i, o := range occ {
		where[i] = o.rule
	}
	if len(occ) > 1 {
		m.status = fmt.Sprintf("%s appears in %s (%d of %d; c: next)", sym, strings.Join(where, ", "), next+1, len(occ))
	} else {
		m.status = fmt.Sprintf("%s appears in %s", sym, o.rule)
	}
	m.refresh()
}

// mark toggles the getters behind the selected row (a pattern or rule
// marks the getters of all its terminals) for delay.
func (m *Model) mark() {
	r, ok := m.cur().selected()
	if !ok {
		return
	}
	gs := m.data.getters(r.terms)
	if len(gs) == 0 {
		m.status = "no getter behind this row"
		return
	}
	on := m.markState(r) != 2
	for _, g := range gs {
		if on {
			m.marked[g] = true
		} else {
			delete(m.marked, g)
		}
	}
	verb := "marked"
	if !on {
		verb = "unmarked"
	}
	m.status = fmt.Sprintf("%s %d getter(s); %d marked in all (d: delay command)", verb, len(gs), len(m.marked))
	m.refreshDetails()
}
