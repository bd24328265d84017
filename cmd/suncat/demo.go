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
	"text/tabwriter"
	"time"

	"github.com/suncat-go/suncat/instrument"
	"github.com/suncat-go/suncat/logrt"
)

var demoCmd = &command{
	name:  "demo",
	args:  "[-app dir] [-stops N]",
	short: "instrument the bundled bus app, run its scenario, show what grows",
	order: 1,
	long: `
Demo runs suncat's main job on the bus-information sample app bundled in
testdata/busapp: it instruments the app, drives its scripted scenario (open
a stop, go back, move to the next stop; four times, each a sub-trace marked
through the control channel, as you would with 'suncat mark'), and prints
how many times each getter was called from each place in each sub-trace.
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("demo: unexpected arguments %q", strings.Join(fs.Args(), " "))
	}
	if *stops < 1 || *stops > 8 {
		return usagef("demo: -stops %d: want 1 to 8 (the app has 8 stops)", *stops)
	}
	dir := *appDir
	if dir == "" {
		var err error
		if dir, err = findBusApp(); err != nil {
			return fmt.Errorf("demo: %v", err)
		}
	}
	tracePath, err := recordDemo(dir, *stops, stderr)
	if err != nil {
		return fmt.Errorf("demo: %v", err)
	}
	tr, err := logrt.ReadFile(tracePath)
	if err != nil {
		return fmt.Errorf("demo: %v", err)
	}
	fmt.Fprintf(stdout, "suncat demo: the bus app, %d stops opened and closed again, one sub-trace each\n", *stops)
	fmt.Fprintf(stdout, "trace: %s (%d events)\n\n", tracePath, len(tr.Events))
	printCallSites(stdout, tr)
	fmt.Fprintf(stdout, "\nRows marked \"grows\" are called more with every repetition of the same action:\n")
	fmt.Fprintf(stdout, "the app would get slower the longer it is used. Inspect them with\n")
	fmt.Fprintf(stdout, "  suncat events -stacks %s\n", tracePath)
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
	res, err := instrument.Build(ctx, instrument.BuildOptions{Dir: appDir, Output: bin, Progress: progress})
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(logrt.DefaultDir(), 0o755); err != nil {
		return "", err
	}
	traceDir, err := os.MkdirTemp(logrt.DefaultDir(), "demo-")
	if err != nil {
		return "", err
	}
	cmd := exec.Command(res.Output, "-script", "-")
	cmd.Env = append(os.Environ(), logrt.TraceEnv+"="+traceDir+string(filepath.Separator))
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
			return fmt.Errorf("the app stopped answering after %q: %v", key, err)
		}
		if !strings.HasPrefix(line, "ok ") {
			return fmt.Errorf("the app answered %q to %q", strings.TrimSpace(line), key)
		}
		return nil
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	fmt.Fprintf(progress, "suncat: running the scenario (pid %s)\n", pid)
	// The app opens its trace and control socket with its first getter
	// call; wait until it answers.
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := logrt.SendControl(pid, "resume", ""); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("the instrumented app did not open its control channel")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 1; i <= stops; i++ {
		if _, err := logrt.SendControl(pid, "mark", fmt.Sprintf("stop %d", i)); err != nil {
			return "", err
		}
		for _, k := range []string{"enter", "back", "down"} {
			if err := step(k); err != nil {
				return "", err
			}
		}
	}
	if _, err := logrt.SendControl(pid, "pause", ""); err != nil {
		return "", err
	}
	fmt.Fprintln(in, "quit")
	in.Close()
	if err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("the app failed: %v", err)
	}
	traces, _ := filepath.Glob(filepath.Join(traceDir, "*.suncat"))
	if len(traces) != 1 {
		return "", fmt.Errorf("want one trace in %s, found %d", traceDir, len(traces))
	}
	return traces[0], nil
}

func cacheFile(elem ...string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	p := filepath.Join(append([]string{base, "suncat"}, elem...)...)
	return p, os.MkdirAll(filepath.Dir(p), 0o755)
}

// printCallSites prints, for every getter and the place it was called
// from, its number of calls in each sub-trace (between marks).
func printCallSites(w io.Writer, tr *logrt.Trace) {
	type site struct{ getter, caller, goroutine string }
	subs := 0
	counts := map[site][]int{}
	var order []site
	mi := 0
	for _, e := range tr.Events {
		for ; mi < len(tr.Marks) && tr.Marks[mi].Seq < e.Seq; mi++ {
			if tr.Marks[mi].Kind == logrt.KindMark {
				subs++
			}
		}
		if subs == 0 {
			continue // before the first mark: start-up
		}
		s := site{getter: fmt.Sprint(e.Getter), goroutine: e.Entry}
		if g, ok := tr.GetterOf(e.Getter); ok {
			s.getter = g.Name()
		}
		if st := tr.StackOf(e.Stack); st != nil && len(st.Frames) > 1 {
			f := st.Frames[1]
			s.caller = fmt.Sprintf("%s (%s:%d)", shortFunc(f.Func), filepath.Base(f.File), f.Line)
		}
		c, ok := counts[s]
		if !ok {
			order = append(order, s)
		}
		for len(c) < subs {
			c = append(c, 0)
		}
		c[subs-1]++
		counts[s] = c
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].getter < order[j].getter })
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "getter\tcalled from\tgoroutine\t")
	for i := 1; i <= subs; i++ {
		fmt.Fprintf(tw, "sub %d\t", i)
	}
	fmt.Fprintf(tw, "\t\n")
	for _, s := range order {
		c := counts[s]
		for len(c) < subs {
			c = append(c, 0)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t", s.getter, s.caller, shortFunc(s.goroutine))
		grows := subs > 1
		for i, n := range c {
			fmt.Fprintf(tw, "%d\t", n)
			if i > 0 && n <= c[i-1] {
				grows = false
			}
		}
		if grows {
			fmt.Fprintf(tw, "grows\t\n")
		} else {
			fmt.Fprintf(tw, "\t\n")
		}
	}
	tw.Flush()
}

// shortFunc drops the package path: "example.com/busapp/model.(*ViewState).visit"
// becomes "model.(*ViewState).visit".
func shortFunc(f string) string {
	if i := strings.LastIndex(f, "/"); i >= 0 {
		return f[i+1:]
	}
	return f
}
