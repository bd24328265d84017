package tui

import "github.com/charmbracelet/lipgloss"

// styles are all the viewer's styles, in one place. Colors are adaptive
// (one shade for light, one for dark backgrounds); with NO_COLOR set, or on
// a terminal without colors, lipgloss renders none, and nothing the viewer
// shows depends on color alone (the cursor is a glyph, kinds are words).
type styles struct {
	title, header, tab, activeTab         lipgloss.Style
	cursorRow, marked, dim, crumb, search lipgloss.Style
	increasing, varying                   lipgloss.Style
	decreasing, constant                  lipgloss.Style
	pane, paneTitle, spark                lipgloss.Style
	status, errorText, key, box           lipgloss.Style
}

func newStyles() styles {
	accent := lipgloss.AdaptiveColor{Light: "#5A3FC0", Dark: "#B9A6FF"}
	subtle := lipgloss.AdaptiveColor{Light: "#6C6C6C", Dark: "#9A9A9A"}
	warm := lipgloss.AdaptiveColor{Light: "#A14F00", Dark: "#FFB454"}
	red := lipgloss.AdaptiveColor{Light: "#B00020", Dark: "#FF7B7B"}
	s := styles{
		title:      lipgloss.NewStyle().Bold(true).Foreground(accent),
		header:     lipgloss.NewStyle(),
		tab:        lipgloss.NewStyle().Foreground(subtle).Padding(0, 1),
		activeTab:  lipgloss.NewStyle().Bold(true).Underline(true).Foreground(accent).Padding(0, 1),
		cursorRow:  lipgloss.NewStyle().Bold(true).Reverse(true),
		marked:     lipgloss.NewStyle().Bold(true).Foreground(warm),
		dim:        lipgloss.NewStyle().Foreground(subtle),
		crumb:      lipgloss.NewStyle().Bold(true).Foreground(accent),
		search:     lipgloss.NewStyle().Foreground(warm),
		increasing: lipgloss.NewStyle().Foreground(red),
		varying:    lipgloss.NewStyle().Foreground(warm),
		decreasing: lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#006B8F", Dark: "#6BCBFF"}),
		constant:   lipgloss.NewStyle(),
		pane:       lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(subtle).PaddingLeft(1),
		paneTitle:  lipgloss.NewStyle().Bold(true).Foreground(accent),
		spark:      lipgloss.NewStyle().Foreground(warm),
		status:     lipgloss.NewStyle().Foreground(subtle),
		errorText:  lipgloss.NewStyle().Foreground(red),
		key:        lipgloss.NewStyle().Bold(true),
		box:        lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(0, 1),
	}
	return s
}
