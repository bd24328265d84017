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
				p, _, _, err := readFile(f, prioritize.Options{}, NewCounts(nil), newStackShare())
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
