package tui

import (
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The delay experiment (SUNCAT paper, section 3.3): the getters the user
// marked become `suncat delay --getter X ...`, shown exactly, and run on
// request.

// delayDurations are the delays per call the box offers (+ and -); the
// default is suncat delay's own.
var delayDurations = []string{"100us", "500us", "1ms", "2ms", "5ms", "10ms", "50ms"}

const defaultDelay = 2 // 1ms

// delayModes are suncat delay's -mode values (m switches in the box).
var delayModes = []string{"sleep", "spin"}

// delayModel is the delay box: the marked getters (in common), the delay
// and mode chosen, the command, and running it.
type delayModel struct {
	*common
	d      int     // index in delayDurations
	mode   int     // index in delayModes
	suncat string  // Options.Suncat
	groups []Group // where the traced program's directory is looked for
}

func (m *delayModel) flags() []string {
	f := []string{"-d", delayDurations[m.d]}
	if m.mode != 0 {
		f = append(f, "-mode", delayModes[m.mode])
	}
	return f
}

// update handles a key in the delay box: + and - change the delay, m
// the mode, enter runs the command; anything else closes the box. It
// reports whether the box stays open and whether to run the command.
func (m *delayModel) update(msg tea.KeyMsg) (open, run bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.More):
		m.d = min(m.d+1, len(delayDurations)-1)
	case key.Matches(msg, k.Less):
		m.d = max(m.d-1, 0)
	case key.Matches(msg, k.MaxDetail):
		m.mode = (m.mode + 1) % len(delayModes)
	case msg.Type == tea.KeyEnter:
		return false, true
	default:
		return false, false
	}
	return true, false
}

// DelayArgs are the arguments of suncat for the marked getters (nil when
// none is marked): delay --getter X ... -d 1ms -run .
func (m *Model) DelayArgs() []string { return m.delay.args() }

// DelayCommand is the command line for the marked getters, as a user
// would type it in the program's directory ("" when none is marked).
func (m *Model) DelayCommand() string { return m.delay.command() }

// DelayDir is the directory to run the command in: the traced program's
// main package, found from the stacks ("" if unknown).
func (m *Model) DelayDir() string { return m.delay.dir() }

func (m *delayModel) args() []string {
	gs := sortedKeys(m.marked)
	if len(gs) == 0 {
		return nil
	}
	args := []string{"delay"}
	for _, g := range gs {
		args = append(args, "--getter", g)
	}
	args = append(args, m.flags()...)
	return append(args, "-run", ".")
}

func (m *delayModel) command() string {
	args := m.args()
	if args == nil {
		return ""
	}
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return "suncat " + strings.Join(q, " ")
}

// delayLines is the command on one line if it fits in w cells, else one
// argument pair per line with shell continuations, so it can still be
// copied and pasted.
func (m *delayModel) lines(w int) string {
	cmd := m.command()
	if len(cmd) <= w {
		return cmd
	}
	args := m.args()
	lines := []string{"suncat delay \\"}
	for i := 1; i+1 < len(args); i += 2 {
		if args[i] == "--getter" {
			lines = append(lines, "  --getter "+shellQuote(args[i+1])+" \\")
		}
	}
	lines = append(lines, "  "+strings.Join(m.flags(), " ")+" -run .")
	return strings.Join(lines, "\n")
}

func (m *delayModel) dir() string {
	for i := range m.groups {
		d := &groupData{g: &m.groups[i], terms: map[string]int{}}
		if dir := d.programDir(); dir != "" {
			return dir
		}
	}
	return ""
}

func dirOf(file string) string { return filepath.Dir(file) }

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// view is the delay box: the marked getters and the command.
func (m *delayModel) view(h int) string {
	st := m.styles
	w := m.width - 4
	var b strings.Builder
	gs := sortedKeys(m.marked)
	if len(gs) == 0 {
		b.WriteString(st.title.Render("No getter is marked for delay") + "\n\n")
		b.WriteString("Select a terminal or a pattern and press space to mark its getters\n(a pattern marks the getters of all its terminals), then press d.\n\n")
		b.WriteString(st.dim.Render("any key closes"))
		return fit(st.box.Width(w).Render(b.String()), m.width, h)
	}
	b.WriteString(st.title.Render("Delay the marked getters") + "\n")
	for _, g := range gs {
		b.WriteString("  " + st.marked.Render("*") + " " + truncate(g, w-6) + "\n")
	}
	dir := m.dir()
	b.WriteString("\n")
	if dir != "" {
		b.WriteString(st.dim.Render("in the traced program's directory:") + "\n")
		b.WriteString(wrapIndent("cd "+shellQuote(dir), w-2, "   ") + "\n")
	} else {
		b.WriteString(st.dim.Render("in your program's directory:") + "\n")
	}
	b.WriteString(st.key.Render(m.lines(w-2)) + "\n\n")
	how := "sleeps"
	if m.mode == 1 {
		how = "spins (burns CPU)"
	}
	b.WriteString(wrap("Each call of these getters "+how+" for "+delayDurations[m.d]+": if the screen gets slower, they are on the path a person waits for. To measure, use -compare -- SCENARIO instead of -run.", w-2) + "\n\n")
	b.WriteString(st.key.Render("+/-") + " delay  " + st.key.Render("m") + " sleep/spin  ")
	switch {
	case m.suncat == "":
		b.WriteString(st.dim.Render("(suncat delay is not available from this viewer: copy the command)  any key closes"))
	case dir == "":
		b.WriteString(st.key.Render("enter") + " runs it here  " + st.key.Render("esc") + " closes")
	default:
		b.WriteString(st.key.Render("enter") + " runs it now  " + st.key.Render("esc") + " closes")
	}
	return fit(st.box.Width(w).Render(b.String()), m.width, h)
}

// runDelay runs the delay command, handing the terminal over to it, and
// keeps it in Ran.
func (m *Model) runDelay() tea.Cmd {
	cmd, ran := m.delay.run()
	if cmd != nil {
		m.Ran = ran
	}
	return cmd
}

// run is the delay command (nil without marks or suncat) and its shell
// form.
func (m *delayModel) run() (tea.Cmd, string) {
	args := m.args()
	if args == nil || m.suncat == "" {
		return nil, ""
	}
	cmd := exec.Command(m.suncat, args...)
	cmd.Dir = m.dir()
	ran := m.command()
	if cmd.Dir != "" {
		ran = "cd " + shellQuote(cmd.Dir) + " && " + ran
	}
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return delayDoneMsg{err} }), ran
}
