package tui

import (
	"fmt"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

// findingsModel is the Findings view, the one the viewer opens on: the
// call sites that grow with the input size, ranked, over all goroutine
// groups. Enter on a site shows its patterns, stacks and strings (the
// other views, narrowed to the site's terminals).
type findingsModel struct {
	listModel
	findings *Findings // the Summary's, read once
	famW     int       // width of the family column (a suite's findings)
}

// reset keeps the place: the findings do not depend on the group shown.
func (f *findingsModel) reset() { f.stale = true }

func (f *findingsModel) load() *Findings {
	if f.findings == nil && f.data != nil {
		fs := f.data.sum.Findings()
		f.findings = &fs
	}
	return f.findings
}

func (f *findingsModel) rowsOf() []row {
	fs := f.load()
	if fs == nil {
		return nil
	}
	rows := make([]row, len(fs.Sites))
	f.famW = 0
	for i := range fs.Sites {
		s := &fs.Sites[i]
		rows[i] = row{kind: rowSite, sym: s.Name, rule: s.Where, pos: i, site: s}
		f.famW = max(f.famW, len([]rune(s.Family)))
	}
	f.famW = min(f.famW, 28)
	return rows
}

func (f *findingsModel) empty() string {
	if fs := f.load(); fs != nil && fs.None != "" {
		return fs.None
	}
	return "no call site grows with the input"
}

func (f *findingsModel) settings() []string {
	if fs := f.load(); fs != nil && fs.Sizes != "" {
		return []string{fs.Sizes}
	}
	return nil
}

// notation is a site's calls per sub-trace.
func (f *findingsModel) notation(r row) string { return prioritize.CountList(r.site.Counts) }

// text is a site's class, calls per sub-trace (when wide enough; the
// details pane has them), predicted count, the responsible frame (the
// function whose loop makes the calls grow, first, as in the summary's
// findings) and the getter.
// A suite's findings start with their family's name.
func (f *findingsModel) text(r row, w int) string {
	s := r.site
	fam := ""
	if s.Family != "" {
		fam = padRight(truncateLeft(s.Family, f.famW), f.famW) + "  "
	}
	if w < 60 {
		return fmt.Sprintf("%s%-9s → %-6s %s  %s", fam, s.Class, s.Predicted, s.Where, s.Name)
	}
	return fmt.Sprintf("%s%-9s %s → %-7s %s  %s", fam, s.Class, padRight(f.notation(r), f.colW), s.Predicted, s.Where, s.Name)
}

// siteDetails describes a finding, as the summary does: the responsible
// frame first, then its top getter, its class and fit, its counts, the
// prediction, its stack down to the distinguishing frame, its value.
func (m *detailsModel) siteDetails(b *strings.Builder, s *Site, fs *Findings, w int) {
	st := m.styles
	// Wrapped as plain text, then the title styled.
	where := strings.TrimPrefix(wrap("finding "+s.Where, w), "finding")
	b.WriteString(st.paneTitle.Render("finding") + where + "\n")
	if s.Family != "" {
		b.WriteString(wrap("in test family "+s.Family, w) + "\n")
	}
	b.WriteString(wrap(s.Name, w) + "\n")
	if s.Getter != "" {
		b.WriteString(wrap(s.Getter, w) + "\n")
		if m.marked[s.Getter] {
			b.WriteString(st.marked.Render("* marked for delay") + "\n")
		}
	}
	if s.Covers != "" {
		b.WriteString(wrap(s.Covers, w) + "\n")
	}
	if s.Clock != "" {
		b.WriteString(wrap(s.Clock, w) + "\n")
	}
	m.heading(b, "grows as "+s.Class)
	if s.Fit != "" {
		b.WriteString(wrap(s.Fit, w) + "\n")
	}
	if s.Prediction != "" {
		b.WriteString(wrap("predicted calls: "+s.Prediction, w) + "\n")
	}
	if s.Family != "" {
		m.heading(b, "calls per size")
	} else {
		m.heading(b, "calls per sub-trace")
	}
	b.WriteString(m.perSub(s.Counts, w))
	if s.Value.Count > 0 {
		m.heading(b, "most repeated value")
		b.WriteString(wrap(fmt.Sprintf("%4d× %s", s.Value.Count, quoteValue(s.Value.Value)), w) + "\n")
	}
	m.heading(b, "stack down to it")
	for _, f := range s.Stack {
		b.WriteString(wrap(f.Func, w) + "\n")
		b.WriteString(st.dim.Render(wrapIndent(fmt.Sprintf("  %s:%d", f.File, f.Line), w, "    ")) + "\n")
	}
	b.WriteString("\n" + st.dim.Render(wrap("enter: its patterns, stacks and strings", w)) + "\n")
	if s.Family != "" {
		m.heading(b, "the test family")
		for _, l := range []string{s.Family + ": " + s.FamilySizes, s.FamilyTime} {
			if l != "" {
				b.WriteString(wrap(l, w) + "\n")
			}
		}
		return
	}
	m.actionDetails(b, fs, w)
}

// actionDetails describes the sizes (and the actions they mix), the
// repeated action's time and whether it grows faster than the findings.
func (m *detailsModel) actionDetails(b *strings.Builder, fs *Findings, w int) {
	if fs == nil || fs.Sizes == "" && fs.Time == "" && fs.Mixed == "" && fs.Apart == "" && fs.Jump == "" && fs.Uneven == "" {
		return
	}
	m.heading(b, "the repeated action")
	for _, l := range []string{fs.Sizes, fs.Mixed, fs.Apart, fs.Time, fs.Unseen, fs.Jump, fs.Uneven} {
		if l != "" {
			b.WriteString(wrap(l, w) + "\n")
		}
	}
}

// truncateLeft cuts s to w cells keeping its end, where a family's name
// differs from its siblings' ("…size=#/fn=ExtractTo, per op").
func truncateLeft(s string, w int) string {
	r := []rune(s)
	if len(r) <= w || w < 2 {
		return s
	}
	return "…" + string(r[len(r)-w+1:])
}
