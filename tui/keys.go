package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key of the viewer, with its help; the help overlay and
// the footer are generated from it, and the README's key table follows it.
type keyMap struct {
	NextView, PrevView                      key.Binding
	View1, View2, View3, View4, View5       key.Binding
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	DetailsUp, DetailsDown                  key.Binding
	Enter, Back, Context                    key.Binding
	Search, Sort, Filter                    key.Binding
	More, Less, MaxDetail                   key.Binding
	Mark, Delay, Group                      key.Binding
	Help, Close, Quit                       key.Binding
}

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		NextView:    b("tab", "next view", "tab"),
		PrevView:    b("shift+tab", "previous view", "shift+tab"),
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
		{k.NextView, k.PrevView, k.View1, k.View2, k.View3, k.View4, k.View5, k.Group},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.DetailsUp, k.DetailsDown},
		{k.Enter, k.Back, k.Context, k.Search, k.Close, k.Sort, k.Filter},
		{k.More, k.Less, k.MaxDetail, k.Mark, k.Delay, k.Help, k.Quit},
	}
}
