package logrt

import (
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Benchmarks of the cost of one event against a bare runtime.Callers at the
// same stack depth, in the same run:
//
//	go test -run '^$' -bench . -benchmem ./logrt
//
// The event benchmarks record into a trace in a temporary directory; the
// same stack and value repeat, as they do for a getter in a loop.

var benchOnce sync.Once

// useBenchTrace is setupBenchTrace for a test: setupBenchTrace sets
// SUNCAT_CONTROL=off and the trace folder for the process, which are
// restored when the test ends, or the programs that later tests start
// (the control channel's) would inherit them.
func useBenchTrace(t *testing.T) {
	for _, k := range []string{TraceEnv, "SUNCAT_CONTROL"} {
		t.Setenv(k, os.Getenv(k))
	}
	setupBenchTrace(t)
}

func setupBenchTrace(b testing.TB) {
	benchOnce.Do(func() {
		dir, err := sharedDir("logrt-bench")
		if err != nil {
			b.Fatal(err)
		}
		os.Setenv(TraceEnv, dir+"/")
		os.Setenv("SUNCAT_CONTROL", "off")
		// Long benchmark runs write GiBs: a cap would stop recording and
		// leave the rest of the run measuring nothing.
		maxSize = 0
	})
}

var sink int

// atDepth calls f with depth-1 frames of recursion below the caller.
//
//go:noinline
func atDepth(depth int, f func()) {
	if depth <= 1 {
		f()
		return
	}
	atDepth(depth-1, f)
}

type benchStop struct{ name string }

//go:noinline
func (s *benchStop) Name() string { return String(3, s.name) }

func benchEvents(b *testing.B, depth int) {
	setupBenchTrace(b)
	s := &benchStop{name: "Pike St"}
	s.Name() // warm up: open the trace, define the stack and value
	atDepth(depth, func() { s.Name() })
	before := w.bytesUsed()
	b.ReportAllocs()
	b.ResetTimer()
	atDepth(depth, func() {
		for i := 0; i < b.N; i++ {
			s.Name()
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(w.bytesUsed()-before)/float64(b.N), "trace-B/event")
}

// bareName stands where a getter stands and only captures its stack, with
// the same frames an event captures.
//
//go:noinline
func (s *benchStop) bareName() string {
	var pcs [maxFrames]uintptr
	sink += runtime.Callers(1, pcs[:])
	return s.name
}

func benchCallers(b *testing.B, depth int) {
	s := &benchStop{name: "Pike St"}
	b.ReportAllocs()
	atDepth(depth, func() {
		for i := 0; i < b.N; i++ {
			s.bareName()
		}
	})
}

// benchEventsCallers records with runtime.Callers, as programs do where
// frame pointers cannot be used.
func benchEventsCallers(b *testing.B, depth int) {
	saved := useFP
	useFP = false
	defer func() { useFP = saved }()
	benchEvents(b, depth)
}

// benchTurns records, at one stack, two values taking turns: each event
// is in a known context (repeat.go) but repeats none; with walk, every
// event walks its stack (SUNCAT_REPEAT=0), as before known contexts.
func benchTurns(b *testing.B, depth int, walk bool) {
	saved := ctxOn
	ctxOn = ctxOn && !walk
	defer func() { ctxOn = saved }()
	setupBenchTrace(b)
	ss := [2]*benchStop{{name: "Pike St"}, {name: "Pine St"}}
	atDepth(depth, func() { ss[0].Name(); ss[1].Name() })
	before := w.bytesUsed()
	b.ReportAllocs()
	b.ResetTimer()
	atDepth(depth, func() {
		for i := 0; i < b.N; i++ {
			ss[i&1].Name()
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(w.bytesUsed()-before)/float64(b.N), "trace-B/event")
}

// EventDepth10 and 50 repeat one event (a repeat record counts them) since
// known contexts; EventTurns, two values taking turns at one stack, are
// events of a known context; EventTurnsWalk, the same with every stack
// walked.
func BenchmarkEventTurnsDepth10(b *testing.B)     { benchTurns(b, 10, false) }
func BenchmarkEventTurnsDepth50(b *testing.B)     { benchTurns(b, 50, false) }
func BenchmarkEventTurnsWalkDepth10(b *testing.B) { benchTurns(b, 10, true) }
func BenchmarkEventTurnsWalkDepth50(b *testing.B) { benchTurns(b, 50, true) }

func BenchmarkEventDepth10(b *testing.B)        { benchEvents(b, 10) }
func BenchmarkEventDepth50(b *testing.B)        { benchEvents(b, 50) }
func BenchmarkEventCallersDepth10(b *testing.B) { benchEventsCallers(b, 10) }
func BenchmarkEventCallersDepth50(b *testing.B) { benchEventsCallers(b, 50) }
func BenchmarkCallersDepth10(b *testing.B)      { benchCallers(b, 10) }
func BenchmarkCallersDepth50(b *testing.B)      { benchCallers(b, 50) }

// bytesUsed is the number of trace bytes written so far, by all shards.
func (w *writer) bytesUsed() int64 {
	var n int64
	for _, s := range w.shards {
		s.mu.Lock()
		n += s.written
		s.mu.Unlock()
	}
	return n
}

// recurse calls the getter at every level of a recursion that goes left
// or right by the bits of path: over many paths, stacks that rarely
// repeat exactly, as in a recursive evaluator or sort.
//
//go:noinline
func recurse(s *benchStop, path uint32, depth int) {
	s.Name()
	if depth == 0 {
		return
	}
	if path&1 == 0 {
		recurseLeft(s, path>>1, depth-1)
	} else {
		recurseRight(s, path>>1, depth-1)
	}
}

//go:noinline
func recurseLeft(s *benchStop, path uint32, depth int) { recurse(s, path, depth) }

//go:noinline
func recurseRight(s *benchStop, path uint32, depth int) { recurse(s, path, depth) }

// BenchmarkEventRecursive records the events of recursions 20 levels deep
// along successive paths, each recursion 21 events; an event's stack
// repeats only when two paths share a prefix (trace-B/event counts the
// stack definitions too).
func BenchmarkEventRecursive(b *testing.B) {
	setupBenchTrace(b)
	s := &benchStop{name: "Pike St"}
	s.Name()
	before := w.bytesUsed()
	b.ReportAllocs()
	b.ResetTimer()
	events := 0
	for i := 0; events < b.N; i++ {
		recurse(s, uint32(i)*2654435761, 20)
		events += 21
	}
	b.StopTimer()
	b.ReportMetric(float64(w.bytesUsed()-before)/float64(events), "trace-B/event")
}

// BenchmarkEventGoroutines records from one and from two goroutines at
// once, each at depth 10 with its own value, and reports events per
// second of all of them (run with GOMAXPROCS=2 to compare);
// BenchmarkCallersGoroutines is its control: the same goroutines only
// capture their stacks, which shares nothing, so its ratio is what the
// machine allows:
//
//	GOMAXPROCS=2 go test -run '^$' -bench 'Goroutines' ./logrt
func BenchmarkEventGoroutines(b *testing.B) {
	setupBenchTrace(b)
	(&benchStop{name: "warm"}).Name()
	benchGoroutines(b, (*benchStop).Name)
}

func BenchmarkCallersGoroutines(b *testing.B) {
	benchGoroutines(b, (*benchStop).bareName)
}

// benchGoroutines runs f b.N times in each of one, then two, goroutines
// at once, at depth 10, and reports calls per second of all of them.
func benchGoroutines(b *testing.B, f func(*benchStop) string) {
	for _, g := range []int{1, 2} {
		b.Run(itoa(g), func(b *testing.B) {
			b.ResetTimer()
			b.ReportMetric(runGoroutines(g, b.N, f), "calls/s")
		})
	}
}

// BenchmarkEventScaling compares two goroutines recording at once with
// one, as BenchmarkEventGoroutines does, but in one run that alternates
// the sides: b.N rounds, each of which times one goroutine and two, for
// the writer and for the control (stacks only), in an order that changes
// from round to round. It reports the median rate of each side and the
// ratios (x-events: two goroutines' events per second over one's;
// x-control: the same for the control), so that load from elsewhere on a
// shared machine falls on both sides alike:
//
//	GOMAXPROCS=2 go test -run '^$' -bench EventScaling -benchtime 30x ./logrt
func BenchmarkEventScaling(b *testing.B) {
	setupBenchTrace(b)
	(&benchStop{name: "warm"}).Name()
	type side struct {
		f     func(*benchStop) string
		calls int // per goroutine and round: about 10 ms
		rates [2][]float64
	}
	sides := []*side{{f: (*benchStop).Name, calls: 80000}, {f: (*benchStop).bareName, calls: 15000}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := 0; k < 4; k++ {
			k := (k + i) % 4 // the order of the four timings turns
			sd, g := sides[k/2], 1+(k+i/4)%2
			sd.rates[g-1] = append(sd.rates[g-1], runGoroutines(g, sd.calls, sd.f))
		}
	}
	b.StopTimer()
	ev, ctl := sides[0], sides[1]
	b.ReportMetric(median(ev.rates[0]), "events/s-1g")
	b.ReportMetric(median(ev.rates[1]), "events/s-2g")
	b.ReportMetric(median(ev.rates[1])/median(ev.rates[0]), "x-events")
	b.ReportMetric(median(ctl.rates[1])/median(ctl.rates[0]), "x-control")
}

// runGoroutines runs f n times in each of g goroutines at once, at depth
// 10, and returns the calls per second of all of them.
func runGoroutines(g, n int, f func(*benchStop) string) float64 {
	var wg sync.WaitGroup
	start := time.Now()
	for k := 0; k < g; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			s := &benchStop{name: "goroutine " + itoa(k)}
			atDepth(10, func() {
				for i := 0; i < n; i++ {
					f(s)
				}
			})
		}(k)
	}
	wg.Wait()
	return float64(g*n) / time.Since(start).Seconds()
}

// median returns the median of xs (which it sorts), 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

// BenchmarkEventFewValues records a getter that returns one of 16 values
// in no order (a kind, a state), in a trace whose shard has defined
// 200,000 other values: neither guess of the value's lane is right, and
// the values' table is larger than the processor's cache.
func BenchmarkEventFewValues(b *testing.B) {
	setupBenchTrace(b)
	fewValuesOnce.Do(func() {
		for i := 0; i < 200000; i++ {
			String(2, "filler value "+strconv.Itoa(i))
		}
	})
	kinds := make([]string, 16)
	for i := range kinds {
		kinds[i] = "kind " + strconv.Itoa(i)
	}
	rng := uint32(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rng = rng*1664525 + 1013904223
		String(3, kinds[rng>>28])
	}
}

var fewValuesOnce sync.Once

// BenchmarkPutTrailer measures the check a shard writes into each chunk
// it leaves (trailer.go): a CRC-32C of its records, here of a 1 MiB chunk
// of 12-byte records, about what events of a shallow stack take; once a
// MiB of trace.
func BenchmarkPutTrailer(b *testing.B) {
	chunk := make([]byte, chunkSize)
	off := 0
	for off+12 <= chunkSize-noteRoom-64 {
		le32(chunk[off:], uint32(kindEventDelta)|8<<8)
		for i := 4; i < 12; i++ {
			chunk[off+i] = byte(i)
		}
		off += 12
	}
	b.SetBytes(int64(off))
	for i := 0; i < b.N; i++ {
		putTrailer(chunk, 1, off, off/12, off/12)
	}
}
