package logrt

import (
	"os"
	"testing"
)

// TestFramesTrueStacks runs reads through frame caches (exitprog frames:
// call chains that differ only far from the reads, recursion, closures,
// a range-over-func loop body called from varying depths, a stack that
// grows and moves under a live activation, goroutines moving between
// Ps), and checks that the trace holds exactly one event for each read,
// in order, each with the value and the stack runtime.Callers gave the
// program there. With SUNCAT_FRAME=0 (no frame caches) and
// SUNCAT_REPEAT=0 (no known contexts either), the same.
func TestFramesTrueStacks(t *testing.T) {
	for _, env := range []string{"SUNCAT_FRAME=1", "SUNCAT_FRAME=0", "SUNCAT_REPEAT=0"} {
		dir := t.TempDir()
		keys := printed(t, env, dir, "frames", "300")
		records, repeated := repeatRecords(t, sameStacks(t, env, dir, keys))
		t.Logf("%s: %d reads; %d repeat records count %d", env, len(keys), records, repeated)
		if env == "SUNCAT_FRAME=1" && ctxOn && records == 0 {
			t.Errorf("%s: no repeat records", env)
		}
	}
}

// frameReader reads two fields as the rewrite of -reads makes a function
// read them, with a frame cache of its activation.
//
//go:noinline
func frameReader(t *benchTask, fc *FrameCache) int {
	var __suncatF FrameCache
	n := ReadIntF(&__suncatF, 0, 5, t.priority)
	n += len(ReadStringF(&__suncatF, 1, 4, t.name))
	if fc != nil {
		*fc = __suncatF
	}
	return n
}

// TestFrameCacheNoAlloc checks that the frame cache of an instrumented
// function stays on its stack (the function does not allocate), and that
// its reads fill it.
func TestFrameCacheNoAlloc(t *testing.T) {
	// setupBenchTrace sets SUNCAT_CONTROL=off and the trace folder for
	// the process: restore them when the test ends, or the programs that
	// later tests start (the control channel's) would inherit them.
	for _, k := range []string{TraceEnv, "SUNCAT_CONTROL"} {
		t.Setenv(k, os.Getenv(k))
	}
	setupBenchTrace(t)
	task := &benchTask{name: "Pike St", priority: 3}
	for i := 0; i < 10; i++ {
		frameReader(task, nil)
	}
	if n := testing.AllocsPerRun(1000, func() { frameReader(task, nil) }); n != 0 {
		t.Errorf("an instrumented function made %v allocations a call", n)
	}
	if !frameOn || w.nP == 0 {
		t.Skip("no frame caches here")
	}
	var fc FrameCache
	frameReader(task, &fc)
	if fc.sid == 0 || fc.site[0] != 1 || fc.site[1] != 2 || fc.leaf[0] == 0 || fc.leaf[1] == 0 || fc.leaf[0] == fc.leaf[1] {
		t.Errorf("the reads left the cache %+v", fc)
	}
}

// anchorCallee reads a field once a call, as a method of a few lines
// does: its activation's first read is its only one.
//
//go:noinline
func anchorCallee(t *benchTask) int {
	var __suncatF FrameCache
	return ReadIntF(&__suncatF, 0, 5, t.priority)
}

// anchorThrough calls anchorCallee through a frame that reads nothing.
//
//go:noinline
func anchorThrough(t *benchTask) int { return anchorCallee(t) + 1 }

// anchorCaller reads a field, which fills its cache, then calls
// anchorCallee n times directly and n times through anchorThrough.
//
//go:noinline
func anchorCaller(t *benchTask, n int) int {
	var __suncatF FrameCache
	s := len(ReadStringF(&__suncatF, 0, 4, t.name))
	for i := 0; i < n; i++ {
		s += anchorCallee(t) + anchorThrough(t)
	}
	return s
}

// TestAnchorsSpareWalks checks that the first read of an activation
// whose caller's cache is filled takes its stack from that cache (an
// anchor, anchor.go), directly or through a frame that reads nothing,
// rather than walking the stack: the walks do not grow with the calls.
// That every such event has its true stack is TestFramesTrueStacks'.
func TestAnchorsSpareWalks(t *testing.T) {
	for _, k := range []string{TraceEnv, "SUNCAT_CONTROL"} {
		t.Setenv(k, os.Getenv(k))
	}
	setupBenchTrace(t)
	defer func(on bool) { anchorOn = on }(anchorOn)
	task := &benchTask{name: "Pike St", priority: 3}
	anchorCaller(task, 5) // starts the trace, learns the offsets, defines the nodes
	if !anchorOn || w.nP == 0 {
		t.Skip("no frame caches here")
	}
	const calls = 1000
	for _, on := range []bool{false, true} {
		anchorOn = on
		before := shardWalks()
		anchorCaller(task, calls)
		got := shardWalks() - before
		t.Logf("anchors %v: %d walks for %d calls", on, got, 2*calls)
		if on && got > 20 {
			t.Errorf("%d calls walked the stack %d times, want at most a few", 2*calls, got)
		}
		if !on && got < 2*calls {
			t.Errorf("without anchors, %d calls walked the stack %d times, want one walk a call", 2*calls, got)
		}
	}
}
