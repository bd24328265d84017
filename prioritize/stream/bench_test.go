package stream

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/suncat-go/suncat/internal/testtrace"
	"github.com/suncat-go/suncat/logrt/tracefile"
	"github.com/suncat-go/suncat/logrt/tracefmt"
	"github.com/suncat-go/suncat/prioritize"
)

// Benchmarks of reading big traces (BENCH.md, "summary of big traces"):
//
//	SUNCAT_BENCH_LARGE=1 go test -run '^$' -bench 'Summary10M|SummaryDir' -benchtime 3x -cpu 2 ./prioritize/stream
//
// The traces are recorded by logrt's test program (internal/testtrace):
// nested loops from three call sites in four marked sub-traces.

func largeBench(b *testing.B) {
	if os.Getenv("SUNCAT_BENCH_LARGE") == "" {
		b.Skip("set SUNCAT_BENCH_LARGE=1: records a 10^7-event trace and summarizes it in a child process")
	}
}

// decodeOnly decodes a trace without keeping its events: the least any
// reader of it must do.
func decodeOnly(b *testing.B, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	if _, err := tracefile.DecodeFunc(path, data, func(ev *tracefile.Event, _ *tracefile.Marker) error {
		if ev != nil {
			n++
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkSummary10M runs suncat summary on a 10^7-event trace in a
// child process, for its peak memory (the child's maximum resident set)
// and time, against decoding the trace in this process (DecodeFunc,
// nothing kept: the least any reader must do), alternating the two in
// each iteration.
func BenchmarkSummary10M(b *testing.B) {
	largeBench(b)
	path, err := testtrace.Shared(10_000_000)
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "suncat")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/suncat-go/suncat/cmd/suncat").CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	var decode, summary time.Duration
	var events int
	var rss int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		events = decodeOnly(b, path)
		t1 := time.Now()
		runtime.GC()
		debug.FreeOSMemory()
		t3 := time.Now()
		cmd := exec.Command(bin, "summary", path)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		summary += time.Since(t3)
		decode += t1.Sub(t0)
		rss = max(rss, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss*1024)
	}
	n := float64(b.N)
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(decode.Milliseconds())/n, "decode-ms")
	b.ReportMetric(float64(summary.Milliseconds())/n, "summary-ms")
	b.ReportMetric(float64(summary)/float64(decode), "x-decode")
	b.ReportMetric(float64(rss)/float64(events), "peak-B/event")
}

// BenchmarkSummaryDir8 summarizes a directory of 8 traces of 10^6 events
// each one after another (each file decoded into its finished part in
// turn, then the parts merged: nothing overlaps) and as Summarize
// does (one reader per CPU; run it with -cpu 2), alternating which goes
// first in each iteration. Besides the times it reports the CPUs each
// side had (its process CPU time over its wall time), which shows
// whether the machine gave the parallel side a second CPU.
func BenchmarkSummaryDir8(b *testing.B) {
	files := dir8(b)
	sides := []func(){
		func() { // one after another
			var parts []*prioritize.Part
			for _, f := range load(b, files...) {
				p, _, _, err := readFile(f, prioritize.Options{}, NewCounts(nil), newStackShare(), nil)
				if err != nil {
					b.Fatal(err)
				}
				parts = append(parts, p)
			}
			if _, err := prioritize.Merge(parts, prioritize.Options{}); err != nil {
				b.Fatal(err)
			}
		},
		func() { // one reader per CPU
			res, err := Summarize(load(b, files...), prioritize.Options{}, Config{})
			if err != nil {
				b.Fatal(err)
			}
			if res.Events < 7_000_000 {
				b.Fatalf("%d events", res.Events)
			}
		},
	}
	var wall, cpu [2]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range sides {
			side := (i + k) % 2
			runtime.GC()
			t0, c0 := time.Now(), cpuTime(b)
			sides[side]()
			wall[side] += time.Since(t0)
			cpu[side] += cpuTime(b) - c0
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(wall[0].Milliseconds())/n, "one-after-another-ms")
	b.ReportMetric(float64(wall[1].Milliseconds())/n, "parallel-ms")
	b.ReportMetric(float64(wall[0])/float64(wall[1]), "speedup")
	b.ReportMetric(float64(cpu[0])/float64(wall[0]), "one-after-another-cpus")
	b.ReportMetric(float64(cpu[1])/float64(wall[1]), "parallel-cpus")
}

// dir8 writes 8 copies of the shared 10^6-event trace into a directory.
func dir8(b *testing.B) []string {
	path, err := testtrace.Shared(1_000_000)
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var files []string
	for i := 0; i < 8; i++ {
		f := filepath.Join(dir, "t"+strconv.Itoa(i)+".suncat")
		if err := os.WriteFile(f, data, 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// cpuTime returns the CPU time the process has used (user and system).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSessionMemory summarizes a session of four synthetic traces
// of growing size (2^17 to 2^20 events, 1.9 M in all) whose events read
// fields on 40,000 distinct stacks of 25 frames (the runtime's frame that
// recorded the read first) in an order the grammar compresses poorly (as
// in a -reads trace of a real program), with the grammar (as
// suncat summary did before NoGrammar, and still does for the grammar
// levels, -json and view) and without (its findings). It reports the
// most heap in use during a summary, garbage included (peak-heap-B), the
// most live after a collection (peak-live-B), and what the summary keeps
// once made (kept-heap-B):
//
//	go test -run '^$' -bench SessionMemory -benchtime 2x -benchmem ./prioritize/stream
func BenchmarkSessionMemory(b *testing.B) {
	files := sessionFiles(b)
	for _, bc := range []struct {
		name string
		opt  prioritize.Options
	}{
		{"grammar", prioritize.Options{NoPatterns: true}},
		{"no-grammar", prioritize.Options{NoGrammar: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var peak, live, kept uint64
			for i := 0; i < b.N; i++ {
				stop := testtrace.HeapPeak()
				res, err := Summarize(load(b, files...), bc.opt, Config{})
				p, l := stop()
				if err != nil {
					b.Fatal(err)
				}
				if res.Events != 15<<17 || len(res.Summary.Findings.Sites) == 0 {
					b.Fatalf("%d events, %d sites", res.Events, len(res.Summary.Findings.Sites))
				}
				peak, live = max(peak, p), max(live, l)
				runtime.GC()
				kept = max(kept, testtrace.HeapObjects())
				runtime.KeepAlive(res)
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
			b.ReportMetric(float64(live), "peak-live-B")
			b.ReportMetric(float64(kept), "kept-heap-B")
		})
	}
}

// sessionFiles writes the traces of BenchmarkSessionMemory: sizes 1, 2,
// 4 and 8 of a program whose loop, 2^17 times per size, reads one of 4
// fields on one of 40,000 stacks (a random walk over 10 call sites of
// each of 4 levels, under 20 common frames, recorded by suncat's runtime)
// and gets one of 4 values.
func sessionFiles(b *testing.B) []string {
	dir := b.TempDir()
	var files []string
	for size := 1; size <= 8; size *= 2 {
		s := testtrace.NewSynth("session")
		first := s.Getter("X0", tracefmt.ReadPrefix+"X0")
		for k := 1; k < 4; k++ {
			s.Getter("X"+strconv.Itoa(k), tracefmt.ReadPrefix+"X"+strconv.Itoa(k))
		}
		rng := uint64(size)
		for i := 0; i < size<<17; i++ {
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			r := int(rng % 40000)
			stack := make([]testtrace.Frame, 0, 25)
			stack = append(stack, testtrace.Frame{Func: "p/suncatrt.ReadIntF[...]", File: "/src/p/suncatrt/events.go", Line: 129})
			for lv, n := 0, r; lv < 4; lv, n = lv+1, n/10 {
				stack = append(stack, testtrace.Frame{Func: "p.f" + strconv.Itoa(lv) + "_" + strconv.Itoa(n%10), File: "/src/p/p.go", Line: 10*lv + n%10 + 1})
			}
			for d := 0; d < 20; d++ {
				stack = append(stack, testtrace.Frame{Func: "p.g" + strconv.Itoa(d), File: "/src/p/g.go", Line: d + 1})
			}
			stack[len(stack)-1].Func = "main.main"
			s.Event(first+uint32(r%4), stack, strconv.Itoa(r%4), 10)
		}
		f := filepath.Join(dir, "n"+strconv.Itoa(size)+".suncat")
		if err := s.WriteFile(f); err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
