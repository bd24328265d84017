package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key of the viewer, with its help.
type keyMap struct {
	NextView, PrevView                      key.Binding
	View1, View2, View3                     key.Binding
	View4, View5                            key.Binding
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Enter, Back                             key.Binding
	Context                                 key.Binding
	Search, Sort, Filter                    key.Binding
	More, Less, MaxDetail                   key.Binding
	Mark, Delay                             key.Binding
	Group                                   key.Binding
	DetailsUp, DetailsDown                  key.Binding
	Help, Quit                              key.Binding
}

func newKeyMap() keyMap {
	b := func(help string, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		NextView:    b("tab", "next view", "tab"),
		PrevView:    b("shift+tab", "previous view", "shift+tab"),
		View1:       b("1", "patterns", "1"),
		View2:       b("2", "summarized grammar", "2"),
		View3:       b("3", "full grammar", "3"),
		View4:       b("4", "count summary", "4"),
		View5:       b("5", "strings", "5"),
		Up:          b("↑/k", "up", "up", "k"),
		Down:        b("↓/j", "down", "down", "j"),
		PageUp:      b("pgup", "page up", "pgup"),
		PageDown:    b("pgdown", "page down", "pgdown"),
		Top:         b("home/g", "top", "home", "g"),
		Bottom:      b("end/G", "bottom", "end", "G"),
		Enter:       b("enter", "drill into rule", "enter"),
		Back:        b("backspace", "back", "backspace"),
		Context:     b("c", "where it appears", "c"),
		Search:      b("/", "search", "/"),
		Sort:        b("s", "sort: kind/max/trend", "s"),
		Filter:      b("f", "filter by kind", "f"),
		More:        b("+", "raise elision threshold", "+", "="),
		Less:        b("-", "lower elision threshold", "-"),
		MaxDetail:   b("m", "max/detailed counts", "m"),
		Mark:        b("space", "mark getters for delay", " ", "space"),
		Delay:       b("d", "delay command", "d"),
		Group:       b("o", "next goroutine group", "o"),
		DetailsUp:   b("ctrl+u", "scroll details up", "ctrl+u"),
		DetailsDown: b("ctrl+d", "scroll details down", "ctrl+d"),
		Help:        b("?", "all keys", "?"),
		Quit:        b("q", "quit", "q", "ctrl+c"),
	}
}

// ShortHelp is the footer's help.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.NextView, k.Enter, k.Back, k.Search, k.Mark, k.Delay, k.Help, k.Quit}
}

// FullHelp is the help screen.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextView, k.PrevView, k.View1, k.View2, k.View3, k.View4, k.View5, k.Group},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.DetailsUp, k.DetailsDown},
		{k.Enter, k.Back, k.Context, k.Search, k.Sort, k.Filter},
		{k.More, k.Less, k.MaxDetail, k.Mark, k.Delay, k.Help, k.Quit},
	}
}
