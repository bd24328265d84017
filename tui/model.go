package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// state is where the viewer is in its life.
type state int

const (
	stateLoading state = iota
	stateReady
	stateFailed
)

// viewID names the five views, in tab order.
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

// overlay is what covers the body, if anything.
type overlay int

const (
	noOverlay overlay = iota
	helpOverlay
	delayOverlay
)

// common is what every part of the viewer needs: the terminal size, the
// styles and the keys.
type common struct {
	width, height int
	styles        styles
	keys          keyMap
}

// Options configure the viewer.
type Options struct {
	Title string // what is shown, e.g. the trace's path
	// Suncat is the suncat executable that can run `suncat delay`; empty,
	// the delay box only shows the command.
	Suncat string
}

// Progress is what a Loader reports while it works.
type Progress struct {
	Phase     string // "reading", "summarizing", ...
	File      string // the file being read, if any
	Files     int    // files to read
	FilesDone int
	Bytes     int64 // size of the files read so far and of the one being read
	Events    int   // events decoded so far
}

// A Loader prepares the summary in the background; it may call report
// (from any goroutine) as often as it likes.
type Loader func(report func(Progress)) (Summary, error)

// Model is the viewer: a state, the loaded summary, one sub-model per view,
// and the overlays.
type Model struct {
	common
	opt      Options
	load     Loader
	state    state
	started  time.Time
	loadTime time.Duration
	spinner  spinner.Model
	progress Progress
	progCh   chan Progress
	err      error

	sum    Summary
	groups []Group
	group  int
	data   *groupData

	view   viewID
	views  [numViews]*listView
	sortBy int  // index in SortKeys
	kind   int  // -1: all kinds, else an index in Kinds
	min    int  // Summarized Grammar threshold
	detail bool // detailed counts in the Summarized Grammar

	history []place // where backspace returns to

	query     string // the search, applied to every view
	searching bool
	slow      bool // the last rebuild was too slow to search live
	input     textinput.Model

	overlay   overlay
	marked    map[string]bool // full getter names marked for delay
	delayD    int             // index in delayDurations
	delayMode int             // index in delayModes

	details viewport.Model
	help    help.Model
	status  string

	// Ran is the delay command the user ran from the viewer, if any.
	Ran string
}

// New returns a viewer that loads its summary with load.
func New(load Loader, opt Options) *Model {
	sp := spinner.New()
	sp.Spinner = spinner.Dot
	in := textinput.New()
	in.Prompt = "/"
	in.Placeholder = "getter, stack frame or value"
	m := &Model{
		common:  common{width: 80, height: 24, styles: newStyles(), keys: newKeyMap()},
		opt:     opt,
		load:    load,
		started: time.Now(),
		spinner: sp,
		kind:    -1,
		min:     3,
		input:   in,
		marked:  map[string]bool{},
		delayD:  defaultDelay,
		details: viewport.New(30, 10),
		help:    help.New(),
	}
	m.help.ShortSeparator = "  "
	for v := range m.views {
		m.views[v] = &listView{common: &m.common, id: viewID(v)}
	}
	m.layout()
	return m
}

type (
	progressMsg Progress
	loadedMsg   struct {
		sum Summary
		err error
	}
	delayDoneMsg struct{ err error }
)

// Init starts loading in the background, and the spinner.
func (m *Model) Init() tea.Cmd {
	m.progCh = make(chan Progress, 1)
	ch, load := m.progCh, m.load
	report := func(p Progress) {
		// Keep only the latest report: the screen shows one.
		for {
			select {
			case ch <- p:
				return
			default:
			}
			select {
			case <-ch:
			default:
			}
		}
	}
	loadCmd := func() tea.Msg {
		s, err := load(report)
		close(ch)
		return loadedMsg{s, err}
	}
	return tea.Batch(m.spinner.Tick, loadCmd, waitProgress(ch))
}

func waitProgress(ch chan Progress) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-ch
		if !ok {
			return nil
		}
		return progressMsg(p)
	}
}

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case progressMsg:
		m.progress = Progress(msg)
		return m, waitProgress(m.progCh)
	case loadedMsg:
		m.loaded(msg.sum, msg.err)
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
			m.status = "suncat delay: " + msg.err.Error()
		} else {
			m.status = "suncat delay finished"
		}
		return m, nil
	case tea.KeyMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *Model) loaded(s Summary, err error) {
	m.loadTime = time.Since(m.started)
	if err != nil {
		m.state, m.err = stateFailed, err
		return
	}
	m.state, m.sum = stateReady, s
	m.groups = s.Groups()
	m.setGroup(0)
}

// setGroup shows goroutine group g.
func (m *Model) setGroup(g int) {
	m.group = g
	m.data = nil
	if g < len(m.groups) {
		m.data = newGroupData(m.sum, g, &m.groups[g])
	}
	for _, v := range m.views {
		*v = listView{common: v.common, id: v.id}
	}
	m.history = nil
	m.refresh()
}

func (m *Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys
	if m.searching {
		return m.searchKey(msg)
	}
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
		// Keys typed faster than the terminal is read arrive together
		// ("3j"): they are still separate commands.
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			_, cmd := m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			cmds = append(cmds, cmd)
		}
		return m, tea.Sequence(cmds...)
	}
	switch m.overlay {
	case helpOverlay:
		if key.Matches(msg, k.Quit) && msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		m.overlay = noOverlay
		return m, nil
	case delayOverlay:
		return m, m.delayKey(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.overlay = helpOverlay
		return m, nil
	}
	if m.state != stateReady || m.data == nil {
		return m, nil
	}
	v := m.cur()
	m.status = ""
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
		m.move(-len(v.rows))
	case key.Matches(msg, k.Bottom):
		m.move(len(v.rows))
	case key.Matches(msg, k.DetailsUp):
		m.details.HalfPageUp()
	case key.Matches(msg, k.DetailsDown):
		m.details.HalfPageDown()
	case key.Matches(msg, k.Enter):
		m.drill()
	case key.Matches(msg, k.Back):
		m.back()
	case key.Matches(msg, k.Close):
		if m.query != "" {
			m.setQuery("")
		}
	case key.Matches(msg, k.Context):
		m.context()
	case key.Matches(msg, k.Search):
		m.searching = true
		m.input.SetValue(m.query)
		m.input.CursorEnd()
		return m, m.input.Focus()
	case key.Matches(msg, k.Sort):
		m.sortBy = (m.sortBy + 1) % len(SortKeys)
		m.status = "patterns sorted by " + SortKeys[m.sortBy]
		m.views[stringsView].stale = true
		m.invalidate(patternsView)
	case key.Matches(msg, k.Filter):
		m.kind++
		if m.kind >= len(Kinds) {
			m.kind = -1
		}
		m.status = "patterns: " + m.kindName()
		m.views[stringsView].stale = true
		m.invalidate(patternsView)
	case key.Matches(msg, k.More):
		m.min++
		m.status = fmt.Sprintf("Summarized Grammar: items below %d elided", m.min)
		m.invalidate(summarizedView)
	case key.Matches(msg, k.Less):
		if m.min > 1 {
			m.min--
		}
		m.status = fmt.Sprintf("Summarized Grammar: items below %d elided", m.min)
		m.invalidate(summarizedView)
	case key.Matches(msg, k.MaxDetail):
		m.detail = !m.detail
		if m.detail {
			m.status = "Summarized Grammar: every count (C^6|3|5|4)"
		} else {
			m.status = "Summarized Grammar: maximum counts (C^<=6)"
		}
		m.invalidate(summarizedView)
	case key.Matches(msg, k.Mark):
		m.mark()
	case key.Matches(msg, k.Delay):
		m.overlay = delayOverlay
	case key.Matches(msg, k.Group):
		if len(m.groups) > 1 {
			m.setGroup((m.group + 1) % len(m.groups))
			m.status = fmt.Sprintf("goroutine group %d of %d: %s", m.group+1, len(m.groups), m.groups[m.group].Name)
		} else {
			m.status = "there is only one goroutine group"
		}
	}
	return m, nil
}

// searchKey handles keys while the search line is open: the list follows
// the query as it is typed; enter keeps it, esc restores the previous one.
func (m *Model) searchKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch msg.Type {
	case tea.KeyEnter:
		m.searching = false
		m.input.Blur()
		m.setQuery(strings.TrimSpace(m.input.Value()))
		if m.query != "" {
			m.status = fmt.Sprintf("%d rows match (esc clears)", len(m.cur().rows))
		}
		return m, nil
	case tea.KeyEsc:
		m.searching = false
		m.input.Blur()
		m.setQuery(m.query)
		return m, nil
	case tea.KeyCtrlC:
		return m, tea.Quit
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	m.filterLive(strings.TrimSpace(m.input.Value()))
	return m, cmd
}

func (m *Model) kindName() string {
	if m.kind < 0 {
		return "all kinds"
	}
	return "only " + Kinds[m.kind]
}

// cur is the current view's sub-model.
func (m *Model) cur() *listView { return m.views[m.view] }

func (m *Model) setView(v viewID) {
	m.view = v
	m.refresh()
}

// invalidate marks a view's rows stale, rebuilding it now if shown.
func (m *Model) invalidate(v viewID) {
	m.views[v].stale = true
	m.refresh()
}

// setQuery applies a search to every view.
func (m *Model) setQuery(q string) {
	m.query = q
	for _, v := range m.views {
		v.stale = true
	}
	m.refresh()
}

// liveLimit is how long a rebuild of the current view may take for the
// search to follow each key press; slower lists are searched on enter.
const liveLimit = 30 * time.Millisecond

// filterLive narrows the current view while the query is typed.
func (m *Model) filterLive(q string) {
	if m.slow {
		m.status = "enter searches (the list is too long to follow each key)"
		return
	}
	saved := m.query
	m.query = q
	m.cur().stale = true
	m.refresh()
	m.query = saved
	for _, v := range m.views {
		if v.id != m.view {
			v.stale = true
		}
	}
}

// refresh rebuilds the current view if needed and the details pane.
func (m *Model) refresh() {
	v := m.cur()
	if m.data != nil && (v.rows == nil || v.stale) {
		t := time.Now()
		m.rebuild(v)
		m.slow = time.Since(t) > liveLimit
	}
	m.layout()
}

func (m *Model) move(d int) {
	v := m.cur()
	v.cursor += d
	v.clamp()
	v.scroll()
	m.refreshDetails()
}

// Selected returns the selected row's plain text ("" if none).
func (m *Model) Selected() string {
	v := m.cur()
	if r, ok := v.selected(); ok {
		return m.rowText(v, r, 200)
	}
	return ""
}

// MarkedGetters returns the getters marked for delay, sorted.
func (m *Model) MarkedGetters() []string { return sortedKeys(m.marked) }

func (c *common) listHeight() int {
	h := c.height - 4 // header, tabs, status, help
	if h < 3 {
		h = 3
	}
	return h
}

// listWidth is the width of the list; the details pane (with its border)
// takes the rest.
func (c *common) listWidth() int {
	switch {
	case c.width < 60:
		return c.width
	case c.width < 120:
		return c.width * 55 / 100
	}
	return c.width * 60 / 100
}

// detailsWidth is the width of the details pane's text: what the list
// leaves, less a space, the border and the padding.
func (c *common) detailsWidth() int { return c.width - c.listWidth() - 3 }

func (m *Model) layout() {
	m.details.Width = m.detailsWidth()
	if m.details.Width < 1 {
		m.details.Width = 1
	}
	m.details.Height = m.listHeight()
	m.help.Width = m.width
	m.input.Width = m.width - 3
	m.cur().scroll()
	m.refreshDetails()
}
