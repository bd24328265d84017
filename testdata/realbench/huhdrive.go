//go:build ignore

// Command huhdrive (`drv ACTION N [R]`) builds a github.com/charmbracelet/huh
// v1.0.0 form of one Select or MultiSelect with N options and drives it
// in-process, as bubbletea would: a WindowSizeMsg, a first View, then
// (after a line on stdin when SYNC=1, so that `suncat mark` can mark the
// keys) the action's keys, each sent to Form.Update and followed by
// Form.View. Commands returned by Update are dropped (no cursor blink, no
// ticks). NOKEYS=1 sends no key (the setup alone, for -cover); THEME=1
// gives the form one theme (doc/cases/huh-reads.md).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
)

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
	"hotel", "india", "juliet", "kilo", "lima", "mike"}

func options(n int) []huh.Option[int] {
	o := make([]huh.Option[int], n)
	for i := range o {
		o[i] = huh.NewOption(fmt.Sprintf("%s %s #%d", words[i%13], words[(i/13)%13], i), i)
	}
	return o
}

// cpu is the process's user+system CPU time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

var (
	down  = tea.KeyMsg{Type: tea.KeyDown}
	right = tea.KeyMsg{Type: tea.KeyRight}
	ctrlA = tea.KeyMsg{Type: tea.KeyCtrlA}
)

func rep(r int, ks ...tea.KeyMsg) []tea.KeyMsg {
	var out []tea.KeyMsg
	for i := 0; i < r; i++ {
		out = append(out, ks...)
	}
	return out
}

func main() {
	action := os.Args[1]
	n, _ := strconv.Atoi(os.Args[2])
	r := 20
	if len(os.Args) > 3 {
		r, _ = strconv.Atoi(os.Args[3])
	}
	var sel int
	var msel []int
	var field huh.Field
	var keys []tea.KeyMsg
	switch action {
	case "sel-down": // Select, default height, R Down keys
		field = huh.NewSelect[int]().Title("Pick one").Options(options(n)...).Value(&sel)
		keys = rep(r, down)
	case "selh-down": // Select with Height(10), R Down keys
		field = huh.NewSelect[int]().Title("Pick one").Height(10).Options(options(n)...).Value(&sel)
		keys = rep(r, down)
	case "sel-filter": // Select with Height(10): "/" then "echo", then R/4 Down keys (arrow)
		field = huh.NewSelect[int]().Title("Pick one").Height(10).Options(options(n)...).Value(&sel)
		keys = append([]tea.KeyMsg{runes("/"), runes("e"), runes("c"), runes("h"), runes("o")}, rep(r/4, down)...)
	case "inline-right": // flat control: inline Select, R Right keys
		field = huh.NewSelect[int]().Title("Pick one").Inline(true).Options(options(n)...).Value(&sel)
		keys = rep(r, right)
	case "ms-toggle": // MultiSelect Height(10): R/2 times (x, Down)
		field = huh.NewMultiSelect[int]().Title("Pick some").Height(10).Options(options(n)...).Value(&msel)
		keys = rep(r/2, runes("x"), down)
	case "ms-all": // MultiSelect Height(10): ctrl+a R/10 times (all, none, ...)
		field = huh.NewMultiSelect[int]().Title("Pick some").Height(10).Options(options(n)...).Value(&msel)
		keys = rep(r/10, ctrlA)
	default:
		fmt.Fprintln(os.Stderr, "unknown action", action)
		os.Exit(2)
	}
	if os.Getenv("NOKEYS") == "1" { // the setup alone, to subtract from a -cover run
		keys = nil
	}
	form := huh.NewForm(huh.NewGroup(field))
	if os.Getenv("THEME") == "1" { // one theme for all, instead of ThemeCharm() at each activeStyles()
		form = form.WithTheme(huh.ThemeCharm())
	}
	form.Init()
	var m tea.Model = form
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 40})
	_ = m.View()
	sync := os.Getenv("SYNC") == "1"
	in := bufio.NewReader(os.Stdin)
	if sync {
		fmt.Println("ready")
		in.ReadString('\n')
	}
	t0, c0 := time.Now(), cpu()
	var last string
	for _, k := range keys {
		m, _ = m.Update(k)
		last = m.View()
	}
	el, ec := time.Since(t0), cpu()-c0
	if os.Getenv("SHOW") == "1" {
		fmt.Fprintln(os.Stderr, last)
	}
	k := float64(max(len(keys), 1))
	fmt.Fprintf(os.Stderr, "%s n=%d keys=%d wall %.3fms/key cpu %.3fms/key sel=%d msel=%d\n", action, n, len(keys),
		float64(el.Microseconds())/1000/k, float64(ec.Microseconds())/1000/k, sel, len(msel))
	if sync {
		fmt.Println("done")
		in.ReadString('\n')
	}
}
