package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt/host"
	"github.com/suncat-go/suncat/prioritize"
	"github.com/suncat-go/suncat/tui"
)

var demoCmd = &command{
	name:  "demo",
	args:  "[-app dir] [-stops N] [-text]",
	short: "instrument the bundled bus app, run its scenario, show what grows",
	order: 1,
	long: `
Demo runs suncat's main job on the bus-information sample app bundled in
testdata/busapp: it instruments the app, drives its scripted scenario (open
a stop, go back, move to the next stop; four times, each a sub-trace marked
through the control channel, as you would with 'suncat mark'), and opens
the viewer on the trace (press ? for its keys). When standard output is not
a terminal, or with -text, it prints the Performance Summary instead: the
findings, then for the main goroutine the Count Summary, the Summarized
Grammar, the Prioritized Patterns and what grows, from the top finding
down.
The app has two planted bugs (testdata/busapp/README.md); the demo shows
both growing with every repetition.

Examples:

	go run ./cmd/suncat demo
	suncat demo -stops 6
`,
}

func init() {
	demoCmd.run = runDemo
	register(demoCmd)
}

func runDemo(stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(demoCmd, stderr)
	appDir := fs.String("app", "", "the bus app's `directory` (default: testdata/busapp of the suncat source)")
	stops := fs.Int("stops", 4, "number of stops to open, one sub-trace each")
	noView := fs.Bool("text", false, "print the summary as text even on a terminal (no viewer)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	if *stops < 1 || *stops > 8 {
		return usagef("-stops %d: want 1 to 8 (the app has 8 stops)", *stops)
	}
	dir := *appDir
	if dir == "" {
		var err error
		if dir, err = findBusApp(); err != nil {
			return err
		}
	}
	tracePath, err := recordDemo(dir, *stops, stderr)
	if err != nil {
		return err
	}
	files, err := loadTraces([]string{tracePath})
	if err != nil {
		return err
	}
	st, err := streamSummary(files, prioritize.Options{Sources: userSources()}, nil)
	if err != nil {
		return err
	}
	printNotes(stderr, "demo", st.Notes)
	sum := st.Summary
	if isTerminal(stdout) && !*noView {
		// The viewer on the scenario's trace; the text below is what a
		// pipe or a CI log gets.
		return openViewer(stdout, tui.Options{Title: tracePath}, func(func(tui.Progress)) (tui.Summary, error) { return tui.FromPrioritize(sum), nil })
	}
	fmt.Fprintf(stdout, "suncat demo: the bus app, %d stops opened and closed again, one sub-trace each\n", *stops)
	fmt.Fprintf(stdout, "trace: %s (%d events)\n", tracePath, st.Events)
	printDemoSummary(stdout, sum, tracePath)
	return nil
}

// findBusApp looks for testdata/busapp from the working directory up, then
// beside the source of this command (for go run and go install on the
// machine that has the source).
func findBusApp() (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, s := range starts {
		for d := s; ; d = filepath.Dir(d) {
			cand := filepath.Join(d, "testdata", "busapp")
			if _, err := os.Stat(filepath.Join(cand, "go.mod")); err == nil {
				return cand, nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", fmt.Errorf("cannot find testdata/busapp; run the demo inside the suncat source tree or give -app")
}

// recordDemo instruments the app, runs the scenario and returns the trace.
func recordDemo(appDir string, stops int, progress io.Writer) (string, error) {
	ctx := context.Background()
	bin, err := cacheFile("bin", "busapp-demo")
	if err != nil {
		return "", err
	}
	res, err := instrument.Build(ctx, instrument.BuildOptions{Options: instrument.Options{Dir: appDir, Progress: progress}, Output: bin})
	if err != nil {
		return "", err
	}
	traceDir, err := newTraceDir("", "demo")
	if err != nil {
		return "", err
	}
	cmd := exec.Command(res.Output, "-script", "-")
	cmd.Env = append(os.Environ(), traceEnv(traceDir))
	cmd.Stderr = progress
	in, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	defer cmd.Process.Kill()
	acks := bufio.NewReader(outPipe)
	step := func(key string) error {
		if _, err := fmt.Fprintln(in, key); err != nil {
			return err
		}
		line, err := acks.ReadString('\n')
		if err != nil {
			return fmt.Errorf("the app stopped answering after %q: %w", key, err)
		}
		if !strings.HasPrefix(line, "ok ") {
			return fmt.Errorf("the app answered %q to %q", strings.TrimSpace(line), key)
		}
		return nil
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	fmt.Fprintf(progress, "suncat: running the scenario (pid %s)\n", pid)
	if err := awaitControl(pid); err != nil {
		return "", err
	}
	for i := 1; i <= stops; i++ {
		if _, err := host.SendControl(pid, "mark", fmt.Sprintf("stop %d", i)); err != nil {
			return "", err
		}
		for _, k := range []string{"enter", "back", "down"} {
			if err := step(k); err != nil {
				return "", err
			}
		}
	}
	if _, err := host.SendControl(pid, "pause", ""); err != nil {
		return "", err
	}
	fmt.Fprintln(in, "quit")
	in.Close()
	err = cmd.Wait()
	host.RemoveStaleSockets() // the app's, now that it is gone
	if err != nil {
		return "", fmt.Errorf("the app failed: %w", err)
	}
	traces := tracesIn(traceDir)
	if len(traces) != 1 {
		return "", fmt.Errorf("want one trace in %s, found %d", traceDir, len(traces))
	}
	return traces[0], nil
}

// awaitControl waits until the app answers on its control channel, which
// it opens with its first getter call.
func awaitControl(pid string) error {
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := host.SendControl(pid, "resume", ""); err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the instrumented app did not open its control channel")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// cacheFile returns the path of a file under the build cache, making its
// directory (instrument.MakeCacheDir).
func cacheFile(elem ...string) (string, error) {
	dir, err := instrument.MakeCacheDir(elem[:len(elem)-1]...)
	return filepath.Join(dir, elem[len(elem)-1]), err
}

// printDemoSummary prints the findings, then the main goroutine's Count
// Summary, Summarized Grammar and Prioritized Patterns, then ties them
// together (demoStory).
func printDemoSummary(w io.Writer, sum *prioritize.Summary, tracePath string) {
	if len(sum.Groups) == 0 {
		fmt.Fprintln(w, "no events were recorded in the sub-traces")
		return
	}
	fmt.Fprint(w, "\n"+prioritize.FindingsText(sum.Findings, 5))
	g := sum.Groups[0]
	fmt.Fprintf(w, "\n#### %s\n", prioritize.Header(g))
	fmt.Fprint(w, prioritize.Text(g, []string{"count", "summarized"}, prioritize.SummarizeOptions{Min: 3}, "kind", nil))
	const top = 8
	fmt.Fprintf(w, "\n== Prioritized Patterns (top %d of %d)\n", min(top, len(g.Patterns)), len(g.Patterns))
	for i, p := range g.Patterns {
		if i == top {
			break
		}
		fmt.Fprintln(w, prioritize.PatternLine(p))
	}
	fmt.Fprint(w, demoStory(sum, g))
	if len(sum.Groups) > 1 {
		fmt.Fprintf(w, "\n(%s, e.g. %s; see the whole summary)\n", plural(len(sum.Groups)-1, "more goroutine group"), sum.Groups[1].Goroutine)
	}
	fmt.Fprintf(w, "\nNext: suncat summary %s\n", tracePath)
}

// demoStory tells what the levels show as one story: each finding (in
// the findings' order) with the Count Summary letters of its sites and
// their calls summed; then the top increasing pattern, which finding it
// belongs to, and why its counts may start later than the Count
// Summary's (a pattern counts inside a rule that repeats); then its
// values per sub-trace.
func demoStory(sum *prioritize.Summary, g *prioritize.Group) string {
	var b strings.Builder
	f := sum.Findings
	if f == nil || len(f.Findings) == 0 {
		return ""
	}
	byLetter := map[string]*prioritize.Terminal{}
	for _, t := range g.Terminals {
		byLetter[t.Letter] = t
	}
	owner := map[string]int{} // letter -> finding number
	fmt.Fprintf(&b, "\nWhat grows, from the top finding down (the Count Summary's letters are its sites):\n")
	for i, d := range f.Findings {
		var letters []string
		for _, s := range d.Sites {
			for _, t := range s.Terminals {
				if t.Group == 0 {
					letters = append(letters, t.Letter)
					owner[t.Letter] = i + 1
				}
			}
		}
		sort.Strings(letters)
		p := prioritize.FindingParts(f, d)
		fmt.Fprintf(&b, "  %d. %s, %s: %s (%s), together %s\n", i+1, p.Frame, p.Class, p.Getters, strings.Join(letters, " "), p.Counts)
	}
	inc := prioritize.Filter(g.Patterns, []prioritize.Kind{prioritize.Increasing})
	if len(inc) == 0 || !inc[0].Terminal {
		return b.String()
	}
	top := inc[0]
	t := byLetter[top.Terminals[0]]
	if t == nil {
		return b.String()
	}
	perSub := t.PerSub()
	fmt.Fprintf(&b, "\nThe top increasing pattern, %s, is %s^%s of the Count Summary", top.Notation(), t.Letter, prioritize.CountList(perSub))
	if n := owner[t.Letter]; n > 0 {
		fmt.Fprintf(&b, ", finding %d", n)
	}
	b.WriteString(".\n")
	if k := len(perSub) - len(top.Counts); k > 0 && equalInts(perSub[k:], top.Counts) {
		left := "sub-trace 1 is"
		if k > 1 {
			left = fmt.Sprintf("sub-traces 1 to %d are", k)
		}
		fmt.Fprintf(&b, "(A pattern counts the calls inside a rule that repeats: rule %s repeats from sub-trace %d on, so %s left out.)\n", top.Rule, k+1, left)
	}
	fmt.Fprintf(&b, "%s called from %s. Its values per sub-trace:\n", t.Name, prioritize.Where(t))
	for i := range perSub {
		var parts []string
		for _, v := range t.ValuesIn(i) {
			parts = append(parts, fmt.Sprintf("%q x%d", v.Value, v.Count))
		}
		fmt.Fprintf(&b, "  %s: %s\n", g.SubTraces[i].Label, strings.Join(parts, ", "))
	}
	b.WriteString("The same stop, more times on every visit: something keeps re-reading it.\n")
	return b.String()
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
