package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/suncat-go/suncat/grammar"
	"github.com/suncat-go/suncat/prioritize"
)

// A Loader prepares the summary the viewer shows. It runs in the
// background while the viewer shows its progress.
type Loader func() (*prioritize.Summary, error)

type state int

const (
	stateLoading state = iota
	stateReady
	stateFailed
)

type viewID int

const (
	patternsView viewID = iota
	summarizedView
	fullView
	countView
	stringsView
	numViews
)

var viewNames = [numViews]string{"Patterns", "Summarized", "Full Grammar", "Count", "Strings"}

// common is what every part of the viewer needs.
type common struct {
	width, height int
	styles        styles
	keys          keyMap
}

// An item is one row of the list.
type item struct {
	text     string
	search   string // lower case: names, frames, values
	sym      string // grammar symbol, if any
	rule     string // for rule lines and rule items: the rule
	pos      int    // for rule items: position in the rule
	ruleLine bool   // a whole rule ("A -> ...")
	kind     prioritize.Kind
	hasKind  bool
	terms    []string // terminal letters it covers
}

// Model is the viewer.
type Model struct {
	common
	state   state
	load    Loader
	title   string
	started time.Time
	spinner spinner.Model
	err     error

	sum   *prioritize.Summary
	group int
	view  viewID

	items  []item // the current view's rows (after search)
	cursor int
	offset int
	crumbs []string // drill-in path in the grammar views

	sortBy  int  // index in prioritize.SortKeys
	kind    int  // -1: all kinds, else a prioritize.Kind
	min     int  // Summarized Grammar threshold
	detail  bool // detailed counts in the Summarized Grammar
	query   string
	search  textinput.Model
	finding bool

	marked    map[string]bool // getter full names marked for delay
	showDelay bool
	showHelp  bool
	Ran       string // the delay command that was run, if any

	details viewport.Model
	help    help.Model
	status  string
}

// New returns a viewer that loads its summary with load; title names what
// is shown (the trace).
func New(load Loader, title string) *Model {
	sp := spinner.New()
	sp.Spinner = spinner.Dot
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "getter, frame or value"
	m := &Model{
		common:  common{width: 80, height: 24, styles: newStyles(), keys: newKeyMap()},
		load:    load,
		title:   title,
		started: time.Now(),
		spinner: sp,
		kind:    -1,
		min:     3,
		search:  ti,
		marked:  map[string]bool{},
		details: viewport.New(30, 10),
		help:    help.New(),
	}
	return m
}

type loadedMsg struct {
	sum *prioritize.Summary
	err error
}

// Init starts loading and the spinner.
func (m *Model) Init() tea.Cmd {
	load := m.load
	return tea.Batch(m.spinner.Tick, func() tea.Msg {
		s, err := load()
		return loadedMsg{s, err}
	})
}

// Summary returns the loaded summary (nil while loading).
func (m *Model) Summary() *prioritize.Summary { return m.sum }

func (m *Model) groupOf() *prioritize.Group {
	if m.sum == nil || len(m.sum.Groups) == 0 {
		return nil
	}
	return m.sum.Groups[m.group]
}

// Update handles messages.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case loadedMsg:
		if msg.err != nil {
			m.state, m.err = stateFailed, msg.err
			return m, nil
		}
		m.state, m.sum = stateReady, msg.sum
		m.rebuild()
		return m, nil
	case spinner.TickMsg:
		if m.state != stateLoading {
			return m, nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case delayDoneMsg:
		if msg.err != nil {
			m.status = "delay: " + msg.err.Error()
		} else {
			m.status = "delay command finished"
		}
		return m, nil
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.finding {
		switch msg.Type {
		case tea.KeyEnter:
			m.finding = false
			m.query = strings.TrimSpace(m.search.Value())
			m.search.Blur()
			m.rebuild()
			m.status = fmt.Sprintf("%d rows match %q", len(m.items), m.query)
			return m, nil
		case tea.KeyEsc:
			m.finding = false
			m.search.Blur()
			return m, nil
		}
		var cmd tea.Cmd
		m.search, cmd = m.search.Update(msg)
		return m, cmd
	}
	if key.Matches(msg, k.Quit) {
		return m, tea.Quit
	}
	if m.showHelp {
		m.showHelp = false
		return m, nil
	}
	if m.showDelay {
		m.showDelay = false
		if msg.Type == tea.KeyEnter {
			return m, m.runDelay()
		}
		return m, nil
	}
	if key.Matches(msg, k.Help) {
		m.showHelp = true
		return m, nil
	}
	if m.state != stateReady {
		return m, nil
	}
	switch {
	case key.Matches(msg, k.NextView):
		m.setView((m.view + 1) % numViews)
	case key.Matches(msg, k.PrevView):
		m.setView((m.view + numViews - 1) % numViews)
	case key.Matches(msg, k.View1):
		m.setView(patternsView)
	case key.Matches(msg, k.View2):
		m.setView(summarizedView)
	case key.Matches(msg, k.View3):
		m.setView(fullView)
	case key.Matches(msg, k.View4):
		m.setView(countView)
	case key.Matches(msg, k.View5):
		m.setView(stringsView)
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-m.listHeight())
	case key.Matches(msg, k.PageDown):
		m.move(m.listHeight())
	case key.Matches(msg, k.Top):
		m.move(-len(m.items))
	case key.Matches(msg, k.Bottom):
		m.move(len(m.items))
	case key.Matches(msg, k.DetailsUp):
		m.details.HalfPageUp()
	case key.Matches(msg, k.DetailsDown):
		m.details.HalfPageDown()
	case key.Matches(msg, k.Enter):
		m.drill()
	case key.Matches(msg, k.Back):
		if m.query != "" {
			m.query = ""
			m.rebuild()
		} else if len(m.crumbs) > 0 {
			back := m.crumbs[len(m.crumbs)-1]
			m.crumbs = m.crumbs[:len(m.crumbs)-1]
			m.rebuild()
			m.selectWhere(func(it item) bool { return it.sym == back || (it.ruleLine && it.rule == back) })
		}
	case key.Matches(msg, k.Context):
		m.context()
	case key.Matches(msg, k.Search):
		m.finding = true
		m.search.SetValue(m.query)
		m.search.Focus()
		return m, textinput.Blink
	case key.Matches(msg, k.Sort):
		m.sortBy = (m.sortBy + 1) % len(prioritize.SortKeys)
		m.status = "sorted by " + prioritize.SortKeys[m.sortBy]
		m.rebuild()
	case key.Matches(msg, k.Filter):
		m.kind++
		if m.kind > int(prioritize.Varying) {
			m.kind = -1
		}
		m.status = "showing " + m.kindName() + " patterns"
		m.rebuild()
	case key.Matches(msg, k.More):
		m.min++
		m.status = fmt.Sprintf("eliding items below %d", m.min)
		m.rebuild()
	case key.Matches(msg, k.Less):
		if m.min > 1 {
			m.min--
		}
		m.status = fmt.Sprintf("eliding items below %d", m.min)
		m.rebuild()
	case key.Matches(msg, k.MaxDetail):
		m.detail = !m.detail
		m.rebuild()
	case key.Matches(msg, k.Mark):
		m.mark()
	case key.Matches(msg, k.Delay):
		m.showDelay = true
	case key.Matches(msg, k.Group):
		if m.sum != nil && len(m.sum.Groups) > 1 {
			m.group = (m.group + 1) % len(m.sum.Groups)
			m.crumbs = nil
			m.rebuild()
			m.status = "goroutine " + m.groupOf().Goroutine
		}
	}
	return m, nil
}

func (m *Model) kindName() string {
	if m.kind < 0 {
		return "all"
	}
	return prioritize.Kind(m.kind).String()
}

func (m *Model) setView(v viewID) {
	if v == m.view {
		return
	}
	m.view = v
	m.crumbs = nil
	m.cursor, m.offset = 0, 0
	m.rebuild()
}

func (m *Model) move(d int) {
	m.cursor += d
	if m.cursor >= len(m.items) {
		m.cursor = len(m.items) - 1
	}
	if m.cursor < 0 {
		m.cursor = 0
	}
	m.scroll()
	m.refreshDetails()
}

func (m *Model) scroll() {
	h := m.listHeight()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+h {
		m.offset = m.cursor - h + 1
	}
	if m.offset < 0 {
		m.offset = 0
	}
}

func (m *Model) selectWhere(f func(item) bool) bool {
	for i, it := range m.items {
		if f(it) {
			m.cursor = i
			m.scroll()
			m.refreshDetails()
			return true
		}
	}
	return false
}

// Selected returns the selected row's text ("" if none).
func (m *Model) Selected() string {
	if m.cursor < len(m.items) {
		return m.items[m.cursor].text
	}
	return ""
}

// drill enters the rule of the selected nonterminal (grammar views), or
// of the selected pattern's symbol.
func (m *Model) drill() {
	if m.cursor >= len(m.items) {
		return
	}
	it := m.items[m.cursor]
	g := m.groupOf()
	target := ""
	switch {
	case it.ruleLine:
		target = it.rule
	case it.sym != "" && isRule(g.Grammar, it.sym):
		target = it.sym
	}
	if target == "" {
		m.status = "a terminal has no rule to enter; c shows where it appears"
		return
	}
	if m.view != summarizedView && m.view != fullView {
		m.view = fullView
		m.crumbs = nil
	}
	if len(m.crumbs) == 0 || m.crumbs[len(m.crumbs)-1] != target {
		m.crumbs = append(m.crumbs, target)
	}
	m.cursor, m.offset = 0, 0
	m.rebuild()
}

// context jumps to where the selected symbol appears: the rule it is an
// item of, in the Full Grammar.
func (m *Model) context() {
	if m.cursor >= len(m.items) {
		return
	}
	it := m.items[m.cursor]
	g := m.groupOf()
	sym := it.sym
	if it.ruleLine {
		sym = it.rule
	}
	if sym == "" {
		return
	}
	for _, p := range g.Patterns {
		if p.Symbol == sym {
			m.view = fullView
			m.crumbs = []string{p.Rule}
			m.query = ""
			m.rebuild()
			m.selectWhere(func(x item) bool { return x.rule == p.Rule && x.pos == p.Position && !x.ruleLine })
			m.status = fmt.Sprintf("%s appears in %s", sym, p.Rule)
			return
		}
	}
	m.status = sym + " is the start symbol"
}

func isRule(gr *grammar.Grammar, name string) bool {
	for _, r := range gr.Rules {
		if r.Name == name {
			return true
		}
	}
	return name == "S"
}

// mark toggles the getters behind the selected row.
func (m *Model) mark() {
	if m.cursor >= len(m.items) {
		return
	}
	names := m.gettersOf(m.items[m.cursor])
	if len(names) == 0 {
		return
	}
	on := !m.marked[names[0]]
	for _, n := range names {
		if on {
			m.marked[n] = true
		} else {
			delete(m.marked, n)
		}
	}
	m.status = fmt.Sprintf("%d getter(s) marked for delay", len(m.marked))
	m.rebuild()
}

// gettersOf returns the full names of the getters behind a row.
func (m *Model) gettersOf(it item) []string {
	g := m.groupOf()
	var out []string
	seen := map[string]bool{}
	for _, l := range it.terms {
		for _, t := range g.Terminals {
			if t.Letter == l && t.Getter.ID != 0 {
				n := t.Getter.Package + "." + t.Getter.Name()
				if !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// MarkedGetters returns the getters marked for delay, sorted.
func (m *Model) MarkedGetters() []string {
	var out []string
	for n := range m.marked {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// DelayCommand is the suncat delay command for the marked getters.
func (m *Model) DelayCommand() string {
	gs := m.MarkedGetters()
	if len(gs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("suncat delay")
	for _, g := range gs {
		fmt.Fprintf(&b, " --getter '%s'", g)
	}
	b.WriteString(" -d 2ms -run .")
	return b.String()
}

func (m *Model) listHeight() int {
	h := m.height - 4 // header, tabs, status, help
	if h < 3 {
		h = 3
	}
	return h
}

func (m *Model) listWidth() int {
	w := m.width * 55 / 100
	if w < 30 {
		w = m.width
	}
	return w
}

func (m *Model) layout() {
	m.details.Width = m.width - m.listWidth() - 2
	if m.details.Width < 10 {
		m.details.Width = 10
	}
	m.details.Height = m.listHeight()
	m.help.Width = m.width
	m.scroll()
	m.refreshDetails()
}

// View renders the screen.
func (m *Model) View() string {
	switch m.state {
	case stateLoading:
		return fmt.Sprintf("\n  %s loading %s ... %s\n\n  (q quits)\n", m.spinner.View(), m.title, time.Since(m.started).Round(100*time.Millisecond))
	case stateFailed:
		return "\n  " + m.styles.errorText.Render("suncat: "+m.err.Error()) + "\n\n  (q quits)\n"
	}
	if m.showHelp {
		return m.styles.title.Render("suncat view: keys") + "\n\n" + m.help.FullHelpView(m.keys.FullHelp()) + "\n\n" + m.styles.dim.Render("any key returns")
	}
	var b strings.Builder
	b.WriteString(m.header() + "\n")
	b.WriteString(m.tabs() + "\n")
	list := m.renderList()
	if m.showDelay {
		list = m.delayBox()
	}
	body := lipgloss.JoinHorizontal(lipgloss.Top,
		lipgloss.NewStyle().Width(m.listWidth()).MaxWidth(m.listWidth()).Render(list),
		m.styles.pane.Height(m.listHeight()).MaxHeight(m.listHeight()).Render(m.details.View()))
	b.WriteString(body + "\n")
	b.WriteString(m.footer())
	return b.String()
}

func (m *Model) header() string {
	g := m.groupOf()
	if g == nil {
		return m.styles.title.Render("suncat") + " " + m.title + ": no events in any sub-trace"
	}
	groups := ""
	if len(m.sum.Groups) > 1 {
		groups = fmt.Sprintf(" [%d/%d, o: next]", m.group+1, len(m.sum.Groups))
	}
	return truncate(m.styles.title.Render("suncat")+" "+prioritize.Header(g)+groups, m.width)
}

func (m *Model) tabs() string {
	var parts []string
	for i := viewID(0); i < numViews; i++ {
		label := fmt.Sprintf("%d %s", i+1, viewNames[i])
		if i == m.view {
			parts = append(parts, m.styles.activeTab.Render(label))
		} else {
			parts = append(parts, m.styles.tab.Render(label))
		}
	}
	return truncate(strings.Join(parts, ""), m.width)
}

func (m *Model) footer() string {
	var left string
	switch {
	case m.finding:
		left = m.search.View()
	default:
		var bits []string
		if len(m.crumbs) > 0 {
			bits = append(bits, "S > "+strings.Join(m.crumbs, " > "))
		}
		if m.query != "" {
			bits = append(bits, fmt.Sprintf("search %q", m.query))
		}
		if m.view == patternsView {
			bits = append(bits, "sort "+prioritize.SortKeys[m.sortBy], "kind "+m.kindName())
		}
		if m.view == summarizedView {
			mode := "max"
			if m.detail {
				mode = "detail"
			}
			bits = append(bits, fmt.Sprintf("min %d", m.min), mode)
		}
		if len(m.marked) > 0 {
			bits = append(bits, fmt.Sprintf("%d marked", len(m.marked)))
		}
		if m.status != "" {
			bits = append(bits, m.status)
		}
		left = m.styles.status.Render(strings.Join(bits, " · "))
	}
	return truncate(left, m.width) + "\n" + truncate(m.help.ShortHelpView(m.keys.ShortHelp()), m.width)
}

func (m *Model) renderList() string {
	h := m.listHeight()
	w := m.listWidth() - 1
	var lines []string
	if len(m.items) == 0 {
		lines = append(lines, m.styles.dim.Render("(nothing to show)"))
	}
	for i := m.offset; i < len(m.items) && i < m.offset+h; i++ {
		it := m.items[i]
		text := truncate(it.text, w)
		marker := " "
		if ns := m.gettersOf(it); len(ns) > 0 && m.marked[ns[0]] {
			marker = "*"
		}
		line := marker + text
		switch {
		case i == m.cursor:
			line = m.styles.selected.Render(padRight(line, w))
		case it.hasKind:
			line = m.kindStyle(it.kind).Render(line)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func (m *Model) kindStyle(k prioritize.Kind) lipgloss.Style {
	switch k {
	case prioritize.Increasing:
		return m.styles.increasing
	case prioritize.Varying:
		return m.styles.varying
	case prioritize.Decreasing:
		return m.styles.decreasing
	}
	return m.styles.constant
}

func (m *Model) delayBox() string {
	cmd := m.DelayCommand()
	if cmd == "" {
		return "No getter is marked.\n\nMark getters with space on a terminal\nor a pattern, then press d again.\n\n" + m.styles.dim.Render("any key closes")
	}
	return m.styles.title.Render("Delay the marked getters") + "\n\n" +
		lipgloss.NewStyle().Width(m.listWidth()-2).Render(cmd) + "\n\n" +
		"Run it in your program's directory to\nsee whether the screen gets slower.\n\n" +
		m.styles.key.Render("enter") + " runs it here (in the current\ndirectory), any other key closes."
}

func truncate(s string, w int) string {
	if w <= 0 || lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
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
