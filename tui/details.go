package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// detailValues bounds the values listed in the details pane.
const detailValues = 50

// detailsModel is the details pane beside the list: everything about the
// selected row (call stack, values, counts per sub-trace), scrolled with
// its own keys.
type detailsModel struct {
	*common
	vp viewport.Model
}

func newDetails(c *common) *detailsModel {
	return &detailsModel{common: c, vp: viewport.New(30, 10)}
}

// resize fits the pane to the terminal.
func (m *detailsModel) resize() {
	m.vp.Width = max(m.detailsWidth(), 1)
	m.vp.Height = m.listHeight()
}

// key scrolls the pane.
func (m *detailsModel) key(msg tea.KeyMsg) bool {
	switch {
	case key.Matches(msg, m.keys.DetailsUp):
		m.vp.HalfPageUp()
	case key.Matches(msg, m.keys.DetailsDown):
		m.vp.HalfPageDown()
	default:
		return false
	}
	return true
}

// show fills the pane for row r (nothing when there is none).
func (m *detailsModel) show(r row, ok bool) {
	if m.data == nil || !ok {
		m.vp.SetContent("")
		return
	}
	var b strings.Builder
	w := m.vp.Width
	if r.term != nil {
		m.terminalDetails(&b, r, r.term, w)
	} else {
		m.symbolDetails(&b, r, w)
	}
	m.vp.SetContent(strings.TrimRight(b.String(), "\n"))
	m.vp.GotoTop()
}

// showSite fills the pane for a row of the Findings (the sizes and the
// repeated action alone when there is none).
func (m *detailsModel) showSite(r row, ok bool, fs *Findings) {
	var b strings.Builder
	if ok && r.site != nil {
		m.siteDetails(&b, r.site, fs, m.vp.Width)
	} else {
		m.actionDetails(&b, fs, m.vp.Width)
	}
	m.vp.SetContent(strings.TrimLeft(strings.TrimRight(b.String(), "\n"), "\n"))
	m.vp.GotoTop()
}

// view is the pane, its last line saying how to see more when the content
// goes on below.
func (m *detailsModel) view() string {
	view := m.vp.View()
	if m.vp.AtBottom() || m.vp.Height < 2 {
		return view
	}
	lines := strings.Split(view, "\n")
	below := m.vp.TotalLineCount() - m.vp.YOffset - m.vp.Height + 1
	more := fmt.Sprintf("↓ %d more lines (ctrl+d)", below)
	lines[len(lines)-1] = m.styles.dim.Render(padRight(truncate(more, m.vp.Width), m.vp.Width))
	return strings.Join(lines, "\n")
}

func (m *detailsModel) heading(b *strings.Builder, s string) {
	b.WriteString("\n" + m.styles.paneTitle.Render(s) + "\n")
}

func (m *detailsModel) terminalDetails(b *strings.Builder, r row, t *Terminal, w int) {
	st := m.styles
	fmt.Fprintf(b, "%s %s\n", st.paneTitle.Render("terminal "+t.Letter), t.Name)
	if t.Getter != "" {
		b.WriteString(wrap(t.Getter, w) + "\n")
		if t.Field != "" {
			b.WriteString(st.dim.Render(wrap(fieldText(t.Field), w)) + "\n")
		}
		if m.marked[t.Getter] {
			b.WriteString(st.marked.Render("* marked for delay") + "\n")
		}
	}
	if r.pat != nil {
		m.patternSummary(b, r.pat, w)
	}
	m.heading(b, "calls per sub-trace")
	b.WriteString(m.perSub(t.PerSub(), w))
	fmt.Fprintf(b, "%d in all\n", t.Total)

	m.heading(b, fmt.Sprintf("values (%d distinct)", len(t.Values)))
	for i, v := range t.Values {
		if i == detailValues {
			fmt.Fprintf(b, "… %d more\n", len(t.Values)-detailValues)
			break
		}
		b.WriteString(wrap(fmt.Sprintf("%4d× %s", v.Count, quoteValue(v.Value)), w) + "\n")
	}
	if t.NSub > 1 {
		m.bySub(b, t.BySub(), w)
	}
	m.heading(b, "call stack")
	for _, f := range t.Frames {
		b.WriteString(wrap(f.Func, w) + "\n")
		b.WriteString(st.dim.Render(wrapIndent(fmt.Sprintf("  %s:%d", f.File, f.Line), w, "    ")) + "\n")
	}
}

// symbolDetails describes a nonterminal (or a rule line, or an item whose
// terminal is unknown): its rule, where it appears, how it varies, and its
// terminals.
func (m *detailsModel) symbolDetails(b *strings.Builder, r row, w int) {
	st := m.styles
	d := m.data
	sym := r.sym
	fmt.Fprintf(b, "%s\n", st.paneTitle.Render("nonterminal "+sym))
	if rr := d.rule(sym); rr != nil {
		b.WriteString(wrapIndent(formatRule(*rr), w, "  ") + "\n")
	}
	if r.pat != nil {
		m.patternSummary(b, r.pat, w)
	}
	occ := d.occurrences(sym)
	if len(occ) > 0 {
		m.heading(b, "appears in")
		for _, o := range occ {
			line := o.rule + " -> "
			if p := d.pattern(o.rule, o.pos); p != nil {
				line += p.Notation + "  " + m.kindStyle(p.Kind).Render(p.Kind)
			} else if r := d.rule(o.rule); r != nil && o.pos < len(r.Items) {
				line += r.Items[o.pos].Notation // its pattern not kept
			}
			b.WriteString(wrapIndent(line, w, "  ") + "\n")
		}
	} else if sym == "S" {
		b.WriteString(st.dim.Render("the start symbol") + "\n")
	}
	if len(r.terms) > 0 && len(m.data.g.SubTraces) > 1 {
		m.bySub(b, m.data.values(r.terms), w)
	}
	if len(r.terms) > 0 {
		m.heading(b, fmt.Sprintf("terminals (%d)", len(r.terms)))
		for i, l := range r.terms {
			if i == detailValues {
				fmt.Fprintf(b, "… %d more\n", len(r.terms)-detailValues)
				break
			}
			t := d.terminal(l)
			if t == nil {
				continue
			}
			mark := " "
			if t.Getter != "" && m.marked[t.Getter] {
				mark = st.marked.Render("*")
			}
			b.WriteString(mark + wrapIndent(l+" "+t.Name, w-1, "  ") + "\n")
			b.WriteString(st.dim.Render(wrapIndent("  "+where(t), w, "    ")) + "\n")
		}
	}
}

// bySub prints the values of each sub-trace, a few per line.
func (m *detailsModel) bySub(b *strings.Builder, subs [][]Value, w int) {
	m.heading(b, "values by sub-trace")
	labels := m.data.g.SubTraces
	for i, vs := range subs {
		label := strconv.Itoa(i + 1)
		if i < len(labels) && labels[i] != "" {
			label = labels[i]
		}
		b.WriteString(wrapIndent(label+": "+valueList(vs, 3), w, "  ") + "\n")
	}
}

// valueList prints up to max values with their counts.
func valueList(vs []Value, max int) string {
	if len(vs) == 0 {
		return "-"
	}
	var parts []string
	for j, v := range vs {
		if j == max {
			parts = append(parts, fmt.Sprintf("+%d", len(vs)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%s×%d", quoteValue(v.Value), v.Count))
	}
	return strings.Join(parts, " ")
}

// patternSummary prints a pattern's classification and its series.
func (m *detailsModel) patternSummary(b *strings.Builder, p *Pattern, w int) {
	m.heading(b, "pattern "+p.Notation+" in "+p.Rule)
	b.WriteString(m.kindStyle(p.Kind).Render(p.Kind))
	fmt.Fprintf(b, ", max %d, trend %+.2f\n", p.Max, p.Trend)
	b.WriteString(m.perSub(p.Series, w))
}

// perSub draws counts as a sparkline with the numbers beside it.
func (m *detailsModel) perSub(xs []int, w int) string {
	if len(xs) == 0 {
		return m.styles.dim.Render("(none)") + "\n"
	}
	spark := sparkline(xs, w-2)
	nums := make([]string, len(xs))
	for i, x := range xs {
		nums[i] = strconv.Itoa(x)
	}
	return m.styles.spark.Render(spark) + "  " + wrap(strings.Join(nums, " "), w-len([]rune(spark))-2) + "\n"
}

// sparkline draws counts as bars, at most w of them (the last ones).
func sparkline(xs []int, w int) string {
	if w > 0 && len(xs) > w {
		xs = xs[len(xs)-w:]
	}
	bars := []rune("▁▂▃▄▅▆▇█")
	max := maxInt(xs)
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

// wrap breaks s into lines of at most w cells, preferring to break after
// a path or name separator.
func wrap(s string, w int) string { return wrapIndent(s, w, "") }

// wrapIndent is wrap with an indent before every line but the first.
func wrapIndent(s string, w int, indent string) string {
	if w < 8 {
		w = 8
	}
	r := []rune(s)
	var lines []string
	first := true
	for {
		lim := w
		if !first {
			lim = w - len([]rune(indent))
		}
		if len(r) <= lim {
			break
		}
		cut := lim
	search:
		for _, seps := range []string{" ", "/", ".,(|"} {
			for i := lim; i > lim/2; i-- {
				if strings.ContainsRune(seps, r[i-1]) {
					cut = i
					break search
				}
			}
		}
		lines = append(lines, string(r[:cut]))
		r = r[cut:]
		first = false
	}
	lines = append(lines, string(r))
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	return strings.Join(lines, "\n")
}
