package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
)

// View renders the screen: a header line, the tabs, the list beside the
// details pane, a status line and the help line; overlays replace the body.
func (m *Model) View() string {
	switch m.state {
	case stateLoading:
		return m.loadingView()
	case stateFailed:
		return "\n  " + m.styles.errorText.Render(truncate("suncat: "+m.err.Error(), m.width-2)) + "\n\n  " + m.styles.dim.Render("q quits") + "\n"
	}
	if m.data == nil {
		return "\n  " + m.opt.Title + ": no events in any sub-trace\n\n  " + m.styles.dim.Render("q quits") + "\n"
	}
	h := m.listHeight()
	var body string
	switch m.overlay {
	case helpOverlay:
		body = m.helpView(h)
	case delayOverlay:
		body = m.delay.view(h)
	default:
		v := m.cur()
		list := v.list().render(v, m.emptyText(v))
		if dw := m.detailsWidth(); dw >= 10 {
			pane := m.styles.pane.Height(h).MaxHeight(h).Render(m.details.view())
			body = lipgloss.JoinHorizontal(lipgloss.Top, list, " ", pane)
		} else {
			body = list
		}
	}
	return m.header() + "\n" + m.tabs() + "\n" + body + "\n" + m.statusLine() + "\n" + m.helpLine()
}

// emptyText is what an empty list says: why the search found nothing, or
// the view's own word.
func (m *Model) emptyText(v viewModel) string {
	switch {
	case m.searching && m.input.Value() != "":
		return fmt.Sprintf("(no row matches %q)", strings.TrimSpace(m.input.Value()))
	case m.query != "":
		return fmt.Sprintf("(no row matches %q; esc clears the search)", m.query)
	}
	return v.empty()
}

func (m *Model) loadingView() string {
	st := m.styles
	p := m.progress
	var b strings.Builder
	b.WriteString("\n  " + m.spinner.View() + " " + st.title.Render("suncat") + " " + m.opt.Title + "\n\n")
	b.WriteString(truncate("  "+progressLine(p), m.width) + "\n")
	var counts []string
	if p.Bytes > 0 {
		counts = append(counts, fmt.Sprintf("%.1f MB", float64(p.Bytes)/1e6))
	}
	if p.Events > 0 {
		counts = append(counts, thousands(p.Events)+" events")
	}
	counts = append(counts, time.Since(m.started).Round(100*time.Millisecond).String())
	b.WriteString("  " + st.dim.Render(strings.Join(counts, " · ")) + "\n\n")
	b.WriteString("  " + st.dim.Render("q quits") + "\n")
	return b.String()
}

// progressLine says what the loader is at: the phase, the file, and
// which of several files is read, or how many were once all are.
func progressLine(p Progress) string {
	line := p.Phase
	if line == "" {
		line = "starting"
	}
	if p.File != "" {
		line += " " + filepath.Base(p.File)
	}
	switch {
	case p.Files > 1 && p.FilesDone < p.Files:
		line += fmt.Sprintf(" (file %d of %d)", p.FilesDone+1, p.Files)
	case p.Files > 1:
		line += fmt.Sprintf(" (%d files read)", p.Files)
	}
	return line
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// header names the goroutine group shown; with several, which one of how
// many comes first, so that a narrow terminal cuts the description instead.
func (m *Model) header() string {
	g := m.groups[m.group]
	groups := ""
	if len(m.groups) > 1 {
		groups = m.styles.dim.Render(fmt.Sprintf("[%d/%d o] ", m.group+1, len(m.groups)))
	}
	return truncate(m.styles.title.Render("suncat")+" "+groups+g.Header, m.width)
}

func (m *Model) tabs() string {
	var parts []string
	for i := viewID(0); i < numViews; i++ {
		label := fmt.Sprintf("%d %s", i, viewNames[i])
		if i == m.view {
			parts = append(parts, m.styles.activeTab.Render(label))
		} else {
			parts = append(parts, m.styles.tab.Render(label))
		}
	}
	return truncate(strings.Join(parts, ""), m.width)
}

// statusLine shows where the user is (breadcrumb, search, sort, filter,
// threshold) and the last action's message.
func (m *Model) statusLine() string {
	if m.searching {
		return truncate(m.input.View(), m.width)
	}
	st := m.styles
	v := m.cur()
	var bits []string
	if crumbs := m.crumbs(m.view); len(crumbs) > 0 {
		bits = append(bits, st.crumb.Render(strings.Join(crumbs, " > ")))
	}
	if m.site != nil && m.view != findingsView {
		bits = append(bits, st.crumb.Render("site "+m.site.Name))
	}
	if m.query != "" {
		bits = append(bits, st.search.Render(fmt.Sprintf("/%s", m.query)))
	}
	bits = append(bits, v.settings()...)
	if l := v.list(); len(l.rows) > 0 {
		bits = append(bits, fmt.Sprintf("%d/%d", l.cursor+1, len(l.rows)))
	}
	if len(m.marked) > 0 {
		bits = append(bits, st.marked.Render(fmt.Sprintf("%d marked", len(m.marked))))
	}
	line := strings.Join(bits, st.dim.Render(" · "))
	if m.status != "" {
		line += st.dim.Render("  " + m.status)
	}
	return truncate(line, m.width)
}

func (m *Model) helpLine() string {
	return truncate(m.help.ShortHelpView(m.keys.ShortHelp()), m.width)
}

// helpView is the full key list, in as many columns as fit.
func (m *Model) helpView(h int) string {
	st := m.styles
	var entries []string
	for _, col := range m.keys.FullHelp() {
		for _, k := range col {
			entries = append(entries, st.key.Render(padRight(k.Help().Key, 10))+" "+k.Help().Desc)
		}
	}
	const colW = 36
	cols := m.width / colW
	if cols < 1 {
		cols = 1
	}
	rows := (len(entries) + cols - 1) / cols
	var b strings.Builder
	b.WriteString(st.title.Render("Keys") + "  " + st.dim.Render("(any key closes this help)") + "\n\n")
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if i := c*rows + r; i < len(entries) {
				b.WriteString(padRight(entries[i], colW))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + st.dim.Render("Kinds: increasing, varying, decreasing, constant over the sub-traces.") + "\n")
	return fit(b.String(), m.width, h)
}

// fit cuts or pads text to w x h.
func fit(text string, w, h int) string {
	lines := strings.Split(text, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = truncate(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
