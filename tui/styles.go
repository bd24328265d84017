package tui

import "github.com/charmbracelet/lipgloss"

// styles are all the viewer's styles. Colors adapt to light and dark
// terminals; with NO_COLOR set, lipgloss renders none.
type styles struct {
	title, tab, activeTab  lipgloss.Style
	selected, marked, dim  lipgloss.Style
	increasing, varying    lipgloss.Style
	decreasing, constant   lipgloss.Style
	pane, paneTitle        lipgloss.Style
	status, errorText, key lipgloss.Style
}

func newStyles() styles {
	accent := lipgloss.AdaptiveColor{Light: "#5A3FC0", Dark: "#B9A6FF"}
	subtle := lipgloss.AdaptiveColor{Light: "#777777", Dark: "#8A8A8A"}
	return styles{
		title:      lipgloss.NewStyle().Bold(true).Foreground(accent),
		tab:        lipgloss.NewStyle().Foreground(subtle).Padding(0, 1),
		activeTab:  lipgloss.NewStyle().Bold(true).Underline(true).Foreground(accent).Padding(0, 1),
		selected:   lipgloss.NewStyle().Bold(true).Reverse(true),
		marked:     lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#B35C00", Dark: "#FFB454"}),
		dim:        lipgloss.NewStyle().Foreground(subtle),
		increasing: lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#B00020", Dark: "#FF6B6B"}),
		varying:    lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#8A6D00", Dark: "#F2CC60"}),
		decreasing: lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#006B8F", Dark: "#6BCBFF"}),
		constant:   lipgloss.NewStyle().Foreground(subtle),
		pane:       lipgloss.NewStyle().Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(subtle).PaddingLeft(1),
		paneTitle:  lipgloss.NewStyle().Bold(true),
		status:     lipgloss.NewStyle().Foreground(subtle),
		errorText:  lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#B00020", Dark: "#FF6B6B"}),
		key:        lipgloss.NewStyle().Bold(true),
	}
}
