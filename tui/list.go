package tui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/suncat-go/suncat/prioritize"
)

// listView is the sub-model of one view: its rows, cursor and scroll
// position, and in the grammar views the path of rules the user drilled
// into. Each view keeps its own, so switching views and back returns to
// the same place.
type listView struct {
	*common
	id     viewID
	rows   []row
	cursor int
	offset int
	crumbs []string // "S", "A", "C": the rule shown is the last
	stale  bool
	colW   int // width of the notation column
	nameW  int // width of the getter name column
}

type rowKind int

const (
	rowPattern  rowKind = iota // Prioritized Patterns
	rowRule                    // a whole rule, "A -> a^1|2|3|4 B"
	rowItem                    // an item of the rule drilled into
	rowTerminal                // Count Summary, Strings
)

// A row is one line of a list; its text is rendered only when visible.
type row struct {
	kind  rowKind
	sym   string    // the symbol (terminal letter, nonterminal); for rowRule the rule's name
	rule  string    // rowPattern, rowItem: the rule it is an item of
	pos   int       // rowPattern, rowItem: its index in that rule
	line  string    // rowRule: the rule's text
	item  Item      // rowItem
	pat   *Pattern  // rowPattern, and rowItem when known
	term  *Terminal // the terminal, when sym is one
	terms []string  // letters of the terminals it covers
}

func (v *listView) clamp() {
	if v.cursor >= len(v.rows) {
		v.cursor = len(v.rows) - 1
	}
	if v.cursor < 0 {
		v.cursor = 0
	}
}

func (v *listView) scroll() {
	h := v.listHeight()
	if v.cursor < v.offset {
		v.offset = v.cursor
	}
	if v.cursor >= v.offset+h {
		v.offset = v.cursor - h + 1
	}
	if max := len(v.rows) - h; v.offset > max {
		v.offset = max
	}
	if v.offset < 0 {
		v.offset = 0
	}
}

func (v *listView) selected() (row, bool) {
	if v.cursor < len(v.rows) {
		return v.rows[v.cursor], true
	}
	return row{}, false
}

// selectWhere moves the cursor to the first row for which f holds.
func (v *listView) selectWhere(f func(row) bool) bool {
	for i, r := range v.rows {
		if f(r) {
			v.cursor = i
			return true
		}
	}
	return false
}

func rowKey(r row) string {
	return fmt.Sprintf("%d/%s/%s/%d", r.kind, r.sym, r.rule, r.pos)
}

// rebuild recomputes a view's rows, keeping the cursor on the same row
// when it is still there.
func (m *Model) rebuild(v *listView) {
	var keep string
	if r, ok := v.selected(); ok && v.rows != nil {
		keep = rowKey(r)
	}
	d := m.data
	switch v.id {
	case patternsView:
		v.rows = m.patternRows()
	case summarizedView, fullView:
		v.rows = m.grammarRows(v)
	case countView, stringsView:
		v.rows = make([]row, 0, len(d.g.Terminals))
		if v.id == stringsView && len(d.g.SubTraces) > 1 {
			// What varies first, as in the text summary's Strings level.
			for _, r := range m.patternRows() {
				if r.pat.Kind != "constant" {
					v.rows = append(v.rows, r)
				}
			}
		}
		for i := range d.g.Terminals {
			t := &d.g.Terminals[i]
			v.rows = append(v.rows, row{kind: rowTerminal, sym: t.Letter, term: t, terms: []string{t.Letter}})
		}
	}
	if m.query != "" {
		q := strings.ToLower(m.query)
		kept := v.rows[:0:0]
		for _, r := range v.rows {
			if m.matches(v, r, q) {
				kept = append(kept, r)
			}
		}
		v.rows = kept
	}
	if v.rows == nil {
		v.rows = []row{}
	}
	v.stale = false
	v.colW = 0
	for _, r := range v.rows {
		if n := len(m.notationOf(v, r)); n > v.colW {
			v.colW = n
		}
	}
	if v.colW > 18 {
		v.colW = 18
	}
	v.nameW = 0
	for _, r := range v.rows {
		if r.term != nil && len(r.term.Name) > v.nameW {
			v.nameW = len(r.term.Name)
		}
	}
	if v.nameW > 22 {
		v.nameW = 22
	}
	if keep != "" {
		v.selectWhere(func(r row) bool { return rowKey(r) == keep })
	}
	v.clamp()
	v.scroll()
}

func (m *Model) patternRows() []row {
	d := m.data
	ps := m.sum.Patterns(m.group, SortKeys[m.sortBy])
	rows := make([]row, 0, len(ps))
	for i := range ps {
		p := &ps[i]
		if m.kind >= 0 && p.Kind != Kinds[m.kind] {
			continue
		}
		rows = append(rows, row{kind: rowPattern, sym: p.Symbol, rule: p.Rule, pos: p.Position, pat: p, term: d.terminal(p.Symbol), terms: p.Terminals})
	}
	return rows
}

// grammarRows lists the rules (top level) or the items of the rule the
// user drilled into.
func (m *Model) grammarRows(v *listView) []row {
	d := m.data
	if len(v.crumbs) == 0 {
		var lines []string
		if v.id == summarizedView {
			lines = m.sum.Summarized(m.group, m.min, m.detail)
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
	name := v.crumbs[len(v.crumbs)-1]
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

// matches reports whether a row matches the (lower-case) search: its own
// text, or the getter names, stack frames and values of its terminals.
func (m *Model) matches(v *listView, r row, q string) bool {
	if strings.Contains(strings.ToLower(m.rowText(v, r, 1<<20)), q) {
		return true
	}
	for _, l := range r.terms {
		if strings.Contains(m.data.searchText(l), q) {
			return true
		}
	}
	return false
}

// notationOf is a row's symbol with its counts, as the view shows it.
func (m *Model) notationOf(v *listView, r row) string {
	switch r.kind {
	case rowPattern:
		return prioritize.Notation(r.sym, r.pat.Counts)
	case rowItem:
		if v.id == summarizedView && !m.detail {
			return prioritize.SummarizedRP(r.sym, r.item.Counts, false)
		}
		return prioritize.Notation(r.sym, r.item.Counts)
	case rowTerminal:
		if v.id == countView {
			return countLine(r.term)
		}
		return r.sym
	}
	return ""
}

// rowText is a row's plain text at width w (it may be longer; the caller
// cuts it).
func (m *Model) rowText(v *listView, r row, w int) string {
	n := padRight(m.notationOf(v, r), v.colW)
	switch r.kind {
	case rowPattern:
		p := r.pat
		kind := p.Kind
		if v.id == stringsView {
			// The values of the last sub-trace: usually the largest.
			subs := m.data.values(m.sum, m.group, r.terms)
			last := ""
			if k := len(subs) - 1; k >= 0 {
				label := m.data.g.SubTraces[k]
				last = label + ": " + valueList(subs[k], 3)
			}
			return fmt.Sprintf("%s in %-2s %s", n, p.Rule, last)
		}
		if w < 60 {
			return fmt.Sprintf("%-5s %s in %-2s %s", shortKind(kind), n, p.Rule, m.data.getterNames(r.terms))
		}
		if w < 100 {
			return fmt.Sprintf("%-10s %s max %-3d in %-2s %s", kind, n, p.Max, p.Rule, m.data.getterNames(r.terms))
		}
		return fmt.Sprintf("%-10s %s max %-4d trend %+6.2f  in %-2s %s", kind, n, p.Max, p.Trend, p.Rule, m.data.getterNames(r.terms))
	case rowRule:
		return r.line
	case rowItem:
		if r.item.Terminal && r.term != nil {
			return n + "  " + padRight(r.term.Name, v.nameW) + "  " + where(r.term)
		}
		if rr := m.data.rule(r.sym); rr != nil {
			return n + "  " + formatRule(*rr)
		}
		return n
	case rowTerminal:
		t := r.term
		if v.id == countView {
			return fmt.Sprintf("%s  %s  %s", n, padRight(t.Name, v.nameW), where(t))
		}
		var vs []string
		for i, val := range t.Values {
			if i == 4 {
				vs = append(vs, fmt.Sprintf("+%d", len(t.Values)-4))
				break
			}
			vs = append(vs, fmt.Sprintf("%s×%d", strconv.Quote(val.Value), val.Count))
		}
		return fmt.Sprintf("%-3s %s  %s", t.Letter, padRight(t.Name, v.nameW), strings.Join(vs, " "))
	}
	return ""
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

// A rowFormatter gives a list what it needs to draw its rows.
type rowFormatter interface {
	rowText(v *listView, r row, w int) string
	rowStyle(r row) (lipgloss.Style, bool)
	markState(r row) int // 0 none, 1 some, 2 all of the row's getters marked
	emptyText(v *listView) string
}

// View draws the visible rows, and only those, w cells wide: a cursor
// glyph, a mark glyph, the row's text.
func (v *listView) View(f rowFormatter) string {
	w, h := v.listWidth(), v.listHeight()
	st := v.styles
	lines := make([]string, 0, h)
	if len(v.rows) == 0 {
		lines = append(lines, st.dim.Render(truncate(f.emptyText(v), w)))
	}
	for i := v.offset; i < len(v.rows) && i < v.offset+h; i++ {
		r := v.rows[i]
		cursor := " "
		if i == v.cursor {
			cursor = "›"
		}
		mark := " "
		switch f.markState(r) {
		case 2:
			mark = st.marked.Render("*")
		case 1:
			mark = st.marked.Render("+")
		}
		text := truncate(f.rowText(v, r, w-2), w-2)
		if i == v.cursor {
			text = st.cursorRow.Render(padRight(text, w-2))
		} else if style, ok := f.rowStyle(r); ok {
			text = style.Render(text)
		}
		lines = append(lines, cursor+mark+text)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = padRight(l, w)
	}
	return strings.Join(lines, "\n")
}

func (m *Model) emptyText(v *listView) string {
	switch {
	case m.searching && m.input.Value() != "":
		return fmt.Sprintf("(no row matches %q)", strings.TrimSpace(m.input.Value()))
	case m.query != "":
		return fmt.Sprintf("(no row matches %q; esc clears the search)", m.query)
	case v.id == patternsView && m.kind >= 0:
		return fmt.Sprintf("(no %s pattern; f shows other kinds)", Kinds[m.kind])
	}
	return "(nothing to show)"
}

// rowStyle colors a row by the kind of its pattern.
func (m *Model) rowStyle(r row) (lipgloss.Style, bool) {
	if r.pat == nil {
		return lipgloss.Style{}, false
	}
	return m.kindStyle(r.pat.Kind), true
}

func (m *Model) kindStyle(k string) lipgloss.Style {
	switch k {
	case "increasing":
		return m.styles.increasing
	case "varying":
		return m.styles.varying
	case "decreasing":
		return m.styles.decreasing
	}
	return m.styles.constant
}

// markState is 0 when none of a row's getters is marked, 1 when some
// are, 2 when all are.
func (m *Model) markState(r row) int {
	if len(m.marked) == 0 {
		return 0
	}
	gs := m.data.getters(r.terms)
	n := 0
	for _, g := range gs {
		if m.marked[g] {
			n++
		}
	}
	switch {
	case n == 0:
		return 0
	case n == len(gs):
		return 2
	}
	return 1
}

func formatRule(r Rule) string {
	var b strings.Builder
	b.WriteString(r.Name + " ->")
	for _, it := range r.Items {
		b.WriteString(" " + prioritize.Notation(it.Sym, it.Counts))
	}
	return b.String()
}

func countLine(t *Terminal) string {
	if len(t.PerSub) > 1 {
		return prioritize.Notation(t.Letter, t.PerSub)
	}
	return t.Letter + "^" + strconv.Itoa(t.Total)
}

// where describes a terminal's call site: the caller of the getter.
func where(t *Terminal) string {
	if len(t.Frames) >= 2 {
		f := t.Frames[1]
		return fmt.Sprintf("%s (%s:%d)", shortFunc(f.Func), filepath.Base(f.File), f.Line)
	}
	if len(t.Frames) == 1 {
		return fmt.Sprintf("%s:%d", filepath.Base(t.Frames[0].File), t.Frames[0].Line)
	}
	return ""
}

// shortFunc drops the import path: main.(*app).open.func1 stays,
// example.com/m/model.(*Stop).Name becomes model.(*Stop).Name.
func shortFunc(f string) string {
	if i := strings.LastIndex(f, "/"); i >= 0 {
		return f[i+1:]
	}
	return f
}

func maxInt(xs []int) int {
	m := 0
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// truncate cuts s to w cells, ending in "…" when cut.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	if len(r) > w {
		r = r[:w]
	}
	for len(r) > 0 && lipgloss.Width(string(r)) > w-1 {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

func padRight(s string, w int) string {
	if n := lipgloss.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
