//go:build ignore

// Command tviewdrive fills one widget of github.com/rivo/tview v0.42.0
// with N items on a tcell SimulationScreen (80x25, no terminal) and then
// repeats one action REPS times: a key given to the widget's input
// handler, then a frame drawn with Application.ForceDraw.
//
//	tviewdrive WIDGET N [REPS]
//
// The widgets and their action (REPS defaults to 20):
//   - list: a List of N items "item I" (no secondary text, no
//     shortcuts); End, then REPS presses of Up (the selection stays on
//     the last screen, near item N).
//   - listpg: the same List; REPS presses of PgDn from the top.
//   - tree: a TreeView, a root with N leaf children, the last one
//     selected (End in a TreeView scrolls, it does not select); REPS
//     presses of Up.
//   - table: a Table of N rows and 3 columns, rows selectable; End,
//     then REPS presses of Up (the flat control: a frame measures the
//     visible rows only).
//   - tableall: the same Table with SetEvaluateAllRows(true); End, then
//     REPS presses of Up.
//   - textview: a scrollable TextView of N lines; End, then REPS
//     presses of Up (a flat control: the line index is kept).
//   - log: a TextView with SetMaxLines(N), filled with N lines, at its
//     end; REPS times one more line written, then a frame.
//
// Marks (when SUNCAT_BIN names the suncat binary: $SUNCAT_BIN mark -pid
// PID): with MARKS=size (the default), "setup n=N" at the start, "ACTION
// n=N" before the REPS repetitions and "done n=N" after them, so that
// `-run '^ACTION n='` keeps the repetitions at each N; with MARKS=rep,
// "ACTION K" before the K-th repetition (K = 1..REPS), one sub-trace a
// repetition, and "done" after the last.
//
// It builds in a module of its own (doc/cases/tview-reads.md):
//
//	mkdir tviewdrive && cp tviewdrive.go tviewdrive/main.go && cd tviewdrive
//	sed -i 1,2d main.go && go mod init example.com/tviewdrive
//	go get github.com/rivo/tview@v0.42.0 && go mod tidy && go build
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

func die(f string, a ...any) {
	fmt.Fprintf(os.Stderr, "tviewdrive: "+f+"\n", a...)
	os.Exit(1)
}

// mark writes a sub-trace boundary through suncat's control socket.
func mark(label string) {
	bin := os.Getenv("SUNCAT_BIN")
	if bin == "" {
		return
	}
	out, err := exec.Command(bin, "mark", "-pid", strconv.Itoa(os.Getpid()), label).CombinedOutput()
	if err != nil {
		die("mark: %v: %s", err, out)
	}
}

func key(k tcell.Key) *tcell.EventKey { return tcell.NewEventKey(k, 0, tcell.ModNone) }

func main() {
	if len(os.Args) < 3 {
		die("usage: tviewdrive list|listpg|tree|table|tableall|textview|log N [REPS]")
	}
	w := os.Args[1]
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 1 {
		die("bad N %q", os.Args[2])
	}
	reps := 20
	if len(os.Args) > 3 {
		if reps, err = strconv.Atoi(os.Args[3]); err != nil || reps < 0 {
			die("bad REPS %q", os.Args[3])
		}
	}
	perRep := os.Getenv("MARKS") == "rep"
	if !perRep {
		mark(fmt.Sprintf("setup n=%d", n))
	}

	screen := tcell.NewSimulationScreen("UTF-8")
	app := tview.NewApplication()
	app.SetScreen(screen) // calls screen.Init
	screen.SetSize(80, 25)

	var (
		root   tview.Primitive
		action string
		start  []tcell.Key // keys before the repetitions
		rep    func()      // one repetition, before its frame
	)
	switch w {
	case "list", "listpg":
		l := tview.NewList().ShowSecondaryText(false)
		for i := 0; i < n; i++ {
			l.AddItem(fmt.Sprintf("item %d", i), "", 0, nil)
		}
		root, action = l, "up"
		start = []tcell.Key{tcell.KeyEnd}
		k := tcell.KeyUp
		if w == "listpg" {
			action, start, k = "pgdn", nil, tcell.KeyPgDn
		}
		h := l.InputHandler()
		rep = func() { h(key(k), func(tview.Primitive) {}) }
	case "tree":
		r := tview.NewTreeNode("root")
		var c *tview.TreeNode
		for i := 0; i < n; i++ {
			c = tview.NewTreeNode(fmt.Sprintf("node %d", i))
			r.AddChild(c)
		}
		t := tview.NewTreeView().SetRoot(r).SetCurrentNode(c)
		root, action = t, "up"
		h := t.InputHandler()
		rep = func() { h(key(tcell.KeyUp), func(tview.Primitive) {}) }
	case "table", "tableall":
		t := tview.NewTable().SetSelectable(true, false)
		for i := 0; i < n; i++ {
			t.SetCellSimple(i, 0, strconv.Itoa(i))
			t.SetCellSimple(i, 1, fmt.Sprintf("name %d", i))
			t.SetCellSimple(i, 2, fmt.Sprintf("value %d", i*7))
		}
		if w == "tableall" {
			t.SetEvaluateAllRows(true)
		}
		root, action = t, "up"
		start = []tcell.Key{tcell.KeyEnd}
		h := t.InputHandler()
		rep = func() { h(key(tcell.KeyUp), func(tview.Primitive) {}) }
	case "textview":
		t := tview.NewTextView()
		for i := 0; i < n; i++ {
			fmt.Fprintf(t, "line %d of the text view\n", i)
		}
		root, action = t, "up"
		start = []tcell.Key{tcell.KeyEnd}
		h := t.InputHandler()
		rep = func() { h(key(tcell.KeyUp), func(tview.Primitive) {}) }
	case "log":
		t := tview.NewTextView().SetMaxLines(n)
		for i := 0; i < n; i++ {
			fmt.Fprintf(t, "log line %d\n", i)
		}
		t.ScrollToEnd()
		i := n
		root, action = t, "append"
		rep = func() { fmt.Fprintf(t, "log line %d\n", i); i++ }
	default:
		die("unknown widget %q", w)
	}
	app.SetRoot(root, true)
	app.ForceDraw()
	for _, k := range start {
		root.InputHandler()(key(k), func(tview.Primitive) {})
		app.ForceDraw()
	}

	if !perRep {
		mark(fmt.Sprintf("%s n=%d", action, n))
	}
	for k := 1; k <= reps; k++ {
		if perRep {
			mark(fmt.Sprintf("%s %d", action, k))
		}
		rep()
		app.ForceDraw()
	}
	if perRep {
		mark("done")
	} else {
		mark(fmt.Sprintf("done n=%d", n))
	}

	// A check that the frame shows what it should: the text of row 24.
	var last []rune
	for x := 0; x < 80; x++ {
		c, _, _, _ := screen.GetContent(x, 23)
		last = append(last, c)
	}
	fmt.Printf("%s n=%d reps=%d: row 24 %q\n", w, n, reps, string(trim(last)))
	screen.Fini()
}

func trim(r []rune) []rune {
	for len(r) > 0 && (r[len(r)-1] == ' ' || r[len(r)-1] == 0) {
		r = r[:len(r)-1]
	}
	return r
}
