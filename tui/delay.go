package tui

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/suncat-go/suncat/logrt/tracefmt"
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
	d        int     // index in delayDurations
	mode     int     // index in delayModes
	suncat   string  // Options.Suncat
	groups   []Group // where the traced program's directory is looked for
	progArgs string  // the program's arguments as typed (shell words; "< FILE" is its input)
	editing  bool    // keys go to progArgs
	compare  bool    // -compare (c): run the program plainly and delayed, and judge; else -run
	chosen   bool    // c was pressed: compare is the user's, not comparing's default
	onlyStmt bool    // s: delay only the marked calls' most repeated statement (--getter 'sql:...')
	saved    string  // progArgs before editing, for esc
	last     *delayDoneMsg
	// exec hands the terminal to a command (tea.ExecProcess; tests run it
	// directly), term is where its output goes besides the box's copy.
	exec func(*exec.Cmd, tea.ExecCallback) tea.Cmd
	term io.Writer
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
	if m.editing {
		m.edit(msg)
		return true, false
	}
	k := m.keys
	switch {
	case msg.Type == tea.KeyRunes && string(msg.Runes) == "a":
		m.editing, m.saved = true, m.progArgs
	case msg.Type == tea.KeyRunes && string(msg.Runes) == "c":
		m.compare, m.chosen = !m.comparing(), true
	case msg.Type == tea.KeyRunes && string(msg.Runes) == "s":
		m.onlyStmt = !m.onlyStmt && m.statement() != ""
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

// edit handles a key while the program's arguments are typed: enter
// keeps them, esc puts back the previous ones.
func (m *delayModel) edit(msg tea.KeyMsg) {
	switch msg.Type {
	case tea.KeyEnter:
		m.editing = false
	case tea.KeyEsc:
		m.editing, m.progArgs = false, m.saved
	case tea.KeyBackspace:
		if r := []rune(m.progArgs); len(r) > 0 {
			m.progArgs = string(r[:len(r)-1])
		}
	case tea.KeyCtrlU:
		m.progArgs = ""
	case tea.KeySpace:
		m.progArgs += " "
	case tea.KeyRunes:
		m.progArgs += string(msg.Runes)
	}
}

// program returns the program's arguments and the file to use as its
// standard input ("< FILE" among the words), from progArgs.
func (m *delayModel) program() (args []string, input string) {
	words := splitArgs(m.progArgs)
	for i := 0; i < len(words); i++ {
		if words[i] == "<" && i+1 < len(words) {
			input = words[i+1]
			i++
			continue
		}
		args = append(args, words[i])
	}
	return args, input
}

// splitArgs splits s into words as a POSIX shell would without
// expansions: blanks separate, quotes group, a backslash escapes.
func splitArgs(s string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			w.WriteRune(r)
			escaped = false
		case quote != 0 && r == quote:
			quote = 0
		case quote == '\'':
			w.WriteRune(r)
		case r == '\\':
			escaped, inWord = true, true
		case quote == '"':
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// joinArgs is the shell form of args.
func joinArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

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
	stmt := ""
	if m.onlyStmt {
		stmt = m.statement()
	}
	for _, g := range gs {
		if stmt != "" && m.stmtGetters()[g] {
			continue // its statement instead, below
		}
		args = append(args, "--getter", g)
	}
	if stmt != "" {
		args = append(args, "--getter", stmt)
	}
	args = append(args, m.kindFlags()...)
	args = append(args, m.flags()...)
	return append(args, m.runArgs()...)
}

// runArgs are the end of the command: "-run . -- ARGS", or with compare
// "-compare . -- {} ARGS" (the scenario: the delayed build with the
// program's arguments; "sh -c '{} ARGS < FILE'" when it reads a file).
func (m *delayModel) runArgs() []string {
	prog, input := m.program()
	if !m.comparing() {
		args := []string{"-run", "."}
		if len(prog) > 0 {
			args = append(append(args, "--"), prog...)
		}
		return args
	}
	scenario := append([]string{"{}"}, prog...)
	if input != "" {
		return []string{"-compare", ".", "--", "sh", "-c", joinArgs(scenario) + " < " + shellQuote(input)}
	}
	return append([]string{"-compare", ".", "--"}, scenario...)
}

func (m *delayModel) command() string {
	args := m.args()
	if args == nil {
		return ""
	}
	cmd := "suncat " + joinArgs(args)
	if _, input := m.program(); input != "" && !m.comparing() {
		cmd += " < " + shellQuote(input)
	}
	return cmd
}

// readPrefix and callPrefix begin a Terminal's Field for the events
// beyond string getters, as the trace writes them: "read:" and the
// field's type, "call:" and the -calls set or pattern that chose the call.
const (
	readPrefix = tracefmt.ReadPrefix
	callPrefix = tracefmt.CallPrefix
)

// fieldText says what a terminal's event is, from its Field: "returns
// name" for a getter, "reads a field (string)", "a loop's turn
// (-loops)", "a call recorded with -calls sql".
func fieldText(field string) string {
	switch {
	case field == tracefmt.TurnField:
		return "a loop's turn (-loops)"
	case strings.HasPrefix(field, readPrefix):
		return "reads a field (" + strings.TrimPrefix(field, readPrefix) + ")"
	case strings.HasPrefix(field, callPrefix):
		return "a call recorded with -calls " + strings.TrimPrefix(field, callPrefix)
	}
	return "returns " + field
}

// statement is the --getter that names the most repeated statement (or
// URL) of the marked calls recorded inside the standard library (-calls
// sql or http): "sql:SELECT ...", its white space folded; "" when none
// is marked.
func (m *delayModel) statement() string {
	best, set, count := "", "", 0
	for _, g := range m.groups {
		for _, t := range g.Terminals {
			if !m.stmtGetters()[t.Getter] {
				continue
			}
			for _, v := range t.Values {
				if v.Count > count {
					best, set, count = v.Value, strings.TrimPrefix(t.Field, callPrefix), v.Count
				}
			}
		}
	}
	if best == "" {
		return ""
	}
	return set + ":" + strings.Join(strings.Fields(best), " ")
}

// stmtGetters are the marked getters that are calls of -calls sql or
// http, recorded inside the standard library (Terminal.Hooked).
func (m *delayModel) stmtGetters() map[string]bool {
	out := map[string]bool{}
	for _, g := range m.groups {
		for _, t := range g.Terminals {
			if m.marked[t.Getter] && t.Hooked {
				out[t.Getter] = true
			}
		}
	}
	return out
}

// kindNoun names what is marked: "getters", "field reads", "loop
// turns", "calls", or "events of several kinds" when they are of
// several kinds.
func (m *delayModel) kindNoun() string { return m.nounOf(m.marked) }

// nounOf names the events of the full getter names in set, as kindNoun.
func (m *delayModel) nounOf(set map[string]bool) string {
	kinds := map[string]bool{}
	for _, g := range m.groups {
		for _, t := range g.Terminals {
			if t.Getter == "" || !set[t.Getter] {
				continue
			}
			switch {
			case t.Field == tracefmt.TurnField:
				kinds["loop turns"] = true
			case strings.HasPrefix(t.Field, readPrefix):
				kinds["field reads"] = true
			case strings.HasPrefix(t.Field, callPrefix):
				kinds["calls"] = true
			default:
				kinds["getters"] = true
			}
		}
	}
	switch len(kinds) {
	case 0:
		return "getters"
	case 1:
		for k := range kinds {
			return k
		}
	}
	return "events of several kinds"
}

// comparing reports whether enter runs -compare (a verdict) rather than
// -run. Until c is pressed, it does when a marked event is a call (an
// N+1 of SQL or HTTP, made by a server or a batch program, whose delayed
// run is to be timed against a plain one); -run, which hands the terminal
// to the program, stays the default for getters and reads, so that an
// interactive program can be driven by hand.
func (m *delayModel) comparing() bool {
	if m.chosen {
		return m.compare
	}
	for _, f := range m.kindFlags() {
		if f == "-calls" {
			return true
		}
	}
	return false
}

// kindFlags are the flags that make suncat delay record the kinds of
// event marked, as the trace was recorded: -reads for a field read,
// -calls SETS for calls (the set or pattern that chose them, from the
// terminal's field "call:sql").
func (m *delayModel) kindFlags() []string {
	reads := false
	var calls []string
	for _, g := range m.groups {
		for _, t := range g.Terminals {
			if t.Getter == "" || !m.marked[t.Getter] {
				continue
			}
			switch {
			case strings.HasPrefix(t.Field, readPrefix):
				reads = true
			case strings.HasPrefix(t.Field, callPrefix):
				if set := strings.TrimPrefix(t.Field, callPrefix); set != "" && !contains(calls, set) {
					calls = append(calls, set)
				}
			}
		}
	}
	var f []string
	if reads {
		f = append(f, "-reads")
	}
	if len(calls) > 0 {
		sort.Strings(calls)
		f = append(f, "-calls", strings.Join(calls, ","))
	}
	return f
}

// progTail is the end of the command that concerns the program: "--
// ARGS < FILE", or "".
func (m *delayModel) progTail() string {
	prog, input := m.program()
	var parts []string
	if len(prog) > 0 {
		parts = append(parts, "--", joinArgs(prog))
	}
	if input != "" {
		parts = append(parts, "<", shellQuote(input))
	}
	return strings.Join(parts, " ")
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
	last := "  " + joinArgs(append(m.kindFlags(), m.flags()...))
	if m.comparing() {
		last += " " + joinArgs(m.runArgs())
	} else {
		last += " -run ."
		if tail := m.progTail(); tail != "" {
			last += " " + tail
		}
	}
	lines = append(lines, last)
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
	if s == "{}" { // delay -compare's binary; no shell expands it
		return s
	}
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
		b.WriteString(st.title.Render("Nothing is marked for delay") + "\n\n")
		b.WriteString("Select a finding, a terminal or a pattern and press space to mark its\ngetters, reads or calls (a pattern marks those of all its terminals),\nthen press d.\n\n")
		b.WriteString(st.dim.Render("any key closes"))
		return fit(st.box.Width(w).Render(b.String()), m.width, h)
	}
	noun := m.kindNoun()
	b.WriteString(st.title.Render("Delay the marked "+noun) + "\n")
	for _, g := range gs {
		b.WriteString("  " + st.marked.Render("*") + " " + truncate(g, w-6) + "\n")
	}
	if m.onlyStmt {
		b.WriteString(wrapIndent("  only the calls that run "+strings.TrimPrefix(strings.SplitN(m.statement(), ":", 2)[1], " ")+" (s: all)", w-2, "    ") + "\n")
	}
	dir := m.dir()
	b.WriteString("\n")
	if dir != "" {
		b.WriteString(st.dim.Render("in the traced program's directory:") + "\n")
		b.WriteString(wrapIndent("cd "+shellQuote(dir), w-2, "   ") + "\n")
	} else {
		b.WriteString(st.dim.Render("in your program's directory:") + "\n")
	}
	b.WriteString(st.key.Render(m.lines(w-2)) + "\n")
	b.WriteString(m.argsLine(w-2) + "\n")
	if m.last != nil {
		b.WriteString(m.lastRun(w-2, h/3) + "\n")
	}
	b.WriteString("\n")
	how := "sleeps"
	if m.mode == 1 {
		how = "spins (burns CPU)"
	}
	what := "Each of these " + noun + " " + how + " for " + delayDurations[m.d]
	if noun == "getters" {
		what = "Each call of these getters " + how + " for " + delayDurations[m.d]
	}
	if m.comparing() {
		what += ": the program runs plainly, then delayed, and the verdict says whether they are on the path a person waits for (the response grew by about calls x delay)."
	} else {
		what += ": if the screen gets slower, they are on the path a person waits for. To measure, press c (-compare)."
	}
	b.WriteString(wrap(what, w-2) + "\n\n")
	b.WriteString(st.key.Render("+/-") + " delay  " + st.key.Render("m") + " sleep/spin  " + st.key.Render("c") + " compare  ")
	if m.statement() != "" {
		b.WriteString(st.key.Render("s") + " one statement  ")
	}
	switch {
	case m.suncat == "":
		b.WriteString("\n" + st.dim.Render("(suncat delay is not available from this viewer: copy the command)  any key closes"))
	case dir == "":
		b.WriteString(st.key.Render("enter") + " runs it here  " + st.key.Render("esc") + " closes")
	default:
		b.WriteString(st.key.Render("enter") + " runs it now  " + st.key.Render("esc") + " closes")
	}
	return fit(st.box.Width(w).Render(b.String()), m.width, h)
}

// argsLine shows the program's arguments, and the cursor while they are
// typed.
func (m *delayModel) argsLine(w int) string {
	st := m.styles
	if m.editing {
		return truncate(st.dim.Render("program arguments (< FILE for input; enter keeps, esc cancels):")+" "+m.progArgs+"█", w)
	}
	if strings.TrimSpace(m.progArgs) == "" {
		return st.dim.Render("program arguments: none (a to give some, and < FILE for its input)")
	}
	return truncate(st.dim.Render("program arguments (a edits):")+" "+m.progArgs, w)
}

// lastRun is the verdict of the last run from the box and the end of its
// output, at most n lines.
func (m *delayModel) lastRun(w, n int) string {
	st := m.styles
	verdict := "last run: finished"
	if m.last.err != nil {
		verdict = "last run: " + m.last.err.Error()
	}
	lines := []string{st.title.Render(truncate(verdict, w))}
	out := strings.Split(strings.TrimRight(m.last.output, "\n"), "\n")
	if m.last.output == "" {
		out = []string{"(no output)"}
	}
	if n = max(n, 2); len(out) > n {
		out = out[len(out)-n:]
	}
	for _, l := range out {
		lines = append(lines, "  "+truncate(l, w-2))
	}
	return strings.Join(lines, "\n")
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
	var in *os.File
	if _, input := m.program(); input != "" {
		path := input
		if !filepath.IsAbs(path) {
			path = filepath.Join(cmd.Dir, path)
		}
		f, err := os.Open(path)
		if err != nil {
			return func() tea.Msg { return delayDoneMsg{err: err} }, ran
		}
		in, cmd.Stdin = f, f
	}
	out := &tailWriter{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = io.MultiWriter(m.term, out), io.MultiWriter(m.term, out)
	return m.exec(cmd, func(err error) tea.Msg {
		if in != nil {
			in.Close()
		}
		return delayDoneMsg{err: err, output: out.String()}
	}), ran
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	max int
	buf []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailWriter) String() string { return string(t.buf) }
