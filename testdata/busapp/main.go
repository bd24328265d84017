// Command busapp is a small bus-information app, modelled on the
// OneBusAway example of the SUNCAT paper: a list of stops, a detail screen
// per stop, back navigation, and a recently-viewed list. It has two planted
// performance bugs (see model/state.go) and a background prefetcher.
//
//	busapp              the interactive terminal UI
//	busapp -script F    run commands from file F ("-": standard input), one
//	                    per line (up, down, enter, back, recent, wait 50ms,
//	                    quit), printing "ok <screen> <detail>" after each
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"example.com/busapp/model"
)

type screen int

const (
	allStops screen = iota
	oneStop
	recent
)

func (s screen) String() string { return [...]string{"stops", "stop", "recent"}[s] }

type app struct {
	city   *model.City
	state  *model.ViewState
	screen screen
	cursor int
	title  string // the detail screen's title, kept up to date by its observer
}

func newApp() *app {
	return &app{city: model.NewCity(), state: &model.ViewState{}}
}

func (a *app) Init() tea.Cmd { return nil }

func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	key, ok := msg.(tea.KeyMsg)
	if !ok {
		return a, nil
	}
	switch key.String() {
	case "q", "ctrl+c":
		return a, tea.Quit
	case "up", "k":
		if a.screen == allStops && a.cursor > 0 {
			a.cursor--
		}
	case "down", "j":
		if a.screen == allStops && a.cursor < len(a.city.Stops)-1 {
			a.cursor++
		}
	case "enter":
		if a.screen == allStops {
			a.open(a.city.Stops[a.cursor])
		}
	case "esc", "backspace":
		a.screen = allStops
	case "r":
		a.screen = recent
	}
	return a, nil
}

// open shows the detail screen of s. Every detail screen observes the
// current stop to keep its title up to date.
func (a *app) open(s *model.Stop) {
	a.screen = oneStop
	a.state.Observe(func(cur *model.Stop) { a.title = cur.Name() })
	a.state.SetCurrent(s)
}

func (a *app) View() string {
	var b strings.Builder
	switch a.screen {
	case allStops:
		b.WriteString("All stops\n\n")
		for i, s := range a.city.Stops {
			cursor := "  "
			if i == a.cursor {
				cursor = "> "
			}
			fmt.Fprintf(&b, "%s%s (%s)\n", cursor, s.Name(), s.Code())
		}
		b.WriteString("\nenter: open  r: recently viewed  q: quit\n")
	case oneStop:
		s := a.state.Current()
		fmt.Fprintf(&b, "%s\n\n", a.title)
		for _, ar := range a.city.Arrivals(s) {
			fmt.Fprintf(&b, "  %-4s to %-28s %2d min\n", ar.Route().ShortName(), ar.Headsign(), ar.Minutes())
		}
		b.WriteString("\nesc: back\n")
	case recent:
		b.WriteString("Recently viewed\n\n")
		for _, s := range a.state.Recent {
			fmt.Fprintf(&b, "  %s\n", s.Name())
		}
		b.WriteString("\nesc: back\n")
	}
	return b.String()
}

// detail describes the screen for the script acknowledgements.
func (a *app) detail() string {
	switch a.screen {
	case oneStop:
		return a.title
	case recent:
		return fmt.Sprintf("%d stops", len(a.state.Recent))
	}
	return a.city.Stops[a.cursor].Name()
}

// prefetch refreshes route descriptions in the background, off the path
// the user waits for, the way the original app prefetches from its
// server: once at launch, so that even a short run records it, then every
// 5 ms until stop is closed. The city data never changes, so it needs no
// lock.
func prefetch(city *model.City, stop <-chan struct{}) {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		for _, r := range city.Routes {
			_ = r.LongName()
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

var keys = map[string]tea.KeyMsg{
	"up":        {Type: tea.KeyUp},
	"down":      {Type: tea.KeyDown},
	"enter":     {Type: tea.KeyEnter},
	"back":      {Type: tea.KeyEsc},
	"esc":       {Type: tea.KeyEsc},
	"recent":    {Type: tea.KeyRunes, Runes: []rune{'r'}},
	"quit":      {Type: tea.KeyRunes, Runes: []rune{'q'}},
	"backspace": {Type: tea.KeyBackspace},
}

// runScript applies commands to the app without a terminal and
// acknowledges each one on out.
func runScript(a *app, mu *sync.Mutex, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	w := bufio.NewWriter(out)
	for line := 1; sc.Scan(); line++ {
		cmd := strings.TrimSpace(sc.Text())
		if cmd == "" || strings.HasPrefix(cmd, "#") {
			continue
		}
		if strings.HasPrefix(cmd, "wait ") {
			d, err := time.ParseDuration(strings.TrimSpace(cmd[5:]))
			if err != nil {
				return fmt.Errorf("line %d: %v", line, err)
			}
			time.Sleep(d)
		} else {
			k, ok := keys[cmd]
			if !ok {
				return fmt.Errorf("line %d: unknown command %q (want up, down, enter, back, recent, wait DURATION, quit)", line, cmd)
			}
			mu.Lock()
			_, c := a.Update(k)
			_ = a.View()
			mu.Unlock()
			if cmd == "quit" || c != nil {
				fmt.Fprintf(w, "ok quit\n")
				return w.Flush()
			}
		}
		fmt.Fprintf(w, "ok %s %s\n", a.screen, a.detail())
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

func main() {
	script := flag.String("script", "", "run commands from `file` (- for standard input) instead of the terminal UI")
	flag.Usage = usage
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "busapp: unexpected arguments %q\n", strings.Join(flag.Args(), " "))
		usage()
		os.Exit(2)
	}
	// Open the script before anything runs, so that a bad path fails
	// before the prefetcher starts recording.
	var in io.Reader
	switch *script {
	case "":
	case "-":
		in = os.Stdin
	default:
		f, err := os.Open(*script)
		if err != nil {
			fmt.Fprintln(os.Stderr, "busapp:", err)
			os.Exit(1)
		}
		defer f.Close()
		in = f
	}
	a := newApp()
	var mu sync.Mutex
	stop := make(chan struct{})
	go prefetch(a.city, stop)
	defer close(stop)
	if in != nil {
		if err := runScript(a, &mu, in, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "busapp: -script %s: %v\n", *script, err)
			os.Exit(1)
		}
		return
	}
	if _, err := tea.NewProgram(&locked{a, &mu}, tea.WithAltScreen()).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "busapp:", err)
		if strings.Contains(strings.ToLower(err.Error()), "tty") {
			fmt.Fprintln(os.Stderr, "busapp: without a terminal, run a script of keys: busapp -script FILE")
		}
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(flag.CommandLine.Output(), `usage: busapp [-script FILE|-]

Without -script, busapp is an interactive terminal UI (enter: open a stop,
esc: back, r: recently viewed, q: quit). With -script it reads one command
per line (up, down, enter, back or esc, recent, wait DURATION, quit, and
# comments), applies each to the same UI model without a terminal, and
prints one acknowledgement line "ok <screen> <detail>" after each.

Examples:

	busapp -script scenario.txt
	printf 'enter\nback\nquit\n' | busapp -script -

Flags:
`)
	flag.PrintDefaults()
}

// locked serializes the UI with the prefetcher.
type locked struct {
	a  *app
	mu *sync.Mutex
}

func (l *locked) Init() tea.Cmd { return nil }
func (l *locked) Update(m tea.Msg) (tea.Model, tea.Cmd) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, c := l.a.Update(m)
	return l, c
}
func (l *locked) View() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.a.View()
}
