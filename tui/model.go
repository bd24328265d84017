package tui

import (
	"os"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
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
	findingsView viewID = iota
	patternsView
	summarizedView
	fullView
	countView
	stringsView
	numViews
)

var viewNames = [numViews]string{"Findings", "Patterns", "Summarized", "Full Grammar", "Count", "Strings"}

// overlay is what covers the body, if anything.
type overlay int

const (
	noOverlay overlay = iota
	helpOverlay
	delayOverlay
)

// common is what every part of the viewer needs: the terminal size, the
// styles and the keys, the goroutine group shown and the getters marked
// for delay. The top model owns it; the sub-models point to it.
type common struct {
	width, height int
	styles        styles
	keys          keyMap
	data          *groupData      // the group shown; nil until loaded, or when there is none
	marked        map[string]bool // full getter names marked for delay
}

// Options configure the viewer.
type Options struct {
	Title string // what is shown, e.g. the trace's path
	// Suncat is the suncat executable that can run `suncat delay`; empty,
	// the delay box only shows the command.
	Suncat string
	// ProgramArgs prefill the delay box's arguments for the program (the
	// traced run's recorded arguments, if known).
	ProgramArgs []string
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

// Model is the viewer: a state, the loaded summary, one sub-model per view
// (each owns its rows, its cursor and the keys of its settings), the
// details pane, the search line and the overlays. It hands each message to
// the part it concerns.
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

	view       viewID
	views      [numViews]viewModel
	patterns   *patternsModel
	summarized *grammarModel
	full       *grammarModel

	history []place // where backspace returns to

	site      *Site  // the call site the views are narrowed to, if any
	query     string // the search, applied to every view
	searching bool
	slow      bool // the last rebuild was too slow to search live
	input     textinput.Model

	overlay overlay
	delay   *delayModel
	details *detailsModel
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
		common:  common{width: 80, height: 24, styles: newStyles(), keys: newKeyMap(), marked: map[string]bool{}},
		opt:     opt,
		load:    load,
		started: time.Now(),
		spinner: sp,
		input:   in,
		help:    help.New(),
	}
	m.help.ShortSeparator = "  "
	c := &m.common
	m.patterns = &patternsModel{listModel: listModel{common: c}, kind: -1}
	m.summarized = &grammarModel{listModel: listModel{common: c}, summarized: true, min: 3}
	m.full = &grammarModel{listModel: listModel{common: c}}
	m.views = [numViews]viewModel{
		findingsView:   &findingsModel{listModel: listModel{common: c}},
		patternsView:   m.patterns,
		summarizedView: m.summarized,
		fullView:       m.full,
		countView:      &countModel{listModel: listModel{common: c}},
		stringsView:    &stringsModel{listModel: listModel{common: c}, patterns: m.patterns},
	}
	m.delay = &delayModel{common: c, d: defaultDelay, suncat: opt.Suncat, progArgs: joinArgs(opt.ProgramArgs), exec: tea.ExecProcess, term: os.Stdout}
	m.details = newDetails(c)
	m.layout()
	return m
}

type (
	progressMsg Progress
	loadedMsg   struct {
		sum Summary
		err error
	}
	delayDoneMsg struct {
		err    error
		output string // the end of what the command printed
	}
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
		m.delay.last = &msg
		m.status = "suncat delay finished"
		if msg.err != nil {
			m.status = "suncat delay: " + msg.err.Error()
		}
		m.overlay = delayOverlay // the verdict and the output, in the box
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
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
	m.patterns.sortKeys = s.SortKeys()
	m.delay.groups = m.groups
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
		v.reset()
	}
	m.history = nil
	m.site = nil
	m.refresh()
}

// cur is the current view's sub-model.
func (m *Model) cur() viewModel { return m.views[m.view] }

// crumbs is the path of rules drilled into in view v (none outside the
// grammar views).
func (m *Model) crumbs(v viewID) []string {
	if g, ok := m.views[v].(*grammarModel); ok {
		return g.crumbs
	}
	return nil
}

func (m *Model) setView(v viewID) {
	m.view = v
	m.refresh()
}

// liveLimit is how long a rebuild of the current view may take for the
// search to follow each key press; slower lists are searched on enter.
const liveLimit = 30 * time.Millisecond

// refresh rebuilds the current view if needed and the details pane.
func (m *Model) refresh() {
	v := m.cur()
	if l := v.list(); m.data != nil && (l.rows == nil || l.stale) {
		t := time.Now()
		rebuild(v, m.filter())
		m.slow = time.Since(t) > liveLimit
	}
	m.layout()
}

// refreshDetails shows the selected row in the details pane.
func (m *Model) refreshDetails() {
	r, ok := m.cur().list().selected()
	if f, isFindings := m.cur().(*findingsModel); isFindings {
		m.details.showSite(r, ok, f.load())
		return
	}
	m.details.show(r, ok)
}

// filter is what narrows the views: the search, the site.
func (m *Model) filter() filter {
	f := filter{query: m.query}
	if m.site != nil && m.site.Group == m.group {
		f.site = map[string]bool{}
		for _, l := range m.site.Letters {
			f.site[l] = true
		}
	}
	return f
}

// Selected returns the selected row's plain text ("" if none).
func (m *Model) Selected() string {
	v := m.cur()
	if r, ok := v.list().selected(); ok {
		return v.text(r, 200)
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
	m.details.resize()
	m.help.Width = m.width
	m.input.Width = m.width - 3
	m.cur().list().scroll()
	m.refreshDetails()
}
