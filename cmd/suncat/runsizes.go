package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/logrt/tracefmt"
)

// run -sizes runs the instrumented program once per input size, each run
// writing the trace nSIZE.suncat, and prints the summary of them all (the
// sizes come from the names, as for suncat summary DIR). In the program's
// arguments {} stands for the size. With -gen CMD, the shell command CMD
// ({} the size) makes each run's input: its standard output goes to a
// temporary file, which is the program's standard input, or, where the
// program's arguments say {in}, the file named there.

// A sizedRun is what run -sizes was asked for.
type sizedRun struct {
	sizes []int
	gen   string
	args  []string // the program's arguments, with {} and {in}
}

// Placeholders in the program's arguments and in -gen.
const (
	sizeHole  = "{}"
	inputHole = "{in}"
)

// parseSizedRun checks run's -sizes and -gen against the program's
// arguments; misuse is a usage error.
func parseSizedRun(sizes, gen string, args []string) (*sizedRun, error) {
	if sizes == "" {
		if gen != "" {
			return nil, usagef("-gen needs -sizes")
		}
		return nil, nil
	}
	r := &sizedRun{gen: gen, args: args}
	seen := map[int]bool{}
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, usagef("-sizes %q: %q is not a size above 0", sizes, f)
		}
		if seen[n] {
			return nil, usagef("-sizes %q: %d twice", sizes, n)
		}
		seen[n] = true
		r.sizes = append(r.sizes, n)
	}
	if len(r.sizes) < 2 {
		return nil, usagef("-sizes %q: want two sizes or more, comma-separated (10,20,40,80)", sizes)
	}
	holes, in := 0, false
	for _, a := range args {
		holes += strings.Count(a, sizeHole)
		in = in || strings.Contains(a, inputHole)
	}
	switch {
	case gen != "" && !strings.Contains(gen, sizeHole):
		return nil, usagef("-gen %q: no %s in it for the size", gen, sizeHole)
	case gen == "" && in:
		return nil, usagef("%s in the program's arguments needs -gen, whose output it names", inputHole)
	case gen == "" && holes == 0:
		return nil, usagef("-sizes: no %s in the program's arguments (after --) for the size, and no -gen", sizeHole)
	}
	return r, nil
}

// traceName is the trace file of the run of size n.
func traceName(n int) string { return "n" + strconv.Itoa(n) + ".suncat" }

// checkSizedTraces refuses a trace directory that holds a trace of one of
// the sizes already.
func checkSizedTraces(dir string, r *sizedRun) error {
	if dir == "" {
		return nil
	}
	for _, n := range r.sizes {
		if _, err := os.Stat(filepath.Join(dir, traceName(n))); err == nil {
			return usagef("-trace %s: %s exists already (remove it, or choose another directory)", dir, traceName(n))
		}
	}
	return nil
}

// runSized runs the instrumented binary once per size into dir (a new
// directory when dir is "") and prints the summary of the traces. The
// exit status is that of the first run that failed, if any (the others
// still run); a run ended by a signal stops the rest.
func runSized(bin string, r *sizedRun, dir string, stdout, stderr io.Writer) error {
	made := dir == ""
	dir, err := newTraceDir(dir, "sizes")
	if err != nil {
		return err
	}
	var traces []string
	var status error
	for _, n := range r.sizes {
		trace := filepath.Join(dir, traceName(n))
		runErr, err := runOneSize(bin, r, n, trace, stdout, stderr)
		if err != nil {
			return err
		}
		if _, err := os.Stat(trace); err == nil {
			traces = append(traces, trace)
		} else {
			fmt.Fprintf(stderr, "suncat: size %d: the program recorded no trace\n", n)
		}
		if st := statusOf(runErr); st != nil {
			fmt.Fprintf(stderr, "suncat: size %d: %v\n", n, st)
			if status == nil {
				status = st
			}
			var code exitError
			if errors.As(st, &code) && code > 128 {
				break // a signal: the user wants it to stop
			}
		}
	}
	if len(traces) == 0 && made {
		os.Remove(dir)
	}
	if len(traces) < 2 {
		fmt.Fprintf(stderr, "suncat: %d trace(s) in %s: nothing to fit (two sizes or more are needed)\n", len(traces), dir)
		if status == nil {
			status = silentError{exitError(1)}
		}
		return status
	}
	sort.Slice(traces, func(i, j int) bool { return sizeOf(traces[i]) < sizeOf(traces[j]) })
	fmt.Fprintf(stderr, "suncat: %d traces, one per size, in %s\n", len(traces), dir)
	if err := runSummary(stdout, stderr, traces); err != nil {
		return err
	}
	return status
}

// sizeOf is the size in a trace's name (traceName).
func sizeOf(trace string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(trace), "n"), ".suncat"))
	return n
}

// runOneSize makes the input of size n (with -gen) and runs the program
// on it with its trace in the file trace. It returns the program's error
// (its exit status) and, apart, an error of suncat's own.
func runOneSize(bin string, r *sizedRun, n int, trace string, stdout, stderr io.Writer) (runErr, err error) {
	size := strconv.Itoa(n)
	stdin := os.Stdin
	input := ""
	if r.gen != "" {
		f, err := generate(r.gen, size, stderr)
		if err != nil {
			return nil, err
		}
		defer os.Remove(f.Name())
		defer f.Close()
		stdin, input = f, f.Name()
	}
	args := make([]string, len(r.args))
	for i, a := range r.args {
		if input != "" && strings.Contains(a, inputHole) {
			stdin = os.Stdin // the input is named, not piped
		}
		args[i] = strings.ReplaceAll(strings.ReplaceAll(a, inputHole, input), sizeHole, size)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	cmd.Env = append(os.Environ(), tracefmt.TraceEnv+"="+trace)
	return runForwarding(cmd, false), nil
}

// generate runs the shell command gen with {} replaced by size and
// returns the file that holds its standard output, open at its start.
func generate(gen, size string, stderr io.Writer) (*os.File, error) {
	f, err := os.CreateTemp("", "suncat-input-*")
	if err != nil {
		return nil, err
	}
	line := strings.ReplaceAll(gen, sizeHole, size)
	cmd := exec.Command("sh", "-c", line)
	cmd.Stdout, cmd.Stderr = f, stderr
	if err := cmd.Run(); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("-gen for size %s: %s: %v", size, line, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}
