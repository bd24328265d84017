package logrt

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/suncat-go/suncat/logrt/internal/together"
	"github.com/suncat-go/suncat/logrt/tracefile"
)

type value struct{ s string }

//go:noinline
func (v *value) Get() string { return String(2, v.s) }

// TestConcurrent records from 8 goroutines at once in this process (run it
// under -race) and checks that no event is lost or garbled; then, with the
// goroutines taking turns under a lock, that the trace keeps the order in
// which they recorded exactly, whichever shards they wrote to; then, while
// one goroutine pauses and resumes over and over, that no event falls
// inside a pause. It is the only test that uses this process's own writer.
func TestConcurrent(t *testing.T) {
	const goroutines, calls = 8, 100000
	n := calls
	if testing.Short() {
		n = calls / 10
	}
	dir := t.TempDir()
	t.Setenv(TraceEnv, dir)
	t.Setenv("SUNCAT_CONTROL", "off")
	SetGetters([]Getter{{ID: 2, Package: "logrt", Receiver: "*value", Method: "Get", Field: "s"}})
	together.Run(goroutines, func(g int) {
		v := &value{s: "goroutine " + strconv.Itoa(g)}
		for i := 0; i < n; i++ {
			v.Get()
		}
	})
	const turns = 1000
	var mu sync.Mutex
	next := 0
	together.Run(goroutines, func(g int) {
		v := &value{}
		for i := 0; i < turns; i++ {
			mu.Lock()
			v.s = "turn " + strconv.Itoa(next)
			next++
			v.Get()
			mu.Unlock()
		}
	})
	Mark("pauses")
	together.Run(goroutines, func(g int) {
		v := &value{s: "paused?"}
		for i := 0; i < n/10; i++ {
			if g == 0 && i%100 == 0 {
				Pause()
				Resume()
			}
			v.Get()
		}
	})
	path := TracePath()
	if filepath.Dir(path) != dir {
		t.Fatalf("trace at %q, want it in %s", path, dir)
	}
	tr, err := tracefile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.ByClock != byClock {
		t.Errorf("trace ordered by the clock: %v, want %v", tr.ByClock, byClock)
	}
	checkCounts(t, tr, goroutines, n)
	checkTurns(t, tr, goroutines*turns)
	checkPauses(t, tr)
	used := 0
	for _, s := range w.shards {
		if s.written > 0 {
			used++
		}
	}
	if runtime.GOMAXPROCS(0) > 1 && used < 2 {
		t.Errorf("%d goroutines wrote to %d shard(s)", goroutines, used)
	}
	var pinned, locked int64
	for _, s := range w.shards {
		if s.pinned {
			pinned += s.written
		} else {
			locked += s.written
		}
	}
	if w.nP > 0 && pinned < 4*locked {
		t.Errorf("the Ps' shards wrote %d bytes, the locked shards %d: most events should be written pinned", pinned, locked)
	}
	checkMapped(t, path)
	checkNoMapper(t)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d events in %d stacks, %d shards; file %d bytes (sparse)", len(tr.Events), len(tr.Stacks), used, st.Size())
}

// checkCounts: every goroutine's events of the first phase are there.
func checkCounts(t *testing.T, tr *tracefile.Trace, goroutines, n int) {
	per := map[string]int{}
	for _, e := range tr.Events {
		per[e.Value]++
	}
	for g := 0; g < goroutines; g++ {
		if c := per["goroutine "+strconv.Itoa(g)]; c != n {
			t.Errorf("goroutine %d: %d events, want %d", g, c, n)
		}
	}
}

// checkTurns: the events of the second phase are in the order of their
// turns, and none is missing.
func checkTurns(t *testing.T, tr *tracefile.Trace, turns int) {
	k := 0
	for _, e := range tr.Events {
		if !strings.HasPrefix(e.Value, "turn ") {
			continue
		}
		if want := "turn " + strconv.Itoa(k); e.Value != want {
			t.Fatalf("event %d of the turns is %q, want %q", k, e.Value, want)
		}
		k++
	}
	if k != turns {
		t.Errorf("%d turns recorded, want %d", k, turns)
	}
}

// checkPauses: no event lies between a pause mark and the next resume.
func checkPauses(t *testing.T, tr *tracefile.Trace) {
	paused, pauses, events := false, 0, 0
	ei := 0
	for _, m := range tr.Marks {
		for ; ei < len(tr.Events) && tr.Events[ei].Seq < m.Seq; ei++ {
			if paused {
				t.Fatalf("event %d (%q) recorded inside a pause", ei, tr.Events[ei].Value)
			}
			if tr.Events[ei].Value == "paused?" {
				events++
			}
		}
		switch m.Kind {
		case KindPause:
			paused = true
			pauses++
		case KindResume:
			paused = false
		}
	}
	if pauses == 0 || events == 0 {
		t.Errorf("%d pauses, %d events between them; want some of both", pauses, events)
	}
}

// TestOrders: a program whose goroutines take turns, and pause while
// others record, gives the same exact order and the same pauses in a
// trace ordered by the sequence counter (SUNCAT_ORDER=counter) and in one
// ordered by the clock (the default where the clock is fine-grained).
func TestOrders(t *testing.T) {
	const n = 2000
	for _, order := range []string{"counter", "clock"} {
		t.Run(order, func(t *testing.T) {
			tr := runProg(t, "turns", n, "SUNCAT_ORDER="+order)
			if want := order == "clock" && byClock; tr.ByClock != want {
				t.Errorf("trace ordered by the clock: %v, want %v", tr.ByClock, want)
			}
			checkTurns(t, tr, 4*n)
			checkPauses(t, tr)
		})
	}
}

// TestChurn: eight goroutines record while GOMAXPROCS changes between 1
// and 8 (so records move between the Ps' shards and the locked ones), and
// Flush and Label run; each goroutine's events are all there, once, in
// the order it recorded them, ordered by the clock, by the counter, with
// runtime.Callers, and with locked shards only. With pauses, no event is
// recorded twice or out of order.
func TestChurn(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 3000
	}
	for _, env := range []string{"SUNCAT_ORDER=clock", "SUNCAT_ORDER=counter", "SUNCAT_FP=0", "SUNCAT_PIN=0"} {
		tr := runProg(t, "churn", n, env)
		checkSequences(t, env, tr, 8, n)
	}
	checkSequences(t, "paused", runProg(t, "churnpause", n), 8, -1)
}

// checkSequences: the events' values are "g<k> <i>", and each goroutine's
// i run 0, 1, ... in the trace's order, n of them (or, for n < 0, rise).
func checkSequences(t *testing.T, what string, tr *tracefile.Trace, goroutines, n int) {
	t.Helper()
	next := make(map[string]int)
	for _, e := range tr.Events {
		g, i, ok := strings.Cut(e.Value, " ")
		k, err := strconv.Atoi(i)
		if !ok || err != nil {
			t.Fatalf("%s: event value %q", what, e.Value)
		}
		if n >= 0 && k != next[g] || k < next[g] {
			t.Fatalf("%s: %s: event %d follows %d", what, g, k, next[g]-1)
		}
		next[g] = k + 1
	}
	for g := 0; g < goroutines && n >= 0; g++ {
		if c := next["g"+strconv.Itoa(g)]; c != n {
			t.Errorf("%s: goroutine %d: %d events, want %d", what, g, c, n)
		}
	}
	if tr.Cut || tr.Torn {
		t.Errorf("%s: trace read as cut (%v) or torn (%v)", what, tr.Cut, tr.Torn)
	}
}

// TestPinnedAndLocked: goroutines record distinct values over many chunks
// in the Ps' shards, and go on once GOMAXPROCS is raised beyond them, in
// the locked shards; no event is lost, and each goroutine's events are in
// the order it recorded them.
func TestPinnedAndLocked(t *testing.T) {
	const n = 40000
	checkSequences(t, "procs", runProg(t, "procs", n, "GOMAXPROCS=2"), 4, n)
}

// TestManyPs: with 48 Ps (a big server's, here on however many CPUs),
// 48 goroutines recording at once record in the Ps' own shards, pinned:
// the two locked shards hold a small part of the trace (with shards for
// 32 Ps only, they held 61% of it; now a few KiB); no event is lost, and each
// goroutine's events are in order.
func TestManyPs(t *testing.T) {
	if pinnedShards() == 0 {
		t.Skip("the Ps have no shards of their own here (no mapped chunks, or SUNCAT_PIN=0)")
	}
	const n = 4000 // 192,000 distinct values, several MiB
	tr := runProg(t, "spread", n, "GOMAXPROCS=48")
	checkSequences(t, "spread", tr, 48, n)
	data, err := os.ReadFile(tr.Path)
	if err != nil {
		t.Fatal(err)
	}
	locked, all := 0, 0
	for id, chunks := range chunksByShard(data) {
		for _, c := range chunks {
			b := data[c*chunkSize : (c+1)*chunkSize]
			used := len(bytes.TrimRight(b, "\x00"))
			if all += used; id < 2 {
				locked += used
			}
		}
	}
	t.Logf("the locked shards hold %d of the trace's %d bytes", locked, all)
	if locked*20 > all {
		t.Errorf("the locked shards hold %d of the trace's %d bytes, want at most a twentieth: the Ps' records queued for them", locked, all)
	}
}

// checkMapped: the chunks the Ps' shards left are unmapped, once the
// mapper has run: what stays mapped is the header, a chunk for each shard
// and a spare for each P's shard.
func checkMapped(t *testing.T, path string) {
	w.refillNow()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Logf("mappings not checked: %v", err)
		return
	}
	n := strings.Count(string(maps), path)
	if max := 1 + len(w.shards) + w.nP; n > max {
		t.Errorf("%d mappings of the trace, want at most %d", n, max)
	}
}

// checkNoMapper: once recording is idle, the mapper is gone, as tests that
// check for leaked goroutines (goleak) expect of the programs they test.
func checkNoMapper(t *testing.T) {
	buf := make([]byte, 1<<20)
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		n := runtime.Stack(buf, true)
		if !strings.Contains(string(buf[:n]), "mapSpares") {
			return
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("the mapper is still running after 5s of idle:\n%s", buf[:n])
		}
	}
}
