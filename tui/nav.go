package tui

import (
	"fmt"
	"strings"
)

// Navigation as the paper's authors did it (section 4.3): from a pattern
// into the rule it stands for, back out, and to the places a symbol
// appears in. These act across views, so the top model owns them.

// drill enters the rule of the selected nonterminal (or rule line). From
// the Patterns, Count and Strings views it opens the Full Grammar; from
// the Findings, the site's patterns.
func (m *Model) drill() {
	r, ok := m.cur().list().selected()
	if !ok {
		return
	}
	if r.site != nil {
		m.openSite(r.site)
		return
	}
	d := m.data
	target := r.sym
	if d.rule(target) == nil {
		m.status = fmt.Sprintf("%s is a terminal: it has no rule (c: where it appears)", r.sym)
		return
	}
	m.push()
	g, inGrammar := m.cur().(*grammarModel)
	var crumbs []string
	if inGrammar && r.kind == rowItem {
		crumbs = append(append([]string(nil), g.crumbs...), target)
	} else {
		crumbs = d.path(target)
	}
	if !inGrammar {
		m.view, g = fullView, m.full
	}
	g.enter(crumbs, m.filter())
	g.cursor, g.offset = 0, 0
	m.status = "rule " + target + " (⌫ returns)"
	m.refresh()
}

// openSite narrows the views to a call site's terminals (in the site's
// goroutine group) and shows its patterns; its stacks are in the Count
// view, its values in the Strings view.
func (m *Model) openSite(s *Site) {
	if s.Group != m.group && s.Group < len(m.groups) {
		m.setGroup(s.Group)
	}
	m.push()
	m.site = s
	m.view = patternsView
	m.patterns.cursor, m.patterns.offset = 0, 0
	m.setQuery(m.query)
	m.status = fmt.Sprintf("site %s: its patterns; 4 stacks, 5 strings (⌫ returns)", s.Name)
}

// A place is where the user was before drilling in or jumping, so that
// backspace can return there, across views.
type place struct {
	view   viewID
	crumbs []string
	key    string // the selected row
	site   *Site  // the site the views were narrowed to
}

func (m *Model) push() {
	p := place{view: m.view, crumbs: append([]string(nil), m.crumbs(m.view)...), site: m.site}
	if r, ok := m.cur().list().selected(); ok {
		p.key = rowKey(r)
	}
	m.history = append(m.history, p)
}

// back returns to where the user was before the last drill-in or jump,
// with the same row selected; without history it leaves the rule shown;
// at the top it clears a search.
func (m *Model) back() {
	p, ok := m.backTo()
	if !ok {
		if m.query != "" {
			m.setQuery("")
		}
		return
	}
	m.view = p.view
	if p.site != m.site {
		m.site = p.site
		m.setQuery(m.query)
	}
	v := m.cur()
	l := v.list()
	switch g, ok := v.(*grammarModel); {
	case ok && (strings.Join(g.crumbs, ">") != strings.Join(p.crumbs, ">") || l.rows == nil || l.stale):
		g.enter(p.crumbs, m.filter())
	case !ok && (l.rows == nil || l.stale):
		rebuild(v, m.filter())
	}
	l.selectWhere(func(r row) bool { return rowKey(r) == p.key })
	l.clamp()
	l.scroll()
	m.refresh()
}

// backTo is where back returns: the last place in the history, else the
// rule above the one shown.
func (m *Model) backTo() (place, bool) {
	if n := len(m.history); n > 0 {
		p := m.history[n-1]
		m.history = m.history[:n-1]
		return p, true
	}
	crumbs := m.crumbs(m.view)
	if len(crumbs) == 0 {
		return place{}, false
	}
	left := crumbs[len(crumbs)-1]
	p := place{view: m.view, crumbs: crumbs[:len(crumbs)-1], site: m.site}
	if len(p.crumbs) == 0 {
		p.key = rowKey(row{kind: rowRule, sym: left})
	} else {
		parent := p.crumbs[len(p.crumbs)-1]
		p.key = rowKey(row{kind: rowItem, sym: left, rule: parent, pos: m.data.position(parent, left)})
	}
	return p, true
}

// context jumps to where the selected symbol appears: the item in its
// parent rule, in the Full Grammar. Pressed again on that item, it goes to
// the next place the symbol appears.
func (m *Model) context() {
	r, ok := m.cur().list().selected()
	if !ok {
		return
	}
	sym := r.sym
	if r.kind == rowSite {
		// A finding appears where its first terminal does.
		s := r.site
		if len(s.Letters) == 0 || s.Group != m.group || m.data == nil {
			m.status = s.Name + ": its terminals are in another goroutine group (enter opens it)"
			return
		}
		sym = s.Letters[0]
	}
	occ := m.data.occurrences(sym)
	if len(occ) == 0 {
		if sym == "S" {
			m.status = "S is the start symbol: it appears nowhere else"
		} else {
			m.status = sym + " appears in no rule"
		}
		return
	}
	next := 0
	if r.kind == rowItem || r.kind == rowPattern {
		// Start after the current place when the row is an occurrence.
		for i, o := range occ {
			if o.rule == r.rule && o.pos == r.pos {
				next = i
				if r.kind == rowItem && m.view == fullView {
					next = (i + 1) % len(occ)
				}
			}
		}
	}
	o := occ[next]
	m.push()
	m.view = fullView
	m.full.enter(m.data.path(o.rule), m.filter())
	m.full.selectWhere(func(x row) bool { return x.rule == o.rule && x.pos == o.pos })
	m.full.clamp()
	m.full.scroll()
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
	r, ok := m.cur().list().selected()
	if !ok {
		return
	}
	gs := m.getters(r)
	if len(gs) == 0 {
		m.status = "no getter, read or call behind this row"
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
	set := map[string]bool{}
	for _, g := range gs {
		set[g] = true
	}
	noun := m.delay.nounOf(set)
	if len(gs) == 1 {
		noun = strings.TrimSuffix(noun, "s")
	}
	m.status = fmt.Sprintf("%s %d %s; %d marked in all (d: delay command)", verb, len(gs), noun, len(m.marked))
	m.refreshDetails()
}
