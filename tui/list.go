package tui

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// A viewModel is the sub-model of one view: it builds its rows from the
// group shown, writes them, and handles the keys of its own settings. The
// list it embeds keeps its cursor and scroll position, so switching views
// and back returns to the same place.
type viewModel interface {
	list() *listModel
	// rowsOf returns the view's rows, before a search narrows them.
	rowsOf() []row
	// notation is a row's symbol with its counts, as the view shows it.
	notation(r row) string
	// text is a row's plain text at width w (it may be longer; the list
	// cuts it).
	text(r row, w int) string
	// empty is what the view says when it has no row (a search aside).
	empty() string
	// settings describe the view's settings for the status line.
	settings() []string
	// update handles a key that changes one of the view's settings: the
	// message to show and the views whose rows it makes stale.
	update(msg tea.KeyMsg) (status string, stale []viewID, ok bool)
	// reset forgets the rows and the place, for another goroutine group.
	reset()
}

// listModel is the list every view embeds: its rows, cursor and scroll
// position, and the widths of its columns. Its methods are the defaults
// of a viewModel's.
type listModel struct {
	*common
	rows   []row
	cursor int
	offset int
	stale  bool
	colW   int // width of the notation column
	nameW  int // width of the getter name column
}

func (l *listModel) list() *listModel { return l }
func (l *listModel) empty() string    { return "(nothing to show)" }
func (l *listModel) settings() []string {
	return nil
}
func (l *listModel) update(tea.KeyMsg) (string, []viewID, bool) { return "", nil, false }
func (l *listModel) reset()                                     { *l = listModel{common: l.common} }

type rowKind int

const (
	rowPattern  rowKind = iota // Prioritized Patterns
	rowRule                    // a whole rule, "A -> a^1|2|3|4 B"
	rowItem                    // an item of the rule drilled into
	rowTerminal                // Count Summary, Strings
	rowSite                    // Findings
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
	site  *Site     // rowSite
}

func rowKey(r row) string {
	return fmt.Sprintf("%d/%s/%s/%d", r.kind, r.sym, r.rule, r.pos)
}

func (l *listModel) clamp() {
	if l.cursor >= len(l.rows) {
		l.cursor = len(l.rows) - 1
	}
	if l.cursor < 0 {
		l.cursor = 0
	}
}

func (l *listModel) scroll() {
	h := l.listHeight()
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+h {
		l.offset = l.cursor - h + 1
	}
	if max := len(l.rows) - h; l.offset > max {
		l.offset = max
	}
	if l.offset < 0 {
		l.offset = 0
	}
}

func (l *listModel) selected() (row, bool) {
	if l.cursor < len(l.rows) {
		return l.rows[l.cursor], true
	}
	return row{}, false
}

// selectWhere moves the cursor to the first row for which f holds.
func (l *listModel) selectWhere(f func(row) bool) bool {
	for i, r := range l.rows {
		if f(r) {
			l.cursor = i
			return true
		}
	}
	return false
}

func (l *listModel) move(d int) {
	l.cursor += d
	l.clamp()
	l.scroll()
}

// navKey moves the cursor for the keys that do so.
func (l *listModel) navKey(msg tea.KeyMsg) bool {
	k := l.keys
	switch {
	case key.Matches(msg, k.Up):
		l.move(-1)
	case key.Matches(msg, k.Down):
		l.move(1)
	case key.Matches(msg, k.PageUp):
		l.move(-l.listHeight())
	case key.Matches(msg, k.PageDown):
		l.move(l.listHeight())
	case key.Matches(msg, k.Top):
		l.move(-len(l.rows))
	case key.Matches(msg, k.Bottom):
		l.move(len(l.rows))
	default:
		return false
	}
	return true
}

// A filter narrows every view but the Findings: to the rows that match a
// search (lower or upper case), and to those of one call site's terminals.
type filter struct {
	query string
	site  map[string]bool // letters of the site's terminals; nil: every row
}

// keeps reports whether the filter keeps row r of view v.
func (f filter) keeps(v viewModel, r row) bool {
	if r.kind == rowSite {
		return f.query == "" || v.list().matches(v, r, strings.ToLower(f.query))
	}
	if f.site != nil && !anyIn(r.terms, f.site) {
		return false
	}
	return f.query == "" || v.list().matches(v, r, strings.ToLower(f.query))
}

func anyIn(xs []string, set map[string]bool) bool {
	for _, x := range xs {
		if set[x] {
			return true
		}
	}
	return false
}

// rebuild recomputes a view's rows through a filter, keeping the cursor on
// the same row when it is still there.
func rebuild(v viewModel, f filter) {
	l := v.list()
	var keep string
	if r, ok := l.selected(); ok && l.rows != nil {
		keep = rowKey(r)
	}
	rows := v.rowsOf()
	if f.query != "" || f.site != nil {
		kept := rows[:0:0]
		for _, r := range rows {
			if f.keeps(v, r) {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	if rows == nil {
		rows = []row{}
	}
	l.rows, l.stale = rows, false
	l.colW, l.nameW = 0, 0
	for _, r := range rows {
		l.colW = max(l.colW, len(v.notation(r)))
		if r.term != nil {
			l.nameW = max(l.nameW, len(r.term.Name))
		}
	}
	l.colW, l.nameW = min(l.colW, 18), min(l.nameW, 22)
	if keep != "" {
		l.selectWhere(func(r row) bool { return rowKey(r) == keep })
	}
	l.clamp()
	l.scroll()
}

// matches reports whether a row matches the (lower-case) search: its own
// text, or the getter names, stack frames and values of its terminals.
func (l *listModel) matches(v viewModel, r row, q string) bool {
	if strings.Contains(strings.ToLower(v.text(r, 1<<20)), q) {
		return true
	}
	for _, t := range r.terms {
		if strings.Contains(l.data.searchText(t), q) {
			return true
		}
	}
	return false
}

// render draws the visible rows of view v, and only those: a cursor
// glyph, a mark glyph, the row's text; empty is what an empty list says.
func (l *listModel) render(v viewModel, empty string) string {
	w, h := l.listWidth(), l.listHeight()
	st := l.styles
	lines := make([]string, 0, h)
	if len(l.rows) == 0 {
		lines = append(lines, st.dim.Render(truncate(empty, w)))
	}
	for i := l.offset; i < len(l.rows) && i < l.offset+h; i++ {
		r := l.rows[i]
		cursor := " "
		if i == l.cursor {
			cursor = "›"
		}
		mark := " "
		switch l.markState(r) {
		case 2:
			mark = st.marked.Render("*")
		case 1:
			mark = st.marked.Render("+")
		}
		text := truncate(v.text(r, w-2), w-2)
		if i == l.cursor {
			text = st.cursorRow.Render(padRight(text, w-2))
		} else if r.pat != nil {
			text = l.kindStyle(r.pat.Kind).Render(text)
		}
		lines = append(lines, cursor+mark+text)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, line := range lines {
		lines[i] = padRight(line, w)
	}
	return strings.Join(lines, "\n")
}

// kindStyle colors a pattern by its kind.
func (c *common) kindStyle(k string) lipgloss.Style {
	switch k {
	case "increasing":
		return c.styles.increasing
	case "varying":
		return c.styles.varying
	case "decreasing":
		return c.styles.decreasing
	}
	return c.styles.constant
}

// markState is 0 when none of a row's getters is marked, 1 when some
// are, 2 when all are.
func (c *common) markState(r row) int {
	if len(c.marked) == 0 {
		return 0
	}
	gs := c.getters(r)
	n := 0
	for _, g := range gs {
		if c.marked[g] {
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

// getters returns the full names of the getters behind a row.
func (c *common) getters(r row) []string {
	if r.site != nil {
		if r.site.Getter == "" {
			return nil
		}
		return []string{r.site.Getter}
	}
	return c.data.getters(r.terms)
}

// formatRule writes a rule of the Full Grammar; one whose items the
// summary cut ends in " ...".
func formatRule(r Rule) string {
	var b strings.Builder
	b.WriteString(r.Name + " ->")
	for _, it := range r.Items {
		b.WriteString(" " + it.Notation)
	}
	if r.More > 0 {
		b.WriteString(" ...")
	}
	return b.String()
}

// where describes a terminal's call site: the caller of the getter (and,
// where the summary gave it, the frame that tells it from another).
func where(t *Terminal) string {
	if t.Where != "" {
		return t.Where
	}
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
		m = max(m, x)
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
