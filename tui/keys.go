package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyMap is every key of the viewer, with its help; the help overlay and
// the footer are generated from it, and doc/view.md's key table follows it.
type keyMap struct {
	NextView, PrevView                       key.Binding
	View0, View1, View2, View3, View4, View5 key.Binding
	Up, Down, PageUp, PageDown, Top, Bottom  key.Binding
	DetailsUp, DetailsDown                   key.Binding
	Enter, Back, Context                     key.Binding
	Search, Sort, Filter                     key.Binding
	More, Less, MaxDetail                    key.Binding
	Mark, Delay, Group                       key.Binding
	Help, Close, Quit                        key.Binding
}

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		NextView:    b("tab", "next view", "tab"),
		PrevView:    b("shift+tab", "previous view", "shift+tab"),
		View0:       b("0", "Findings", "0"),
		View1:       b("1", "Prioritized Patterns", "1"),
		View2:       b("2", "Summarized Grammar", "2"),
		View3:       b("3", "Full Grammar", "3"),
		View4:       b("4", "Count Summary", "4"),
		View5:       b("5", "Strings", "5"),
		Up:          b("↑/k", "up", "up", "k"),
		Down:        b("↓/j", "down", "down", "j"),
		PageUp:      b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown:    b("pgdn", "page down", "pgdown", "ctrl+f"),
		Top:         b("home/g", "first row", "home", "g"),
		Bottom:      b("end/G", "last row", "end", "G"),
		DetailsUp:   b("ctrl+u", "details up", "ctrl+u", "shift+up", "K"),
		DetailsDown: b("ctrl+d", "details down", "ctrl+d", "shift+down", "J"),
		Enter:       b("enter", "drill in", "enter", "right", "l"),
		Back:        b("⌫", "back", "backspace", "left", "h"),
		Context:     b("c", "where it appears", "c"),
		Search:      b("/", "search", "/"),
		Sort:        b("s", "sort: kind, max, trend", "s"),
		Filter:      b("f", "filter by kind", "f"),
		More:        b("+", "elide more", "+", "="),
		Less:        b("-", "elide less", "-"),
		MaxDetail:   b("m", "max / detailed counts", "m"),
		Mark:        b("space", "mark for delay", " ", "space"),
		Delay:       b("d", "delay command", "d"),
		Group:       b("o", "next goroutine group", "o"),
		Help:        b("?", "all keys", "?"),
		Close:       b("esc", "close, clear search", "esc"),
		Quit:        b("q", "quit", "q", "ctrl+c"),
	}
}

// ShortHelp is the footer's help line: the main keys, with short words so
// that it fits 80 columns.
func (k keyMap) ShortHelp() []key.Binding {
	short := func(b key.Binding, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
	}
	return []key.Binding{
		short(k.NextView, "view"), short(k.Enter, "drill"), short(k.Back, "back"),
		short(k.Search, "search"), short(k.Mark, "mark"),
		short(k.Delay, "delay"), short(k.Help, "keys"), short(k.Quit, "quit"),
	}
}

// FullHelp is the help overlay, one column per group of keys.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextView, k.PrevView, k.View0, k.View1, k.View2, k.View3, k.View4, k.View5, k.Group},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.DetailsUp, k.DetailsDown},
		{k.Enter, k.Back, k.Context, k.Search, k.Close, k.Sort, k.Filter},
		{k.More, k.Less, k.MaxDetail, k.Mark, k.Delay, k.Help, k.Quit},
	}
}

// key hands a key press to the part of the viewer it concerns: the search
// line while it is open, an overlay while one is shown, else the global
// keys, the view switches, the current list, the details pane, the view
// that owns the setting, and last the actions across views.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	if m.searching {
		return m.searchKey(msg)
	}
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		// Keys typed faster than the terminal is read arrive together
		// ("3j"): they are still separate commands.
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
		}
		return tea.Sequence(cmds...)
	}
	if m.overlay != noOverlay {
		return m.overlayKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.overlay = helpOverlay
		return nil
	}
	if m.state != stateReady || m.data == nil {
		return nil
	}
	m.status = ""
	return m.viewKey(msg)
}

// overlayKey handles a key while an overlay is shown: ctrl+c quits, the
// delay box has keys of its own, any other key closes the overlay.
func (m *Model) overlayKey(msg tea.KeyMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return tea.Quit
	}
	if m.overlay == delayOverlay {
		open, run := m.delay.update(msg)
		if !open {
			m.overlay = noOverlay
		}
		if run {
			return m.runDelay()
		}
		return nil
	}
	m.overlay = noOverlay
	return nil
}

// viewKey handles a key on a view.
func (m *Model) viewKey(msg tea.KeyMsg) tea.Cmd {
	if v, ok := m.switchTo(msg); ok {
		m.setView(v)
		return nil
	}
	if m.cur().list().navKey(msg) {
		m.refreshDetails()
		return nil
	}
	if m.details.key(msg) {
		return nil
	}
	// The views own their settings (sort and filter, the threshold),
	// which may be changed from any view.
	for _, v := range m.views {
		if status, stale, ok := v.update(msg); ok {
			m.status = status
			for _, id := range stale {
				m.views[id].list().stale = true
			}
			m.refresh()
			return nil
		}
	}
	return m.actionKey(msg)
}

// switchTo reports the view a key switches to, if it is such a key.
func (m *Model) switchTo(msg tea.KeyMsg) (viewID, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.NextView):
		return (m.view + 1) % numViews, true
	case key.Matches(msg, k.PrevView):
		return (m.view + numViews - 1) % numViews, true
	}
	for i, b := range []key.Binding{k.View0, k.View1, k.View2, k.View3, k.View4, k.View5} {
		if key.Matches(msg, b) {
			return viewID(i), true
		}
	}
	return 0, false
}

// actionKey handles the keys that act across views: navigation, search,
// marks, the delay box, goroutine groups.
func (m *Model) actionKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Enter):
		m.drill()
	case key.Matches(msg, k.Back):
		m.back()
	case key.Matches(msg, k.Close):
		m.clear()
	case key.Matches(msg, k.Context):
		m.context()
	case key.Matches(msg, k.Search):
		m.searching = true
		m.input.SetValue(m.query)
		m.input.CursorEnd()
		return m.input.Focus()
	case key.Matches(msg, k.Mark):
		m.mark()
	case key.Matches(msg, k.Delay):
		m.overlay = delayOverlay
	case key.Matches(msg, k.Group):
		m.nextGroup()
	}
	return nil
}

// nextGroup shows the next goroutine group.
func (m *Model) nextGroup() {
	if len(m.groups) < 2 {
		m.status = "there is only one goroutine group"
		return
	}
	m.setGroup((m.group + 1) % len(m.groups))
	m.status = fmt.Sprintf("goroutine group %d of %d: %s", m.group+1, len(m.groups), m.groups[m.group].Name)
}

// searchKey handles keys while the search line is open: the list follows
// the query as it is typed; enter keeps it, esc restores the previous one.
func (m *Model) searchKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEnter:
		m.searching = false
		m.input.Blur()
		m.setQuery(strings.TrimSpace(m.input.Value()))
		if m.query != "" {
			m.status = fmt.Sprintf("%d rows match (esc clears)", len(m.cur().list().rows))
		}
		return nil
	case tea.KeyEsc:
		m.searching = false
		m.input.Blur()
		m.setQuery(m.query)
		return nil
	case tea.KeyCtrlC:
		return tea.Quit
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	m.filterLive(strings.TrimSpace(m.input.Value()))
	return cmd
}

// clear clears the search, else the site the views are narrowed to.
func (m *Model) clear() {
	switch {
	case m.query != "":
		m.setQuery("")
	case m.site != nil:
		m.site = nil
		m.status = "every call site"
		m.setQuery("")
	}
}

// setQuery applies a search to every view.
func (m *Model) setQuery(q string) {
	m.query = q
	for _, v := range m.views {
		v.list().stale = true
	}
	m.refresh()
}

// filterLive narrows the current view while the query is typed.
func (m *Model) filterLive(q string) {
	if m.slow {
		m.status = "enter searches (the list is too long to follow each key)"
		return
	}
	saved := m.query
	m.query = q
	m.cur().list().stale = true
	m.refresh()
	m.query = saved
	for id, v := range m.views {
		if viewID(id) != m.view {
			v.list().stale = true
		}
	}
}
