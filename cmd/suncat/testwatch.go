package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/suncat-go/suncat/prioritize"
)

// progressMin is the number of packages from which test reports its
// progress after each package's result line.
const progressMin = 4

var (
	// benchResult is a benchmark's result line: name, b.N, ns/op.
	benchResult = regexp.MustCompile(`^(Benchmark\S*)\s+([0-9]+)\s+([0-9.]+) ns/op`)
	// pkgResult is go test's line for a package done.
	pkgResult = regexp.MustCompile(`^(ok  |FAIL|\?   )\t(\S+)`)
)

// testWatch passes go test's output on as it is, and reads it on the
// way: the benchmarks' ns/op, and the packages done, for the progress
// lines it writes to progress (nil: none) with the size of the traces
// so far.
type testWatch struct {
	w        io.Writer
	progress io.Writer
	total    int    // packages to test
	dir      string // the traces' directory
	done     int
	partial  []byte
	nsPerOp  map[string]float64 // go test's benchmark name (BenchmarkX/n=10-2) -> ns/op
	order    []string
}

func (t *testWatch) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.partial = append(t.partial, p[:n]...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.line(string(t.partial[:i]))
		t.partial = t.partial[i+1:]
	}
	return n, err
}

// line reads one line of go test's output (of its -json stream too).
func (t *testWatch) line(l string) {
	if strings.HasPrefix(l, "{") {
		var ev struct{ Action, Output string }
		if json.Unmarshal([]byte(l), &ev) != nil || ev.Action != "output" {
			return
		}
		l = strings.TrimSuffix(ev.Output, "\n")
	}
	if m := benchResult.FindStringSubmatch(l); m != nil {
		if t.nsPerOp == nil {
			t.nsPerOp = map[string]float64{}
		}
		if v, err := strconv.ParseFloat(m[3], 64); err == nil {
			if _, seen := t.nsPerOp[m[1]]; !seen {
				t.order = append(t.order, m[1])
			}
			t.nsPerOp[m[1]] = v
		}
		return
	}
	if t.progress != nil && pkgResult.MatchString(l) {
		t.done++
		fmt.Fprintf(t.progress, "suncat: %d of %d package(s) tested; traces so far: %s\n", t.done, t.total, byteSize(dirSize(t.dir)))
	}
}

// dirSize is the size of the files in dir.
func dirSize(dir string) int64 {
	var n int64
	for _, f := range tracesIn(dir) {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// plainBenchFlags are the go test flags a plain run of the benchmarks
// keeps: those that choose and time them.
var plainBenchFlags = map[string]bool{"bench": true, "benchtime": true, "benchmem": true, "count": true, "cpu": true, "short": true, "timeout": true, "skip": true}

// plainBench runs the benchmarks again without suncat (go test -run '^$'
// with the flags that choose and time them, your own build flags, no
// overlay) and returns each one's ns/op, so that the recording's cost
// can be stated beside the recorded ns/op.
func plainBench(ctx context.Context, dir string, buildFlags, flags, targets, after []string) map[string]float64 {
	args := append([]string{"test", "-run=^$", "-vet=off", "-count=1"}, buildFlags...)
	for _, f := range flags {
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimLeft(f, "-"), "test."), "=")
		if strings.HasPrefix(f, "-") && plainBenchFlags[name] {
			args = append(args, f)
		}
	}
	args = append(args, targets...)
	for i, a := range after {
		if a == "-args" || a == "--args" {
			args = append(args, after[i:]...)
			break
		}
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return nil
	}
	w := &testWatch{w: io.Discard}
	w.Write(out.Bytes())
	return w.nsPerOp
}

// reportBench prints each benchmark's ns/op as go test measured it under
// suncat, with the getter calls recorded per op (when the traces were
// read: s is nil when they are left to suncat summary), beside its ns/op
// without recording (plain; a benchmark missing there says so).
func reportBench(w io.Writer, s *prioritize.Summary, recorded, plain map[string]float64, order []string) {
	if len(order) == 0 {
		return
	}
	calls := callsPerOp(s)
	words, perOp := "", ""
	if len(calls) > 0 {
		words = prioritize.EventWords(s)
		perOp = words + " per op, "
	}
	fmt.Fprintf(w, "suncat: benchmarks: ns/op recorded by suncat, %sns/op of plain go test (the recording's cost is the difference):\n", perOp)
	for _, name := range order {
		line := fmt.Sprintf("suncat:   %s  %s ns/op recorded", name, prioritize.Number(recorded[name]))
		if c, ok := calls[benchName(name, calls)]; ok {
			line += fmt.Sprintf(", %s %s/op", prioritize.Number(round1(c)), words)
		}
		if p, ok := plain[name]; ok && p > 0 {
			line += fmt.Sprintf("; plain %s ns/op: recording costs %s ns/op (%.1fx)", prioritize.Number(p), prioritize.Number(round1(recorded[name]-p)), recorded[name]/p)
		} else {
			line += "; no plain run to compare"
		}
		fmt.Fprintln(w, line)
	}
}

func round1(x float64) float64 {
	if x >= 100 || x <= -100 {
		return float64(int64(x))
	}
	return float64(int64(x*10)) / 10
}

// benchName maps go test's name of a benchmark (with the -GOMAXPROCS
// suffix, BenchmarkX/n=10-2) to its label's (BenchmarkX/n=10).
func benchName(name string, known map[string]float64) string {
	if _, ok := known[name]; ok {
		return name
	}
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

// callsPerOp returns the getter calls per op of each benchmark: the
// events of its longest run divided by that run's b.N.
func callsPerOp(s *prioritize.Summary) map[string]float64 {
	out := map[string]float64{}
	if s == nil || len(s.Groups) == 0 {
		return out
	}
	bestN := map[string]int{}
	for i, st := range s.Groups[0].SubTraces {
		name, n, ok := prioritize.BenchN(st.Label)
		if !ok || n < bestN[name] {
			continue
		}
		events := 0
		for _, g := range s.Groups {
			if i < len(g.SubTraces) {
				events += g.SubTraces[i].Events
			}
		}
		bestN[name] = n
		out[name] = float64(events) / float64(n)
	}
	return out
}
